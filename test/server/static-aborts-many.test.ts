// Aborted downloads leak nothing, a thousand times over (long project: a
// few seconds of CPU; the quick project has a hundred clients hang up,
// static-aborts.test.ts): the process holds as many file descriptors as
// before.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/app.ts';
import { buildDb, descriptorsAfterAborts, sampleRows, serve, tempDir } from './helpers.ts';

describe('aborted downloads, many', () => {
  let server: RunningServer;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const temp = await tempDir();
    cleanup = temp.cleanup;
    const dist = join(temp.dir, 'dist');
    await mkdir(dist);
    await writeFile(join(dist, 'large.bin'), Buffer.alloc(20 * 1024 * 1024, 1));
    server = await serve({ db: await buildDb(temp.dir, sampleRows(1)), distDir: dist });
  });
  afterAll(async () => {
    await server.close();
    await cleanup();
  });

  // 1,000 connections take a few seconds on a quiet machine, more under load: the bound is generous.
  it(
    '1,000 clients hanging up mid-file → open descriptors back to the baseline',
    { timeout: 120_000 },
    async () => {
      const { baseline, now } = await descriptorsAfterAborts(server.url, '/large.bin', 1000);
      expect(now).toBeLessThanOrEqual(baseline + 5);
    },
  );
});
