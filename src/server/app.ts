// The HTTP application: routes `/ubicaciones/…` and `/openapi.json` to the
// locations API and everything else to the optional static site; startServer() listens.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openLocationStore, type LocationStore } from '../locations/db.ts';
import { ROUTE_TYPES, type LocationType } from '../locations/types.ts';
import { sendError } from './errors.ts';
import { Representation } from './http.ts';
import { LiveStore } from './live-store.ts';
import { ByteLru } from './lru.ts';
import { openApiDocument } from './openapi.ts';
import { STREAM_ROWS, streamPage } from './page-stream.ts';
import { parsePaging, parseQuery } from './params.ts';
import { createStaticHandler } from './static.ts';

export interface AppOptions {
  /** The database: a path (opened read-only) or an open store. */
  db: string | LocationStore;
  /** A built site folder (e.g. "dist") served for every path the API does not own. */
  distDir?: string;
  /** Bytes of API responses (route + skip + limit, compressed variants included) to keep; 0 turns the cache off. */
  responseCacheBytes?: number;
  /** Follow the database file and serve its new contents when it changes (default true). */
  watch?: boolean;
}

/** Default budget of the response cache. */
export const RESPONSE_CACHE_BYTES = 64 * 1024 * 1024;

/** A request handler with what it holds: the live store and the response cache. */
export type App = ((req: IncomingMessage, res: ServerResponse) => void) & {
  live: LiveStore;
  cache: ByteLru<Representation | 'none'>;
  /** Stops following the file and closes the store (once no response reads it). */
  close(): void;
};

/** Cache-Control of API pages: shared caches may keep them a minute, then revalidate with the ETag. */
export const API_CACHE_CONTROL = 'public, max-age=60';
const EXPOSED_HEADERS = 'X-Total-Count, Link, ETag';

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
export function createApp(options: AppOptions): App {
  const store = typeof options.db === 'string' ? openLocationStore(options.db) : options.db;
  const live = new LiveStore(store);
  if (options.watch ?? true) void live.watch();
  const serveStatic = options.distDir ? createStaticHandler(options.distDir) : undefined;
  // "path skip limit" → page, or "none" for a typed 404
  const cache = new ByteLru<Representation | 'none'>(
    options.responseCacheBytes ?? RESPONSE_CACHE_BYTES,
    (value) => (value === 'none' ? 16 : value.bytes()),
  );
  live.onSwap = () => cache.clear(); // a new version of the file: every kept page may be stale
  const openapi = new Representation(Buffer.from(JSON.stringify(openApiDocument())), {
    'content-type': 'application/json',
    'cache-control': 'no-cache',
  });

  function listHeaders(
    route: ApiRoute & { kind: 'list' },
    skip: number,
    limit: number,
    rows: number,
    total: number,
  ) {
    const links: string[] = [];
    if (skip + rows < total) links.push(`<${route.path}?skip=${skip + rows}&limit=${limit}>; rel="next"`);
    if (skip > 0)
      links.push(
        `<${route.path}?skip=${Math.max(0, Math.min(skip, total) - limit)}&limit=${limit}>; rel="prev"`,
      );
    return {
      'content-type': 'application/json',
      'cache-control': API_CACHE_CONTROL,
      'x-total-count': String(total),
      'access-control-expose-headers': EXPOSED_HEADERS,
      ...(links.length > 0 ? { link: links.join(', ') } : {}),
    };
  }

  /** Returns the page of `route` built whole, or 'none' when a typed route has no location there. */
  function page(route: ApiRoute & { kind: 'list' }, skip: number, limit: number): Representation | 'none' {
    const key = `${route.path} ${skip} ${limit}`;
    const hit = cache.get(key);
    if (hit) return hit;
    const current = live.store;
    const total = current.count(route.type);
    const rows = skip < total ? current.page(route.type, skip, Math.min(limit, total - skip)) : [];
    let result: Representation | 'none' = 'none';
    if (rows.length > 0 || route.type === null) {
      const headers = listHeaders(route, skip, limit, rows.length, total);
      result = new Representation(Buffer.from(JSON.stringify(rows)), headers);
    }
    cache.set(key, result);
    return result;
  }

  function serveApi(
    req: IncomingMessage,
    res: ServerResponse,
    route: ApiRoute,
    query: string,
  ): void | Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return sendError(req, res, 405, undefined, { allow: 'GET, HEAD' });
    }
    if (route.kind === 'openapi') return openapi.send(req, res);
    const paging = parsePaging(parseQuery(query));
    if (Array.isArray(paging)) return sendError(req, res, 422, paging);
    const { skip, limit } = paging;
    const total = live.store.count(route.type);
    const rows = Math.max(0, Math.min(limit, total - skip));
    if (rows > STREAM_ROWS) {
      const headers = listHeaders(route, skip, limit, rows, total);
      return streamPage(req, res, live.acquire(), { type: route.type, skip, count: rows, headers });
    }
    const result = page(route, skip, limit);
    if (result === 'none')
      return sendError(req, res, 404, `No se encontraron ubicaciones de tipo ${route.type}`);
    const key = `${route.path} ${skip} ${limit}`;
    return result.send(req, res).then(() => cache.update(key)); // a compressed variant may have been added
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

  const app = (req: IncomingMessage, res: ServerResponse) => {
    // set before any writeHead, so every response has it: pages, errors, redirects, 304s
    res.setHeader('access-control-allow-origin', '*');
    try {
      const done = handle(req, res);
      if (done) done.catch((error: unknown) => fail(req, res, error));
    } catch (error) {
      fail(req, res, error);
    }
  };
  return Object.assign(app, { live, cache, close: () => live.close() });
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

/**
 * A bug: logged with its stack, answered 500 with the usual error body. A
 * database locked by a writer for longer than BUSY_TIMEOUT_MS is no bug: 503.
 */
function fail(req: IncomingMessage, res: ServerResponse, error: unknown): void {
  const code = (error as { code?: unknown }).code;
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
    if (!res.headersSent) return sendError(req, res, 503, undefined, { 'retry-after': '1' });
  } else if (code === 'EACCES' || code === 'EIO' || code === 'EMFILE' || code === 'ENFILE') {
    console.error(`error on ${req.method} ${req.url}: ${(error as Error).message}`);
  } else {
    console.error(`unexpected error on ${req.method} ${req.url}:`, error);
  }
  if (!res.headersSent) sendError(req, res, 500);
  else res.destroy();
}

export interface RunningServer {
  server: Server;
  url: string; // e.g. "http://127.0.0.1:8000", with the real port when 0 was asked
  app: App;
  /**
   * Stops accepting connections, lets responses in flight finish for up to
   * `graceMs` (then cuts them), and closes the store. Default grace 0: cut at once.
   */
  close(graceMs?: number): Promise<void>;
}

/** Starts an HTTP server with createApp(options) on host:port; resolves once it listens. */
export async function startServer(
  options: AppOptions & { host?: string; port?: number },
): Promise<RunningServer> {
  const store = typeof options.db === 'string' ? openLocationStore(options.db) : options.db;
  const app = createApp({ ...options, db: store });
  const server = createServer({ keepAliveTimeout: 5000 }, app);
  const host = options.host ?? '127.0.0.1';
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 8000, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    app.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return { server, url, app, close: (graceMs = 0) => shutDown(server, app, graceMs) };
}

/** server.close() waits for every connection; idle keep-alive ones are closed as they become idle. */
function shutDown(server: Server, app: App, graceMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const idle = setInterval(() => server.closeIdleConnections(), 50);
    const cut = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearInterval(idle);
      clearTimeout(cut);
      app.close();
      resolve();
    });
    server.closeIdleConnections();
    if (graceMs <= 0) server.closeAllConnections();
  });
}
