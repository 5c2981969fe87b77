// The locations API: `/ubicaciones/…` lists (paged, cached, streamed when
// huge) and `/openapi.json`, answered from the live store.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendError } from './errors.ts';
import type { LiveStore } from './live-store.ts';
import { openApiDocument } from './openapi.ts';
import { STREAM_ROWS, streamPage } from './page-stream.ts';
import { parsePaging, parseQuery, type Paging } from './params.ts';
import { Representation, bodyCache, remeasure, type BodyCache } from './representation.ts';
import type { ApiRoute, ListRoute } from './routes.ts';

/** Cache-Control of API pages: shared caches may keep them a minute, then revalidate with the ETag. */
const API_CACHE_CONTROL = 'public, max-age=60';
const EXPOSED_HEADERS = 'X-Total-Count, Link, ETag';

/** A kept answer: a page, or "none" for a typed route with no location there (a 404). */
export type CachedPage = Representation | 'none';

/** skip and limit when the query names neither, e.g. for "/ubicaciones/". */
const DEFAULT_PAGING = parsePaging(new Map()) as Paging;

/** The API's request handler with its response cache (undefined when turned off). */
export type ApiHandler = ((
  req: IncomingMessage,
  res: ServerResponse,
  route: ApiRoute,
  query: string,
) => void | Promise<void>) & { cache: BodyCache<CachedPage> | undefined };

/**
 * Returns the handler of the API routes over `live`, keeping up to
 * `cacheBytes` of pages (route + skip + limit, compressed variants counted);
 * the cache is emptied whenever the store is swapped for a new version.
 */
export function createApiHandler(live: LiveStore, cacheBytes: number): ApiHandler {
  const cache = bodyCache<CachedPage>(cacheBytes, (page) => (page === 'none' ? 16 : page.bytes()));
  live.onSwap = () => cache?.clear(); // a new version of the file: every kept page may be stale
  const openapi = new Representation(Buffer.from(JSON.stringify(openApiDocument())), {
    'content-type': 'application/json',
    'cache-control': 'no-cache',
  });

  function serveApi(req: IncomingMessage, res: ServerResponse, route: ApiRoute, query: string) {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return sendError(req, res, 405, undefined, { allow: 'GET, HEAD' });
    }
    if (route.kind === 'openapi') return openapi.send(req, res);
    const paging = query === '' ? DEFAULT_PAGING : parsePaging(parseQuery(query));
    if (Array.isArray(paging)) return sendError(req, res, 422, paging);
    const key = `${route.path} ${paging.skip} ${paging.limit}`;
    // a kept page first: no count, no query (huge pages are never kept, so a hit is never one)
    let page = cache?.get(key);
    if (page === undefined) {
      if (live.damaged) return sendError(req, res, 503); // kept pages only, until the file is valid again
      const total = live.store.count(route.type);
      const rows = Math.max(0, Math.min(paging.limit, total - paging.skip));
      if (rows > STREAM_ROWS) return streamList(req, res, route, paging, rows, total);
      page = buildPage(route, paging, rows, total);
      cache?.set(key, page);
    }
    if (page === 'none')
      return sendError(req, res, 404, `No se encontraron ubicaciones de tipo ${route.type}`);
    const grown = page.send(req, res);
    if (grown) return grown.then(() => remeasure(cache, key)); // a compressed variant was added
  }

  /** Returns the page built whole, or "none" when a typed route has no location there. */
  function buildPage(route: ListRoute, { skip, limit }: Paging, rows: number, total: number): CachedPage {
    if (rows === 0 && route.type !== null) return 'none';
    const body = Buffer.from(JSON.stringify(rows > 0 ? live.store.page(route.type, skip, rows) : []));
    return new Representation(body, listHeaders(route, skip, limit, rows, total));
  }

  /** Sends a page too big to build whole in batches, from the store version it started with. */
  function streamList(
    req: IncomingMessage,
    res: ServerResponse,
    route: ListRoute,
    { skip, limit }: Paging,
    rows: number,
    total: number,
  ): Promise<void> {
    const headers = listHeaders(route, skip, limit, rows, total);
    return streamPage(req, res, live.acquire(), { type: route.type, skip, count: rows, headers });
  }

  return Object.assign(serveApi, { cache });
}

/** Returns the headers of a list page: X-Total-Count, Link next/prev (RFC 8288), CORS exposure. */
function listHeaders(route: ListRoute, skip: number, limit: number, rows: number, total: number) {
  const links: string[] = [];
  if (skip + rows < total) links.push(`<${route.path}?skip=${skip + rows}&limit=${limit}>; rel="next"`);
  if (skip > 0) {
    const prev = Math.max(0, Math.min(skip, total) - limit);
    links.push(`<${route.path}?skip=${prev}&limit=${limit}>; rel="prev"`);
  }
  return {
    'content-type': 'application/json',
    'cache-control': API_CACHE_CONTROL,
    'x-total-count': String(total),
    'access-control-expose-headers': EXPOSED_HEADERS,
    ...(links.length > 0 ? { link: links.join(', ') } : {}),
  };
}
