// Tiles for levels of any size up to MAX_TILED_BYTES (issue 19 §1): the
// build cuts them on the tiles worker thread, and a drawn level over the
// limit keeps its picture with a note on its page saying why, never silently.
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { validateManifests } from '../../build/manifest/validate.ts';
import { countryPlanes } from '../../build/site/map-planes.ts';
import { renderCountryPage } from '../../build/site/pages/country-page.ts';
import { countryTiles, nameTiles } from '../../build/tiles/country-tiles.ts';
import { MAX_TILED_BYTES } from '../../build/core/shared/tiles.ts';
import { cli } from '../support/cli.ts';
import { writeTree } from '../support/synthetic-tree.ts';

const scratch = mkdtempSync(join(tmpdir(), 'geoshelf-large-levels-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A country whose ADM0 and ADM1 are small enough to draw from their full files; returns its root and loaded manifest. */
async function country() {
  const root = join(scratch, 'tree');
  writeTree(root, [
    {
      iso: 'LRG',
      levels: [
        { level: 'ADM0', bytes: 60_000, layout: 'one-line' },
        { level: 'ADM1', bytes: 400_000, layout: 'per-line' },
      ],
    },
  ]);
  expect((await cli('manifest', '--root', root)).code).toBe(0);
  const { manifests } = await validateManifests(root);
  return { root, loaded: manifests, planes: await countryPlanes(root, manifests) };
}

describe('tiles of large levels', () => {
  it('every drawn level is cut on the worker thread; a level over MAX_TILED_BYTES is listed as untiled, with its bytes', async () => {
    const { root, loaded, planes } = await country();
    const cut = await countryTiles(root, '/', loaded, planes);
    const file = loaded[0].file;
    expect(Object.keys(cut.byManifest.get(file) ?? {}).sort()).toEqual(['ADM0', 'ADM1']);
    expect(cut.untiled.size).toBe(0);
    const archive = readFileSync(cut.built.get('earth/LRG/map-ADM1.pmtiles')!.from);
    expect(archive.subarray(0, 7).toString('latin1')).toBe('PMTiles');
    nameTiles(cut, () => 16);
    expect(cut.byManifest.get(file)!.ADM1.named).toBe(true); // 16 units in the list and in the tiles
    expect(cut.byManifest.get(file)!.ADM0.named).toBe(false);

    // The same level, said to be over the limit (the manifest's bytes decide, as for a real file that
    // large), with the preview such a level has: the atlas draws it, and tiles would upgrade it.
    const adm1 = loaded[0].manifest.datasets.find((d) => d.level === 'ADM1')!;
    adm1.bytes = MAX_TILED_BYTES + 1;
    adm1.preview = 'data/earth/LRG/preview/LRG_ADM1.preview.geojson';
    const over = await countryTiles(root, '/', loaded, planes);
    expect(Object.keys(over.byManifest.get(file) ?? {})).toEqual(['ADM0']);
    expect(over.untiled.get(file)).toEqual({ ADM1: MAX_TILED_BYTES + 1 });
  }, 60_000);

  it('an untiled level → its page says it is drawn at preview detail, and why', () => {
    const m = JSON.parse(readFileSync(join(scratch, 'tree/data/earth/LRG/manifest.json'), 'utf8'));
    const atlas = {
      levels: [
        {
          level: 'ADM1' as const,
          units: [],
          map: { svg: '<svg></svg>', from: 'data/earth/LRG/preview/LRG_ADM1.preview.geojson', preview: true },
        },
      ],
      mapLevel: 'ADM1' as const,
      untiled: { ADM1: 3 * 2 ** 30 },
    };
    const page = renderCountryPage(
      { base: '/', script: 'a.js', styles: [] },
      'data/earth/LRG/manifest.json',
      m,
      { geometry: new Map(), atlas },
    );
    expect(page).toContain(
      '<p class="map-note">ADM1 is drawn at preview detail at every zoom: its data (3.0 GB) is larger than the 1.0 GB the build cuts into map tiles.</p>',
    );
    const tiled = renderCountryPage({ base: '/', script: 'a.js', styles: [] }, 'f', m, {
      geometry: new Map(),
      atlas: { ...atlas, untiled: undefined },
    });
    expect(tiled).not.toContain('map-note');
  });
});
