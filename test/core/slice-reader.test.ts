// SliceReader (build/core/files.ts): the units' own files are cut from their
// level file's bytes, read once per source, and must be exactly what
// readSlice reads, in any order, for any number of sources.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSlice, SliceReader, type FileSlice } from '../../build/core/files.ts';

const dir = mkdtempSync(join(tmpdir(), 'geoshelf-slices-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const frame = (start: number, end: number): FileSlice => ({
  start,
  end,
  head: Buffer.from('['),
  tail: Buffer.from(']\n'),
});

describe('SliceReader', () => {
  it('slices of several sources, read interleaved, are the bytes readSlice gives', async () => {
    const paths = Array.from({ length: 6 }, (_, i) => join(dir, `source-${i}.txt`));
    paths.forEach((p, i) => writeFileSync(p, `source ${i}: ${'abcdefghij'.repeat(i + 1)}`));
    const reader = new SliceReader();
    for (const [p, at] of [0, 3, 1, 5, 0, 2, 4, 5, 1].map((i, k) => [paths[i], k] as const)) {
      const slice = frame(at, at + 7);
      expect((await reader.read(p, slice)).toString()).toBe((await readSlice(p, slice)).toString());
    }
  });

  it('a slice past the end of a source now shorter gives fewer bytes, as readSlice does', async () => {
    const p = join(dir, 'short.txt');
    writeFileSync(p, '0123456789');
    const slice = frame(6, 14);
    expect((await new SliceReader().read(p, slice)).toString()).toBe('[6789]\n');
    expect((await readSlice(p, slice)).toString()).toBe('[6789]\n');
  });
});
