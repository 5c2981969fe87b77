// Serves a built site folder (the catalogue's dist/): content types, caching
// headers, ETag/304, index.html for folders, the site's 404.html, and no way out of the folder.
import { realpathSync } from 'node:fs';
import { open, readFile, realpath, stat, type FileHandle } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, sep } from 'node:path';
import { pipeline } from 'node:stream';
import { sendError } from './errors.ts';
import { Representation, etagMatches } from './http.ts';
import { ifRangeAllows, parseRange, type ByteRange } from './range.ts';

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
      const headers = {
        'content-type': type,
        'cache-control': cacheControlFor(urlPath),
        'accept-ranges': 'bytes',
        'last-modified': new Date(mtimeMs).toUTCString(),
      };
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
    await rep.send(req, res, 404);
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
    const type = CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    const lastModified = new Date(info.mtimeMs).toUTCString();
    if (info.size <= MAX_CACHED_FILE) {
      const rep = await representation(file, info.size, info.mtimeMs, urlPath);
      const range = rangeOf(req, rep.body.length, rep.etag, lastModified);
      if (range === undefined) return rep.send(req, res);
      if (range === 'unsatisfiable') return unsatisfiable(req, res, rep.body.length);
      res.writeHead(206, {
        ...rangeHeaders(range, rep.body.length, type, rep.etag, urlPath, lastModified),
      });
      res.end(req.method === 'HEAD' ? undefined : rep.body.subarray(range.start, range.end + 1));
      return;
    }
    // a large file: streamed as is, with a stat-based ETag; opened first, so a
    // file that cannot be opened is a 500 before any header is sent
    const handle = await open(file, 'r');
    const opened = await handle.stat().catch(async (error: unknown) => {
      await handle.close();
      throw error;
    });
    const size = opened.size;
    const etag = `"${size.toString(16)}-${Math.floor(opened.mtimeMs).toString(16)}"`;
    const headers = {
      etag,
      'cache-control': cacheControlFor(urlPath),
      'accept-ranges': 'bytes',
      'last-modified': new Date(opened.mtimeMs).toUTCString(),
    };
    const range = rangeOf(req, size, etag, headers['last-modified']);
    let status = 200;
    let head: Record<string, string | number> = { ...headers, 'content-type': type, 'content-length': size };
    if (etagMatches(req.headers['if-none-match'], [etag])) {
      status = 304;
      head = headers;
    } else if (range === 'unsatisfiable') {
      await handle.close();
      return unsatisfiable(req, res, size);
    } else if (range) {
      status = 206;
      head = rangeHeaders(range, size, type, etag, urlPath, headers['last-modified']);
    }
    res.writeHead(status, head);
    if (req.method === 'HEAD' || status === 304 || size === 0) {
      await handle.close();
      res.end();
      return;
    }
    sendFile(res, handle, typeof range === 'object' ? range : { start: 0, end: size - 1 });
  };
}

/** Returns the range of `req` that applies (If-Range checked), as parseRange. */
function rangeOf(req: IncomingMessage, size: number, etag: string, lastModified: string) {
  const ifRange = req.headers['if-range'];
  if (req.headers.range === undefined || !ifRangeAllows(ifRange?.toString(), etag, lastModified)) {
    return undefined;
  }
  return parseRange(req.headers.range, size);
}

function rangeHeaders(
  range: ByteRange,
  size: number,
  type: string,
  etag: string,
  urlPath: string,
  lastModified: string,
): Record<string, string | number> {
  return {
    'content-type': type,
    'content-range': `bytes ${range.start}-${range.end}/${size}`,
    'content-length': range.end - range.start + 1,
    'accept-ranges': 'bytes',
    etag,
    'last-modified': lastModified,
    'cache-control': cacheControlFor(urlPath),
  };
}

function unsatisfiable(req: IncomingMessage, res: ServerResponse, size: number): void {
  sendError(req, res, 416, 'Range Not Satisfiable', { 'content-range': `bytes */${size}` });
}

/**
 * Streams `range` of the open file to `res`. pipeline() closes the file when
 * the client goes away (no descriptor leaks), and a read error after the
 * headers went out closes the connection instead of crashing the process.
 */
export function sendFile(res: ServerResponse, handle: FileHandle, range: ByteRange): void {
  const stream = handle.createReadStream({ start: range.start, end: range.end, autoClose: true });
  pipeline(stream, res, (error) => {
    if (error && error.code !== 'ERR_STREAM_PREMATURE_CLOSE') {
      console.error(`warning: stopped sending a file: ${error.message}`);
    }
  });
}
