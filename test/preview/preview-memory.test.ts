// A preview reads its level one feature at a time (build/preview/preview.ts):
// the rings go into the arc builder and only each feature's properties are
// kept, so the heap does not grow with the level (issue 28 §1). A child
// process makes the preview of one level, 6 MiB and then 24 MiB of GeoJSON,
// with V8's old generation capped below what the larger level's parsed tree
// needs. Before, the level was parsed whole and held until the preview was
// written: the 24 MiB level then ran out of heap, and `geoshelf preview` of
// bench:large-level's 1 GiB ADM1 took 6 GB.
import { describe, expect, it } from 'vitest';
import { countInCappedChild, HEAP_MB, levelRoot, bundledForChildren } from '../support/capped-heap.ts';

const LEVEL = 'data/earth/AAA/AAA_ADM1.geojson';

const module = bundledForChildren(new URL('../../build/preview/preview.ts', import.meta.url).pathname);

/** Makes the preview of the level under `root` in a capped child; returns its features, or how it failed. */
function previewInChild(root: string) {
  return countInCappedChild(`
    const { makePreview } = await import(${JSON.stringify(module())});
    const made = await makePreview(${JSON.stringify(root)}, [${JSON.stringify(LEVEL)}], { maxBytes: 2097152, method: 'visvalingam' }, 111319.49);
    if (made.bytes > 2097152) throw new Error('over the budget: ' + made.bytes);
    console.log(JSON.parse(made.text).features.length);`);
}

describe('a preview reads its level one feature at a time: the heap does not grow with the level', () => {
  it.each([6, 24])(`a %i MiB level gets its preview within ${HEAP_MB} MiB of old generation`, (mib) => {
    const { root, features } = levelRoot(LEVEL, mib * 2 ** 20);
    const made = previewInChild(root);
    expect(made.stderr).toBe('');
    expect(made).toMatchObject({ status: 0, count: features });
  });
});
