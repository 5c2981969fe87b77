// Shared by the tests of what `build` publishes of releases
// (test/release/publish.test.ts, and publish-old-ledgers.test.ts in the long
// project).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { buildCatalogue } from '../../build/build.ts';
import { listFiles } from '../../build/core/files.ts';

/** The sha256 of some bytes, in hex. */
export const sha256 = (bytes: string | Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Returns every file under `dir` with its sha256. */
export async function hashes(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const file of await listFiles(dir)) {
    out[file] = createHash('sha256')
      .update(readFileSync(join(dir, file)))
      .digest('hex');
  }
  return out;
}

/** Builds `root` into `out` in process, and expects it to succeed. */
export async function build(root: string, out: string, base?: string): Promise<void> {
  const result = await buildCatalogue({ root, out, base });
  expect(result.ok).toBe(true);
}
