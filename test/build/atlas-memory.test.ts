// The atlas reads a level's units one feature at a time (build/site/atlas.ts):
// its memory does not grow with the level (issue 28 §1). A child process
// reads the units of one level, 6 MiB and then 24 MiB of GeoJSON (under
// MAX_UNITS_FILE_BYTES, so the full file is the units' source; its preview
// is what the map draws), with V8's old generation capped below what the
// larger level's parsed tree needs. Before, the file was parsed whole and
// its tree kept until the country was done: the 24 MiB level then ran out
// of heap, and a generated 0.3 GiB catalogue's atlas held 574 MB of heap
// for 95 MB live (docs/benchmarks.md, bench:catalogue).
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  countInCappedChild,
  HEAP_MB,
  levelRoot,
  bundledForChildren,
  ringText,
} from '../support/capped-heap.ts';

const LEVEL = 'data/earth/AAA/AAA_ADM1.geojson';
const PREVIEW = 'data/earth/AAA/preview/AAA_ADM1.preview.geojson';

const module = bundledForChildren(new URL('../../build/site/atlas.ts', import.meta.url).pathname);

/** Writes a level of about `bytes` and its one-feature preview; returns the root. */
function levelWithPreview(bytes: number): { root: string; features: number } {
  const made = levelRoot(LEVEL, bytes);
  const preview = `{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"shapeName":"All"},"geometry":{"type":"Polygon","coordinates":[${ringText(0, 0, 8)}]}}]}`;
  mkdirSync(join(made.root, dirname(PREVIEW)), { recursive: true });
  writeFileSync(join(made.root, PREVIEW), preview);
  return made;
}

/** Reads the atlas of the one-level country under `root` in a capped child; returns its units, or how it failed. */
function unitsInChild(root: string) {
  const manifest = {
    iso_a3: 'AAA',
    name: { en: 'Aland' },
    body: 'earth',
    datasets: [{ level: 'ADM1', path: LEVEL, bytes: statSync(join(root, LEVEL)).size, preview: PREVIEW }],
  };
  return countInCappedChild(`
    const { readAtlas } = await import(${JSON.stringify(module())});
    const loaded = [{ file: 'data/earth/AAA/manifest.json', manifest: ${JSON.stringify(manifest)} }];
    const { atlas } = await readAtlas(${JSON.stringify(root)}, loaded);
    console.log(atlas.get('data/earth/AAA/manifest.json').levels[0].units.length);`);
}

describe('the atlas reads units one feature at a time: its memory does not grow with the level', () => {
  it.each([6, 24])(`a %i MiB level gives every unit within ${HEAP_MB} MiB of old generation`, (mib) => {
    const { root, features } = levelWithPreview(mib * 2 ** 20);
    const read = unitsInChild(root);
    expect(read.stderr).toBe('');
    expect(read).toMatchObject({ status: 0, count: features });
  });
});
