// Serves a built site folder (the catalogue's dist/): content types, caching
// headers, ETag/304, index.html for folders, the site's 404.html, and no way out of the folder.
import { realpathSync } from 'node:fs';
import { open, readFile, realpath, stat, type FileHandle } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, sep } from 'node:path';
import { pipeline } from 'node:stream';
import { outcome } from './conditional.ts';
import { sendError } from './errors.ts';
import { writeHead } from './http.ts';
import { errorFields, type Logger } from './log.ts';
import { rangeHeaders, type ByteRange } from './range.ts';
import { Representation, bodyCache, remeasure, sendShortAnswer, type BodyCache } from './representation.ts';

const CONTENT_TYPES: Record<string, string> = {
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
 * Cache-Control by path: vite's content-hashed `assets/*` and a release's
 * files (`releases/VERSION/*`, frozen when the release was made) never
 * change (a year, immutable); pages and data are revalidated on every use (ETag
 * makes that a cheap 304); anything else for an hour.
 */
function cacheControlFor(urlPath: string): string {
  if (urlPath.startsWith('/assets/') || /^\/releases\/[^/]+\//.test(urlPath))
    return 'public, max-age=31536000, immutable';
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
const MEMORY_FILE_BYTES = 16 * 1024 * 1024;
/** Bytes of files (with their compressed variants) kept in memory. */
const MAX_CACHE_BYTES = 96 * 1024 * 1024;

/** What the handler of one folder holds. */
interface Site {
  root: string; // the folder's real path
  memoryFileBytes: number; // files up to this size are kept in memory, larger ones streamed
  cache: BodyCache<Representation>;
  log: Logger;
}

/** A file found for a path, e.g. dist/earth/CHL/index.html for "/earth/CHL/". */
interface Found {
  file: string;
  size: number;
  mtimeMs: number;
  urlPath: string; // e.g. "/earth/CHL/index.html"
}

/**
 * Returns the request handler of the folder `distDir`. It answers every
 * method other than GET and HEAD with 405 and refuses `..`, NUL bytes, dot
 * files and symlinks that lead out of the folder (404, or 400 for bad encoding).
 */
export function createStaticHandler(distDir: string, log: Logger, memoryFileBytes = MEMORY_FILE_BYTES) {
  const site: Site = {
    root: realpathSync(distDir),
    memoryFileBytes,
    cache: bodyCache<Representation>(MAX_CACHE_BYTES, (rep) => rep.bytes())!,
    log,
  };
  return async function serveStatic(
    req: IncomingMessage,
    res: ServerResponse,
    rawPath: string, // e.g. "/earth/CHL/", still percent-encoded
    query: string,
  ): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return sendError(req, res, 405, undefined, { allow: 'GET, HEAD' });
    const segments = pathSegments(rawPath);
    if (segments === 'bad') return sendError(req, res, 400);
    const found = segments === 'refused' ? undefined : await locate(site.root, segments, rawPath);
    if (found === 'folder') {
      writeHead(res, 301, { location: `${rawPath}/${query ? `?${query}` : ''}`, 'content-length': 0 });
      res.end();
      return;
    }
    if (!found) return sendNotFound(site, req, res, rawPath);
    if (found.size <= site.memoryFileBytes) return sendCached(site, req, res, found);
    return sendLarge(site, req, res, found);
  };
}

/**
 * Returns the decoded segments of `rawPath`, 'bad' for an undecodable one or
 * a NUL byte (400), or 'refused' for "..", ".", dot files, encoded slashes
 * and empty segments before the last (404).
 */
function pathSegments(rawPath: string): string[] | 'bad' | 'refused' {
  let segments: string[];
  try {
    segments = rawPath.split('/').slice(1).map(decodeURIComponent);
  } catch {
    return 'bad';
  }
  if (segments.some((s) => s.includes('\0'))) return 'bad';
  const last = segments.length - 1;
  const unsafe = segments.some((s, i) => (s === '' ? i !== last : s.startsWith('.') || /[/\\]/.test(s)));
  return unsafe ? 'refused' : segments;
}

/** Returns the real path of `file` if it is inside root, else undefined. */
async function inside(root: string, file: string): Promise<string | undefined> {
  const real = await realpath(file).catch(() => undefined);
  return real !== undefined && (real === root || real.startsWith(root + sep)) ? real : undefined;
}

/** Returns the file `segments` name (a folder's index.html), 'folder' for a folder asked without its slash, or undefined. */
async function locate(
  root: string,
  segments: string[],
  rawPath: string,
): Promise<Found | 'folder' | undefined> {
  let file = await inside(root, join(root, ...segments));
  let info = file ? await stat(file) : undefined;
  if (file && info?.isDirectory()) {
    if (!rawPath.endsWith('/')) return 'folder';
    file = await inside(root, join(file, 'index.html'));
    info = file ? await stat(file) : undefined;
  }
  if (!file || !info?.isFile()) return undefined;
  const urlPath = rawPath.endsWith('/') ? `${rawPath}index.html` : rawPath;
  return { file, size: info.size, mtimeMs: info.mtimeMs, urlPath };
}

function contentTypeOf(file: string): string {
  return CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** Sends a file kept in memory (read on first use, keyed by path, size and mtime, so an edit is seen at once). */
async function sendCached(
  site: Site,
  req: IncomingMessage,
  res: ServerResponse,
  found: Found,
  status = 200,
): Promise<void> {
  const key = `${found.file}\0${found.size}\0${found.mtimeMs}`;
  let rep = site.cache.get(key);
  if (!rep) {
    const type = contentTypeOf(found.file);
    const headers = {
      'content-type': type,
      'cache-control': cacheControlFor(found.urlPath),
      'last-modified': new Date(found.mtimeMs).toUTCString(),
    };
    rep = new Representation(await readFile(found.file), headers, {
      compressible: compressible(type),
      ranges: true,
    });
    site.cache.set(key, rep);
  }
  const grown = rep.send(req, res, status);
  if (grown) return grown.then(() => remeasure(site.cache, key));
}

async function sendNotFound(site: Site, req: IncomingMessage, res: ServerResponse, rawPath: string) {
  // The JSON API's clients get JSON: {"detail":"Not Found"}, as from the locations API.
  if (rawPath.startsWith('/api/')) return sendError(req, res, 404);
  const page = await locate(site.root, ['404.html'], '/404.html');
  if (!page || page === 'folder' || page.size > site.memoryFileBytes) return sendError(req, res, 404);
  return sendCached(site, req, res, page, 404);
}

/**
 * Streams a large file with a stat-based ETag. The file is opened first, so
 * one that cannot be opened is a 500 before any header is sent.
 */
async function sendLarge(site: Site, req: IncomingMessage, res: ServerResponse, found: Found) {
  const handle = await open(found.file, 'r');
  const opened = await handle.stat().catch(async (error: unknown) => {
    await handle.close();
    throw error;
  });
  const size = opened.size;
  const etag = `"${size.toString(16)}-${Math.floor(opened.mtimeMs).toString(16)}"`;
  const validators = { etag, lastModified: new Date(opened.mtimeMs).toUTCString() };
  const headers = {
    etag,
    'cache-control': cacheControlFor(found.urlPath),
    'last-modified': validators.lastModified,
  };
  const decided = outcome(req, validators, { size, etag });
  if (decided.status !== 200 && decided.status !== 206) {
    await handle.close();
    return sendShortAnswer(req, res, decided.status, headers, size);
  }
  const range = decided.status === 206 ? decided.range : { start: 0, end: size - 1 };
  writeHead(res, decided.status, {
    ...headers,
    'content-type': contentTypeOf(found.file),
    'accept-ranges': 'bytes',
    ...(decided.status === 206 ? rangeHeaders(range, size) : { 'content-length': size }),
  });
  if (req.method === 'HEAD' || size === 0) {
    await handle.close();
    res.end();
    return;
  }
  sendFile(res, handle, range, site.log);
}

/**
 * Streams `range` of the open file to `res`. pipeline() closes the file when
 * the client goes away (no descriptor leaks), and a read error after the
 * headers went out closes the connection instead of crashing the process.
 */
export function sendFile(res: ServerResponse, handle: FileHandle, range: ByteRange, log: Logger): void {
  const stream = handle.createReadStream({ start: range.start, end: range.end, autoClose: true });
  pipeline(stream, res, (error) => {
    if (error && error.code !== 'ERR_STREAM_PREMATURE_CLOSE') {
      log({
        level: 'warn',
        event: 'send-aborted',
        msg: `stopped sending a file: ${error.message}`,
        ...errorFields(error, false),
      });
    }
  });
}
