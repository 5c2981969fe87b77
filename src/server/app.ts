// The HTTP application: routes `/ubicaciones/…` and `/openapi.json` to the
// locations API and everything else to the optional static site; startServer() listens.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openLocationStore, type LocationStore } from '../locations/db.ts';
import { createApiHandler, type CachedPage } from './api.ts';
import { sendError } from './errors.ts';
import { writeHead } from './http.ts';
import { LiveStore } from './live-store.ts';
import { errorFields, jsonLinesLogger, type Logger } from './log.ts';
import type { BodyCache } from './representation.ts';
import { matchApi } from './routes.ts';
import { createStaticHandler } from './static.ts';

export interface AppOptions {
  /** The database: a path (opened read-only) or an open store. */
  db: string | LocationStore;
  /** A built site folder (e.g. "dist") served for every path the API does not own. */
  distDir?: string;
  /** Bytes of API responses (route + skip + limit, compressed variants included) to keep; 0 turns the cache off. */
  responseCacheBytes?: number;
  /** Static files up to this many bytes are kept in memory, larger ones streamed from disk (default 16 MiB). */
  memoryFileBytes?: number;
  /** Follow the database file and serve its new contents when it changes (default true). */
  watch?: boolean;
  /** Where log entries go (default: JSON lines on stdout, see log.ts). */
  log?: Logger;
}

/** Default budget of the response cache. */
const RESPONSE_CACHE_BYTES = 64 * 1024 * 1024;

/** A request handler with what it holds: the live store and the response cache. */
export type App = ((req: IncomingMessage, res: ServerResponse) => void) & {
  live: LiveStore;
  /** The API's response cache; undefined when turned off (responseCacheBytes 0). */
  cache: BodyCache<CachedPage> | undefined;
  log: Logger;
  /** Stops following the file and closes the store (once no response reads it). */
  close(): void;
};

function decodePath(raw: string): string {
  if (!raw.includes('%')) return raw;
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
  const log = options.log ?? jsonLinesLogger();
  const store = typeof options.db === 'string' ? openLocationStore(options.db) : options.db;
  const live = new LiveStore(store, log);
  if (options.watch ?? true) live.watch();
  const serveApi = createApiHandler(live, options.responseCacheBytes ?? RESPONSE_CACHE_BYTES);
  const serveStatic = options.distDir
    ? createStaticHandler(options.distDir, log, options.memoryFileBytes)
    : undefined;

  function route(req: IncomingMessage, res: ServerResponse): void | Promise<void> {
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    const rawPath = queryAt < 0 ? url : url.slice(0, queryAt);
    const query = queryAt < 0 ? '' : url.slice(queryAt + 1);
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) return preflight(req, res);
    const path = decodePath(rawPath);
    const api = matchApi(path);
    if (api) return serveApi(req, res, api, query);
    if (redirectSlash(req, res, path, query)) return;
    if (serveStatic && !path.startsWith('/ubicaciones/')) return serveStatic(req, res, rawPath, query);
    sendError(req, res, 404);
  }

  const app = (req: IncomingMessage, res: ServerResponse) => {
    try {
      const done = route(req, res);
      if (done) done.catch((error: unknown) => fail(log, live, req, res, error));
    } catch (error) {
      fail(log, live, req, res, error);
    }
  };
  return Object.assign(app, { live, cache: serveApi.cache, log, close: () => live.close() });
}

/**
 * Starlette's redirect_slashes: when the path with its trailing slashes
 * stripped, or one added, is an API route → 307 to it (absolute, from Host,
 * query kept). Returns true when it answered.
 */
function redirectSlash(req: IncomingMessage, res: ServerResponse, path: string, query: string): boolean {
  const toggled = path.endsWith('/') ? stripTrailingSlashes(path) : `${path}/`;
  if (path === '/' || !matchApi(toggled)) return false;
  const host = req.headers.host ?? `${req.socket.localAddress}:${req.socket.localPort}`;
  const location = `http://${host}${toggled}${query ? `?${query}` : ''}`;
  writeHead(res, 307, { location, 'content-length': 0 });
  res.end();
  return true;
}

/**
 * Returns `path` without its trailing slashes, as Python's `rstrip("/")`:
 * "/openapi.json//" → "/openapi.json". A loop, not `/\/+$/`, which tries
 * every slash of "/////…x/" as a start: quadratic in a 16 KB path.
 */
function stripTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 0x2f) end--;
  return path.slice(0, end);
}

/** CORS preflight (a browser asking before a cross-origin request): allowed for GET and HEAD. */
function preflight(req: IncomingMessage, res: ServerResponse): void {
  writeHead(res, 204, {
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
 * Nor is a database file damaged on disk: 503, logged once by the live store.
 * A failing disk or a lack of descriptors is logged without a stack.
 */
function fail(log: Logger, live: LiveStore, req: IncomingMessage, res: ServerResponse, error: unknown): void {
  const code = (error as { code?: unknown }).code;
  const request = { method: req.method, url: req.url };
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
    if (!res.headersSent) return sendError(req, res, 503, undefined, { 'retry-after': '1' });
  } else if (live.readFailed(error)) {
    if (!res.headersSent) return sendError(req, res, 503);
  } else if (code === 'EACCES' || code === 'EIO' || code === 'EMFILE' || code === 'ENFILE') {
    const msg = `error on ${req.method} ${req.url}: ${(error as Error).message}`;
    log({ level: 'error', event: 'request-failed', msg, ...request, ...errorFields(error, false) });
  } else {
    const msg = `unexpected error on ${req.method} ${req.url}`;
    log({ level: 'error', event: 'unexpected-error', msg, ...request, ...errorFields(error, true) });
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

/**
 * Why a server could not listen, in one line that says what to choose
 * instead, e.g. "port 8000 on 127.0.0.1 is in use; choose another port with
 * --port N" (whether or not --port was given: npm start says it its own way).
 */
export class ListenError extends Error {
  override name = 'ListenError';
  constructor(
    readonly code: string,
    readonly reason: string, // e.g. "port 8000 on 127.0.0.1 is in use"
    readonly advice: string, // e.g. "choose another port"
    readonly option: string, // the option that chooses, with its value, e.g. "--port N"
  ) {
    super(`${reason}; ${advice} with ${option}`);
  }
}

/** Returns `error` of listen() as a ListenError when it is the user's to fix (a busy port, a bad host), else as is. */
function listenError(error: unknown, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  const where = `${host}:${port}`;
  if (code === 'EADDRINUSE')
    return new ListenError(code, `port ${port} on ${host} is in use`, 'choose another port', '--port N');
  if (code === 'EACCES')
    return new ListenError(
      code,
      `port ${port} on ${host} needs privileges (EACCES)`,
      'choose a port above 1023',
      '--port N',
    );
  if (code === 'EADDRNOTAVAIL')
    return new ListenError(
      code,
      `cannot listen on ${where}: not an address of this machine`,
      'choose another',
      '--host HOST',
    );
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new ListenError(code, `cannot listen on ${where}: unknown host`, 'choose another', '--host HOST');
  return error;
}

/** Listens on host:port; rejects with a ListenError (a busy port, a bad host) or the error as is. */
function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const failed = (error: unknown) => reject(listenError(error, host, port));
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
}

/**
 * Resolves when host:port is free to listen on (it listens and closes at
 * once), or rejects with the ListenError startServer() would give; e.g.
 * `npm start` checks its port before it spends time building.
 */
export async function checkPort(host: string, port: number): Promise<void> {
  const probe = createServer();
  await listen(probe, host, port);
  await new Promise((resolve) => probe.close(resolve));
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
    await listen(server, host, options.port ?? 8000);
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
