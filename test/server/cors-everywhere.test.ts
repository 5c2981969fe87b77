// Every response carries Access-Control-Allow-Origin: pages, errors, 304s,
// redirects (307 of the API, 301 of the static folders) and preflights.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/app.ts';
import { buildDb, rawPathRequest, sampleRows, serve, tempDir } from './helpers.ts';

describe('CORS on every response', () => {
  let server: RunningServer;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const temp = await tempDir();
    cleanup = temp.cleanup;
    const dist = join(temp.dir, 'dist');
    await mkdir(join(dist, 'about'), { recursive: true });
    await writeFile(join(dist, 'about', 'index.html'), '<!doctype html>');
    await writeFile(join(dist, 'big.bin'), Buffer.alloc(128 * 1024)); // streamed: over memoryFileBytes
    server = await serve({
      db: await buildDb(temp.dir, sampleRows(3)),
      distDir: dist,
      memoryFileBytes: 64 * 1024,
    });
  });
  afterAll(async () => {
    await server.close();
    await cleanup();
  });

  it.each([
    ['GET', '/ubicaciones/', 200],
    ['GET', '/ubicaciones', 307],
    ['GET', '/openapi.json/', 307],
    ['GET', '/about', 301],
    ['GET', '/about/', 200],
    ['GET', '/nothing', 404],
    ['GET', '/ubicaciones/otros/', 404],
    ['GET', '/ubicaciones/?limit=0', 422],
    ['POST', '/ubicaciones/', 405],
    ['HEAD', '/big.bin', 200],
  ])('%s %s → %i with Access-Control-Allow-Origin: *', async (method, path, status) => {
    const reply = await new Promise<{ status: number; cors: unknown }>((resolve, reject) => {
      void import('node:http').then(({ request }) => {
        const url = new URL(server.url);
        const req = request({ host: url.hostname, port: url.port, path, method }, (res) => {
          res.resume();
          res.on('end', () =>
            resolve({ status: res.statusCode!, cors: res.headers['access-control-allow-origin'] }),
          );
        });
        req.on('error', reject);
        req.end();
      });
    });
    expect(reply).toEqual({ status, cors: '*' });
  });

  it('a 304 of a large file carries it too', async () => {
    const first = await rawPathRequest(server.url, '/big.bin', {});
    const again = await rawPathRequest(server.url, '/big.bin', {
      'if-none-match': String(first.headers.etag),
    });
    expect(again.status).toBe(304);
    expect(again.headers['access-control-allow-origin']).toBe('*');
  });
});
