// Aborted downloads leak nothing: after a hundred clients hang up mid-file,
// the process holds as many file descriptors as before (a thousand: the long
// project, static-aborts-many.test.ts); a read error while a file is being
// sent closes that connection and never crashes the process.
import { mkdir, open, writeFile } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/app.ts';
import { sendFile } from '../../src/server/static.ts';
import { buildDb, descriptorsAfterAborts, recordingLogger, sampleRows, serve, tempDir } from './helpers.ts';

describe('aborted downloads', () => {
  let server: RunningServer;
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir());
    const dist = join(dir, 'dist');
    await mkdir(dist);
    await writeFile(join(dist, 'large.bin'), Buffer.alloc(20 * 1024 * 1024, 1));
    server = await serve({ db: await buildDb(dir, sampleRows(1)), distDir: dist });
  });
  afterAll(async () => {
    await server.close();
    await cleanup();
  });

  it('100 clients hanging up mid-file → open descriptors back to the baseline', async () => {
    const { baseline, now } = await descriptorsAfterAborts(server.url, '/large.bin', 100);
    expect(now).toBeLessThanOrEqual(baseline + 5);
  });

  it('a read error while sending (a folder opened as a file: EISDIR) closes that connection, is logged as a warning; the process lives on', async () => {
    const folder = join(dir, 'folder');
    await mkdir(folder);
    const log = recordingLogger();
    const plain = createServer((_req, res) => {
      void open(folder, 'r').then((handle) => {
        res.writeHead(200, { 'content-length': 100 });
        sendFile(res, handle, { start: 0, end: 99 }, log);
      });
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    const { port } = plain.address() as AddressInfo;
    const outcome = await new Promise<string>((resolve) => {
      const req = request(`http://127.0.0.1:${port}/`, (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve('ended'));
        res.on('error', () => resolve('closed'));
        res.on('aborted', () => resolve('closed'));
      });
      req.on('error', () => resolve('closed'));
      req.end();
    });
    plain.close();
    expect(outcome).toBe('closed');
    expect(log.entries).toMatchObject([
      { level: 'warn', event: 'send-aborted', error: expect.stringMatching(/EISDIR/) },
    ]);
  });
});
