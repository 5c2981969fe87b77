// The worker threads' scripts are bundled once and reused from the cache only
// while every input is byte for byte the same: an edited source is never
// run from a stale bundle.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { workerBundle } from '../../build/core/worker-bundle.ts';

describe('worker bundle cache', () => {
  const dir = mkdtempSync(join(tmpdir(), 'geoshelf-worker-bundle-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a bundle is rebuilt when an imported file changes, and reused while nothing does', async () => {
    const entry = join(dir, 'entry.ts');
    writeFileSync(entry, "import { word } from './dep.ts';\nconsole.log(word);\n");
    writeFileSync(join(dir, 'dep.ts'), "export const word: string = 'first';\n");
    const first = await workerBundle(entry, join(dir, 'cache'));
    expect(first).toContain('"first"');
    expect(await workerBundle(entry, join(dir, 'cache'))).toBe(first);
    writeFileSync(join(dir, 'dep.ts'), "export const word: string = 'second';\n");
    const second = await workerBundle(entry, join(dir, 'cache'));
    expect(second).toContain('"second"');
    expect(second).not.toContain('"first"');
  });
});
