// Serves a built site folder (the catalogue's dist/): content types, caching
// headers, ETag/304, index.html for folders, the site's 404.html, and no way out of the folder.
import { createReadStream, realpathSync } from 'node:fs';
import { readFile, realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, sep } from 'node:path';
import { sendError } from './errors.ts';
import { Representation, etagMatches } from './http.ts';

export const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.geojson': 'application/geo+json',
  '.map': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.xml': 'application/xml',
  '.txt': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
};

/** Types worth compressing: text formats (the images and fonts above are compressed already). */
function compressible(type: string): boolean {
  return /^text\/|json|xml|javascript|svg|wasm/.test(type);
}

/**
 * Cache-Control by path: vite's content-hashed `assets/*` never change
 * (a year, immutable); pages and data are revalidated on every use (ETag
 * makes that a cheap 304); anything else for an hour.
 */
export function cacheControlFor(urlPath: string): string {
  if (urlPath.startsWith('/assets/')) return 'public, max-age=31536000, immutable';
  const extension = extname(urlPath).toLowerCase();
  if (
    urlPath.endsWith('/') ||
    ['.html', '.json', '.geojson', '.xml', '.txt', '.webmanifest'].includes(extension)
  ) {
    return 'no-cache';
  }
  return 'public, max-age=3600';
}

/** Files up to this size are kept in memory (compressed once); larger ones are streamed as is. */
const MAX_CACHED_FILE = 16 * 1024 * 1024;
const MAX_CACHE_BYTES = 96 * 1024 * 1024;

/**
 * Returns the request handler of the folder `distDir`. It answers every
 * method other than GET and HEAD with 405 and refuses `..`, NUL bytes, dot
 * files and symlinks that lead out of the folder (404, or 400 for bad encoding).
 */
export function createStaticHandler(distDir: string) {
  const root = realpathSync(distDir);
  const cache = new Map<string, Representation>();
  let cachedBytes = 0;

  /** Returns the real path of `file` if it is inside root, else undefined. */
  async function inside(file: string): Promise<string | undefined> {
    const real = await realpath(file).catch(() => undefined);
    return real !== undefined && (real === root || real.startsWith(root + sep)) ? real : undefined;
  }

  async function representation(file: string, size: number, mtimeMs: number, urlPath: string) {
    const key = `${file}\0${size}\0${mtimeMs}`;
    let rep = cache.get(key);
    if (!rep) {
      const type = CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
      const headers = { 'content-type': type, 'cache-control': cacheControlFor(urlPath) };
      rep = new Representation(await readFile(file), headers, compressible(type));
      cache.set(key, rep);
      cachedBytes += size;
      for (const [oldKey, old] of cache) {
        if (cachedBytes <= MAX_CACHE_BYTES) break;
        cache.delete(oldKey);
        cachedBytes -= old.body.length;
      }
    }
    return rep;
  }

  async function sendNotFound(req: IncomingMessage, res: ServerResponse, rawPath: string): Promise<void> {
    // The JSON API's clients get JSON: {"detail":"Not Found"}, as from the locations API.
    if (rawPath.startsWith('/api/')) return sendError(req, res, 404);
    const page = await inside(join(root, '404.html'));
    const info = page ? await stat(page) : undefined;
    if (!page || !info?.isFile()) return sendError(req, res, 404);
    const rep = await representation(page, info.size, info.mtimeMs, '/404.html');
    rep.send(req, res, 404);
  }

  return async function serveStatic(
    req: IncomingMessage,
    res: ServerResponse,
    rawPath: string, // e.g. "/earth/CHL/", still percent-encoded
    query: string,
  ): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return sendError(req, res, 405, undefined, { allow: 'GET, HEAD' });
    let segments: string[];
    try {
      segments = rawPath.split('/').slice(1).map(decodeURIComponent);
    } catch {
      return sendError(req, res, 400);
    }
    if (segments.some((s) => s.includes('\0'))) return sendError(req, res, 400);
    const last = segments.length - 1;
    const unsafe = segments.some((s, i) => (s === '' ? i !== last : s.startsWith('.') || /[/\\]/.test(s)));
    if (unsafe) return sendNotFound(req, res, rawPath);
    let file = await inside(join(root, ...segments));
    let info = file ? await stat(file) : undefined;
    if (file && info?.isDirectory()) {
      if (!rawPath.endsWith('/')) {
        res.writeHead(301, { location: `${rawPath}/${query ? `?${query}` : ''}`, 'content-length': 0 });
        res.end();
        return;
      }
      file = await inside(join(file, 'index.html'));
      info = file ? await stat(file) : undefined;
    }
    if (!file || !info?.isFile()) return sendNotFound(req, res, rawPath);
    const urlPath = rawPath.endsWith('/') ? `${rawPath}index.html` : rawPath;
    if (info.size <= MAX_CACHED_FILE) {
      (await representation(file, info.size, info.mtimeMs, urlPath)).send(req, res);
      return;
    }
    // a large file: streamed as is, with a stat-based ETag
    const etag = `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
    const headers = {
      'access-control-allow-origin': '*',
      etag,
      'cache-control': cacheControlFor(urlPath),
    };
    if (etagMatches(req.headers['if-none-match'], [etag])) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    const type = CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    res.writeHead(200, { ...headers, 'content-type': type, 'content-length': info.size });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  };
}
