// A country's simplified copies (build/simplify/copies.ts) read their levels
// one feature at a time: the rings go into the arc builder and only the
// properties are kept, so the heap does not grow with the levels (issue 28
// §1). A child process writes the copies of one level, 6 MiB and then 24 MiB
// of GeoJSON, with V8's old generation capped below what the larger level's
// parsed tree needs. Before, every level of the country was parsed whole and
// kept until the copies were written: the 24 MiB level then ran out of heap,
// and bench:formats' country (154 MB of levels) took 1.2 GB for its copies.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countInCappedChild, HEAP_MB, levelRoot, bundledForChildren } from '../support/capped-heap.ts';

const LEVEL = 'data/earth/AAA/AAA_ADM1.geojson';

const module = bundledForChildren(new URL('../../build/simplify/copies.ts', import.meta.url).pathname);

/** Writes the simplified copies of the level under `root` in a capped child; returns the features of its finest copy, or how it failed. */
function copiesInChild(root: string) {
  const dir = join(root, 'copies');
  return countInCappedChild(`
    const { writeSimplifiedCopies } = await import(${JSON.stringify(module())});
    const { readFileSync } = await import('node:fs');
    const made = await writeSimplifiedCopies(${JSON.stringify(root)}, [{ level: 'ADM1', stem: 'AAA_ADM1', sources: [${JSON.stringify(LEVEL)}] }], ${JSON.stringify(dir)}, 6371008.8);
    console.log(JSON.parse(readFileSync(${JSON.stringify(dir)} + '/' + made[0].file, 'utf8')).features.length);`);
}

describe('the simplified copies read their levels one feature at a time: the heap does not grow with the level', () => {
  it.each([6, 24])(`a %i MiB level gives its copies within ${HEAP_MB} MiB of old generation`, (mib) => {
    const { root, features } = levelRoot(LEVEL, mib * 2 ** 20);
    const made = copiesInChild(root);
    expect(made.stderr).toBe('');
    expect(made).toMatchObject({ status: 0, count: features });
  });
});
