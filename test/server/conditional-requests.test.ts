// Conditional requests in RFC 9110 §13.2.2's order, on an API page, a static
// file kept in memory and a large static file streamed from disk:
// (1) If-Match, else (2) If-Unmodified-Since → 412; (3) If-None-Match, else
// (4) If-Modified-Since → 304 for GET and HEAD; only then (5) Range / If-Range.
// API pages have no Last-Modified (the date preconditions are ignored) and
// take no ranges (Range is ignored: 200).
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/app.ts';
import { listMatches } from '../../src/server/conditional.ts';
import { buildDb, rawPathRequest, sampleRows, serve, tempDir } from './helpers.ts';

const MODIFIED = new Date('2026-01-02T03:04:05Z'); // the static files' mtime, whole seconds
const SMALL = Buffer.from('0123456789'.repeat(300)); // kept in memory
// Files over MEMORY are streamed from disk: the server's limit is 16 MiB, set lower here
// (a 17 MiB file sent whole by each case was most of this file's time).
const MEMORY = 64 * 1024;
const LARGE = Buffer.alloc(4 * MEMORY, 7); // streamed

interface Target {
  label: string;
  path: string;
  ranges: boolean; // answers Range
  dated: boolean; // has Last-Modified
}
const TARGETS: Target[] = [
  { label: 'an API page', path: '/ubicaciones/?limit=20', ranges: false, dated: false },
  { label: 'a static file in memory', path: '/small.txt', ranges: true, dated: true },
  { label: 'a large static file (streamed)', path: '/large.bin', ranges: true, dated: true },
];

const before = new Date(MODIFIED.getTime() - 60_000).toUTCString();
const at = MODIFIED.toUTCString();
const after = new Date(MODIFIED.getTime() + 60_000).toUTCString();

/** name, headers (given the representation's ETag), status for [API, static]. */
const CASES: [string, (etag: string) => Record<string, string>, [number, number]][] = [
  // 1. If-Match: strong comparison
  ['If-Match: the ETag → 200', (etag) => ({ 'if-match': etag }), [200, 200]],
  ['If-Match: * → 200', () => ({ 'if-match': '*' }), [200, 200]],
  ['If-Match: a list holding the ETag → 200', (etag) => ({ 'if-match': `"a", ${etag}` }), [200, 200]],
  ['If-Match: another ETag → 412', () => ({ 'if-match': '"another"' }), [412, 412]],
  [
    'If-Match: W/ the ETag (a weak tag never matches strongly) → 412',
    (e) => ({ 'if-match': `W/${e}` }),
    [412, 412],
  ],
  [
    'If-Match fails, If-None-Match matches → 412 (If-Match comes first)',
    (etag) => ({ 'if-match': '"another"', 'if-none-match': etag }),
    [412, 412],
  ],
  // 2. If-Unmodified-Since, read only without If-Match
  ['If-Unmodified-Since before Last-Modified → 412', () => ({ 'if-unmodified-since': before }), [200, 412]],
  ['If-Unmodified-Since at Last-Modified → 200', () => ({ 'if-unmodified-since': at }), [200, 200]],
  ['If-Unmodified-Since not a date → ignored, 200', () => ({ 'if-unmodified-since': 'soon' }), [200, 200]],
  [
    'If-Match holds, If-Unmodified-Since before → 200 (the date is not read)',
    (etag) => ({ 'if-match': etag, 'if-unmodified-since': before }),
    [200, 200],
  ],
  // 3. If-None-Match: weak comparison
  ['If-None-Match: the ETag → 304', (etag) => ({ 'if-none-match': etag }), [304, 304]],
  ['If-None-Match: W/ the ETag → 304', (etag) => ({ 'if-none-match': `W/${etag}` }), [304, 304]],
  ['If-None-Match: * → 304', () => ({ 'if-none-match': '*' }), [304, 304]],
  ['If-None-Match: another ETag → 200', () => ({ 'if-none-match': '"another"' }), [200, 200]],
  [
    'If-Unmodified-Since holds, If-None-Match matches → 304',
    (etag) => ({ 'if-unmodified-since': after, 'if-none-match': etag }),
    [304, 304],
  ],
  [
    'If-Unmodified-Since fails, If-None-Match matches → 412 (step 2 before step 3)',
    (etag) => ({ 'if-unmodified-since': before, 'if-none-match': etag }),
    [304, 412],
  ],
  // 4. If-Modified-Since, read only without If-None-Match
  ['If-Modified-Since at Last-Modified → 304', () => ({ 'if-modified-since': at }), [200, 304]],
  ['If-Modified-Since after Last-Modified → 304', () => ({ 'if-modified-since': after }), [200, 304]],
  ['If-Modified-Since before Last-Modified → 200', () => ({ 'if-modified-since': before }), [200, 200]],
  ['If-Modified-Since not a date → ignored, 200', () => ({ 'if-modified-since': 'yesterday' }), [200, 200]],
  [
    'If-None-Match fails, If-Modified-Since holds → 200 (the date is not read)',
    () => ({ 'if-none-match': '"another"', 'if-modified-since': after }),
    [200, 200],
  ],
  // 5. Range, only once every precondition holds
  [
    'If-None-Match: the ETag with Range → 304, not 206',
    (etag) => ({ 'if-none-match': etag, range: 'bytes=0-3' }),
    [304, 304],
  ],
  [
    'If-None-Match: the ETag with Range and If-Range: the ETag → 304',
    (etag) => ({ 'if-none-match': etag, range: 'bytes=0-3', 'if-range': etag }),
    [304, 304],
  ],
  [
    'If-None-Match: the ETag with a Range past the end → 304, not 416',
    (etag) => ({ 'if-none-match': etag, range: 'bytes=999999999-' }),
    [304, 304],
  ],
  [
    'If-Modified-Since holds with Range → 304',
    () => ({ 'if-modified-since': at, range: 'bytes=0-3' }),
    [200, 304],
  ],
  ['If-Match: the ETag with Range → 206', (etag) => ({ 'if-match': etag, range: 'bytes=0-3' }), [200, 206]],
  [
    'If-Match: another ETag with Range → 412, not 206',
    () => ({ 'if-match': '"x"', range: 'bytes=0-3' }),
    [412, 412],
  ],
  [
    'If-Match: another ETag with a Range past the end → 412, not 416',
    () => ({ 'if-match': '"x"', range: 'bytes=999999999-' }),
    [412, 412],
  ],
  [
    'If-Unmodified-Since before with Range → 412',
    () => ({ 'if-unmodified-since': before, range: 'bytes=0-3' }),
    [200, 412],
  ],
  [
    'If-None-Match: another ETag with Range → 206',
    () => ({ 'if-none-match': '"another"', range: 'bytes=0-3' }),
    [200, 206],
  ],
  ['Range past the end, no precondition → 416', () => ({ range: 'bytes=999999999-' }), [200, 416]],
];

describe.each(TARGETS)('conditional requests on $label', (target) => {
  let server: RunningServer;
  let cleanup: () => Promise<void>;
  let etag: string;
  const get = (headers: Record<string, string>, method = 'GET') =>
    rawPathRequest(server.url, target.path, headers, method);

  beforeAll(async () => {
    const temp = await tempDir();
    cleanup = temp.cleanup;
    const dist = join(temp.dir, 'dist');
    await mkdir(dist);
    await writeFile(join(dist, 'small.txt'), SMALL);
    await writeFile(join(dist, 'large.bin'), LARGE);
    await utimes(join(dist, 'small.txt'), MODIFIED, MODIFIED);
    await utimes(join(dist, 'large.bin'), MODIFIED, MODIFIED);
    server = await serve({
      db: await buildDb(temp.dir, sampleRows(50)),
      distDir: dist,
      memoryFileBytes: MEMORY,
    });
    const first = await get({});
    expect(first.status).toBe(200);
    expect(first.headers['last-modified']).toBe(target.dated ? at : undefined);
    etag = String(first.headers.etag);
    // A streamed file's ETag is its size and mtime (a file in memory: its content's hash).
    expect(etag.startsWith(`"${LARGE.length.toString(16)}-`)).toBe(target.path === '/large.bin');
  });
  afterAll(async () => {
    await server.close();
    await cleanup();
  });

  it.each(CASES)('%s', async (_name, headers, [api, file]) => {
    const expected = target.ranges ? file : api;
    for (const method of ['GET', 'HEAD']) {
      const reply = await get(headers(etag), method);
      expect([method, reply.status]).toEqual([method, expected]);
      expect(reply.headers['access-control-allow-origin']).toBe('*');
      if (expected === 304 || method === 'HEAD') expect(reply.body.length).toBe(0);
    }
  });

  it('a 304 carries ETag, Cache-Control and CORS, no body', async () => {
    const reply = await get({ 'if-none-match': etag });
    expect(reply.status).toBe(304);
    expect(reply.headers.etag).toBe(etag);
    expect(reply.headers['cache-control']).toBeDefined();
    expect(reply.headers['access-control-allow-origin']).toBe('*');
    expect(reply.headers['last-modified']).toBe(target.dated ? at : undefined);
    expect(reply.body.length).toBe(0);
  });

  it('a 412 is the usual error body: {"detail":"Precondition Failed"}', async () => {
    const reply = await get({ 'if-match': '"another"' });
    expect(reply.status).toBe(412);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.json()).toEqual({ detail: 'Precondition Failed' });
  });
});

describe('preconditions apply to a 2xx answer only (RFC 9110 §13.1)', () => {
  let server: RunningServer;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const temp = await tempDir();
    cleanup = temp.cleanup;
    const dist = join(temp.dir, 'dist');
    await mkdir(dist);
    await writeFile(join(dist, '404.html'), '<!doctype html><title>not here</title>');
    server = await serve({ db: await buildDb(temp.dir, sampleRows(3)), distDir: dist });
  });
  afterAll(async () => {
    await server.close();
    await cleanup();
  });

  it.each([
    ['a missing file (the site 404 page)', '/nothing.html'],
    ['an empty typed list', '/ubicaciones/otros/?skip=50'],
  ])('%s → 404 whatever If-Match or If-None-Match say', async (_label, path) => {
    const preconditions: Record<string, string>[] = [
      { 'if-match': '"x"' },
      { 'if-none-match': '*' },
      { 'if-unmodified-since': before },
    ];
    for (const headers of preconditions) {
      expect((await rawPathRequest(server.url, path, headers)).status).toBe(404);
    }
  });
});

describe('listMatches (entity-tag lists)', () => {
  it.each([
    ['"a"', '"a"', true, true],
    ['"b", "a"', '"a"', true, true],
    ['W/"a"', '"a"', true, false],
    ['"a,b"', '"a,b"', true, true], // a tag may hold a comma
    ['*', '"a"', true, true],
    ['"b"', '"a"', false, false],
    ['', '"a"', false, false],
  ])('%s names %s: weak comparison %s, strong comparison %s', (header, etag, weakResult, strongResult) => {
    expect(listMatches(header, etag, [], false)).toBe(weakResult);
    expect(listMatches(header, etag, [], true)).toBe(strongResult);
  });
});
