// The HTTP application: routes `/ubicaciones/…` and `/openapi.json` to the
// locations API and everything else to the optional static site; startServer() listens.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openLocationStore, type LocationStore } from '../locations/db.ts';
import { ROUTE_TYPES, type LocationType } from '../locations/types.ts';
import { sendError } from './errors.ts';
import { Representation } from './http.ts';
import { openApiDocument } from './openapi.ts';
import { parsePaging, parseQuery } from './params.ts';
import { createStaticHandler } from './static.ts';

export interface AppOptions {
  /** The database: a path (opened read-only) or an open store. */
  db: string | LocationStore;
  /** A built site folder (e.g. "dist") served for every path the API does not own. */
  distDir?: string;
  /** How many API responses (route + skip + limit) to keep ready; 0 turns the cache off. Default 1024. */
  responseCache?: number;
}

/** Cache-Control of API pages: shared caches may keep them a minute, then revalidate with the ETag. */
export const API_CACHE_CONTROL = 'public, max-age=60';
const EXPOSED_HEADERS = 'X-Total-Count, Link, ETag';
/** Pages bigger than this (e.g. ?limit=1000000) are built per request, never kept: the cache stays small. */
const MAX_CACHED_BODY = 1024 * 1024;

type ApiRoute = { kind: 'openapi' } | { kind: 'list'; type: LocationType | null; path: string };

/** Returns the API route of a decoded path, e.g. "/ubicaciones/otros/" → the otro list. */
function matchApi(path: string): ApiRoute | undefined {
  if (path === '/openapi.json') return { kind: 'openapi' };
  if (path === '/ubicaciones/') return { kind: 'list', type: null, path };
  const match = /^\/ubicaciones\/([^/]+)\/$/.exec(path);
  const type = match ? ROUTE_TYPES.get(match[1]!) : undefined;
  return type ? { kind: 'list', type, path } : undefined;
}

function decodePath(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * Returns a `node:http` request handler serving the locations API over
 * `options.db` (read-only) and, when given, the static site `options.distDir`.
 */
export function createApp(options: AppOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const store = typeof options.db === 'string' ? openLocationStore(options.db) : options.db;
  const serveStatic = options.distDir ? createStaticHandler(options.distDir) : undefined;
  const maxCached = options.responseCache ?? 1024;
  const cache = new Map<string, Representation | 'none'>(); // "path skip limit" → page, or "none" for a typed 404
  const openapi = new Representation(Buffer.from(JSON.stringify(openApiDocument())), {
    'content-type': 'application/json',
    'cache-control': 'no-cache',
  });

  /** Returns the page of `route`, or 'none' when a typed route has no location there. */
  function page(route: ApiRoute & { kind: 'list' }, skip: number, limit: number): Representation | 'none' {
    const key = `${route.path} ${skip} ${limit}`;
    const hit = cache.get(key);
    if (hit) {
      cache.delete(key); // least recently used first out: move the hit to the end
      cache.set(key, hit);
      return hit;
    }
    const total = store.count(route.type);
    const rows = skip < total ? store.page(route.type, skip, Math.min(limit, total - skip)) : [];
    let result: Representation | 'none' = 'none';
    if (rows.length > 0 || route.type === null) {
      const links: string[] = [];
      if (skip + rows.length < total)
        links.push(`<${route.path}?skip=${skip + rows.length}&limit=${limit}>; rel="next"`);
      if (skip > 0)
        links.push(
          `<${route.path}?skip=${Math.max(0, Math.min(skip, total) - limit)}&limit=${limit}>; rel="prev"`,
        );
      result = new Representation(Buffer.from(JSON.stringify(rows)), {
        'content-type': 'application/json',
        'cache-control': API_CACHE_CONTROL,
        'x-total-count': String(total),
        'access-control-expose-headers': EXPOSED_HEADERS,
        ...(links.length > 0 ? { link: links.join(', ') } : {}),
      });
    }
    if (maxCached > 0 && (result === 'none' || result.body.length <= MAX_CACHED_BODY)) {
      if (cache.size >= maxCached) cache.delete(cache.keys().next().value!);
      cache.set(key, result);
    }
    return result;
  }

  function serveApi(req: IncomingMessage, res: ServerResponse, route: ApiRoute, query: string): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return sendError(req, res, 405, undefined, { allow: 'GET, HEAD' });
    }
    if (route.kind === 'openapi') return openapi.send(req, res);
    const paging = parsePaging(parseQuery(query));
    if (Array.isArray(paging)) return sendError(req, res, 422, paging);
    const result = page(route, paging.skip, paging.limit);
    if (result === 'none')
      return sendError(req, res, 404, `No se encontraron ubicaciones de tipo ${route.type}`);
    result.send(req, res);
  }

  function handle(req: IncomingMessage, res: ServerResponse): void | Promise<void> {
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    const rawPath = queryAt < 0 ? url : url.slice(0, queryAt);
    const query = queryAt < 0 ? '' : url.slice(queryAt + 1);
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) return preflight(req, res);
    const path = decodePath(rawPath);
    const route = matchApi(path);
    if (route) return serveApi(req, res, route, query);
    // Starlette's redirect_slashes: the path with its trailing slashes stripped, or one added, matches → 307
    const toggled = path.endsWith('/') ? path.replace(/\/+$/, '') : `${path}/`;
    if (path !== '/' && matchApi(toggled)) {
      const host = req.headers.host ?? `${req.socket.localAddress}:${req.socket.localPort}`;
      res.writeHead(307, {
        location: `http://${host}${toggled}${query ? `?${query}` : ''}`,
        'content-length': 0,
      });
      res.end();
      return;
    }
    if (serveStatic && !path.startsWith('/ubicaciones/')) return serveStatic(req, res, rawPath, query);
    sendError(req, res, 404);
  }

  return (req, res) => {
    // set before any writeHead, so every response has it: pages, errors, redirects, 304s
    res.setHeader('access-control-allow-origin', '*');
    try {
      const done = handle(req, res);
      if (done) done.catch((error: unknown) => fail(req, res, error));
    } catch (error) {
      fail(req, res, error);
    }
  };
}

/** CORS preflight (a browser asking before a cross-origin request): allowed for GET and HEAD. */
function preflight(req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(204, {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'GET, HEAD',
    'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '',
    'access-control-max-age': '86400',
    'content-length': 0,
  });
  res.end();
}

/** A bug: logged with its stack, answered 500 with the usual error body. */
function fail(req: IncomingMessage, res: ServerResponse, error: unknown): void {
  console.error(`unexpected error on ${req.method} ${req.url}:`, error);
  if (!res.headersSent) sendError(req, res, 500);
  else res.destroy();
}

export interface RunningServer {
  server: Server;
  url: string; // e.g. "http://127.0.0.1:8000", with the real port when 0 was asked
  close(): Promise<void>;
}

/** Starts an HTTP server with createApp(options) on host:port; resolves once it listens. */
export async function startServer(
  options: AppOptions & { host?: string; port?: number },
): Promise<RunningServer> {
  const store = typeof options.db === 'string' ? openLocationStore(options.db) : options.db;
  const server = createServer({ keepAliveTimeout: 5000 }, createApp({ ...options, db: store }));
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8000, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    server,
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          if (typeof options.db === 'string') store.close();
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}
