// The search index's records kept between runs (build/site/search-cache.ts):
// the shards made from the cache are those made anew, byte for byte, and a
// cache that does not belong to the input (changed names, other code, a
// damaged or deleted file) is never used.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CountryAtlas } from '../../build/site/atlas.ts';
import { readIdentity } from '../../build/core/cache.ts';
import { openSearchCache } from '../../build/site/search-cache.ts';
import { renderSearchIndex, type SearchCache } from '../../build/site/search-index.ts';
import { searchInput, searchKey } from '../../build/site/search-records.ts';
import { levelUnits } from '../../build/site/units.ts';
import type { LoadedManifest } from '../../build/manifest/validate.ts';
import type { Dataset, Level, Manifest } from '../../build/core/shared/manifest.ts';

const scratch = mkdtempSync(join(tmpdir(), 'geoshelf-search-cache-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let roots = 0;
const freshRoot = () => join(scratch, `root-${++roots}`);

const square = (x: number) => ({
  type: 'Polygon',
  coordinates: [
    [
      [x, 0],
      [x + 1, 0],
      [x, 1],
      [x, 0],
    ],
  ],
});
const unit = (shapeName: string, shapeISO: string, parentISO: string, x = 0) => ({
  properties: { shapeName, shapeISO, parentISO, shapeID: `${shapeISO || shapeName}-id` },
  geometry: square(x),
});
const level = (name: Level, features: ReturnType<typeof unit>[]) => ({
  level: name,
  units: levelUnits(features, { level: name } as Dataset),
});
const country = (iso_a3: string, en: string, iso_a2: string, m49_region: string): LoadedManifest => ({
  file: `data/earth/${iso_a3}/manifest.json`,
  manifest: { body: 'earth', iso_a3, iso_a2, name: { en }, m49_region, datasets: [] } as unknown as Manifest,
  text: '',
});

/** Two countries: the United States (two levels) and Germany (with the subdivisions' other names). */
function catalogue(dallas = 'Dallas') {
  const loaded = [
    country('USA', 'United States', 'US', 'Northern America'),
    country('DEU', 'Germany', 'DE', 'Western Europe'),
  ];
  const atlas = new Map<string, CountryAtlas>([
    [
      loaded[0].file,
      {
        levels: [
          level('ADM1', [unit('Texas', 'US-TX', 'USA'), unit('Missouri', 'US-MO', 'USA', 2)]),
          level('ADM2', [unit(dallas, '', 'US-TX'), unit('Texas County', '', 'US-MO', 3)]),
        ],
      },
    ],
    [
      loaded[1].file,
      { levels: [level('ADM1', [unit('Bayern', 'DE-BY', 'DEU'), unit('Berlin', 'DE-BE', 'DEU', 2)])] },
    ],
  ]);
  return { loaded, atlas };
}

/** A cache that counts what it was asked. */
function counting(cache: SearchCache) {
  const counts = { hits: 0, misses: 0 };
  const counted: SearchCache = {
    get(key) {
      const records = cache.get(key);
      counts[records ? 'hits' : 'misses']++;
      return records;
    },
    set: (key, records) => cache.set(key, records),
  };
  return { counted, counts };
}

/** Renders the index of `input` through the cache of `root`, saves it, and returns the shards and the counts. */
async function throughCache(root: string, input: ReturnType<typeof catalogue>, code = 'code-1') {
  const cache = openSearchCache(root, code);
  const { counted, counts } = counting(cache);
  const files = renderSearchIndex(input.loaded, input.atlas, counted);
  await cache.save();
  return { files, counts };
}

const cacheFiles = (root: string) => readdirSync(join(root, '.cache', 'geoshelf', 'search'));

describe('search cache', () => {
  it('shards made from cached records are those made anew, byte for byte', async () => {
    const root = freshRoot();
    const input = catalogue();
    const fresh = renderSearchIndex(input.loaded, input.atlas);
    const first = await throughCache(root, input);
    const second = await throughCache(root, input);
    expect(first.counts).toEqual({ hits: 0, misses: 2 });
    expect(second.counts).toEqual({ hits: 2, misses: 0 });
    expect(first.files).toEqual(fresh);
    expect(second.files).toEqual(fresh);
    expect(cacheFiles(root)).toHaveLength(2);
  });

  it('a renamed unit: its country is made again (its stale records are never used), the other comes from the cache', async () => {
    const root = freshRoot();
    await throughCache(root, catalogue('Dallas'));
    const renamed = catalogue('Big D');
    const { files, counts } = await throughCache(root, renamed);
    expect(counts).toEqual({ hits: 1, misses: 1 });
    expect(files).toEqual(renderSearchIndex(renamed.loaded, renamed.atlas));
    expect(files.get('search/b/bi.json')).toContain('Big D');
    expect(files.has('search/d/da.json')).toBe(false);
    expect(cacheFiles(root)).toHaveLength(2); // the stale file is removed
  });

  it('records kept by other code are not read, and are removed', async () => {
    const root = freshRoot();
    const input = catalogue();
    const before = cacheFiles((await throughCache(root, input, 'code-1'), root));
    const { counts } = await throughCache(root, input, 'code-2');
    expect(counts).toEqual({ hits: 0, misses: 2 });
    expect(cacheFiles(root).filter((f) => before.includes(f))).toEqual([]);
  });

  it('unknown code (no lib/ record): nothing another run kept is read', async () => {
    const root = freshRoot();
    const input = catalogue();
    const cache = openSearchCache(root, readIdentity(scratch)); // a folder with no lib/
    expect(renderSearchIndex(input.loaded, input.atlas, cache)).toEqual(
      renderSearchIndex(input.loaded, input.atlas),
    );
    await cache.save();
    const again = openSearchCache(root, readIdentity(scratch));
    const { counted, counts } = counting(again);
    renderSearchIndex(input.loaded, input.atlas, counted);
    expect(counts.hits).toBe(0);
  });

  it.each([
    ['emptied', () => ''],
    ['cut short', (text: string) => text.slice(0, text.length - 5)],
    ['not JSON on the first line', (text: string) => `{${text}`],
    ['a line that is no shard', (text: string) => `${text}garbage without a tab\n`],
  ])(
    'a damaged cache file (%s) is a miss: the records are made again and the file rewritten',
    async (_, damage) => {
      const root = freshRoot();
      const input = catalogue();
      await throughCache(root, input);
      const dir = join(root, '.cache', 'geoshelf', 'search');
      for (const file of cacheFiles(root))
        writeFileSync(join(dir, file), damage(readFileSync(join(dir, file), 'utf8')));
      const { files, counts } = await throughCache(root, input);
      expect(counts).toEqual({ hits: 0, misses: 2 });
      expect(files).toEqual(renderSearchIndex(input.loaded, input.atlas));
      expect((await throughCache(root, input)).counts).toEqual({ hits: 2, misses: 0 });
    },
  );

  it('a deleted cache folder: the records are made again', async () => {
    const root = freshRoot();
    const input = catalogue();
    await throughCache(root, input);
    rmSync(join(root, '.cache'), { recursive: true });
    const { files, counts } = await throughCache(root, input);
    expect(counts).toEqual({ hits: 0, misses: 2 });
    expect(files).toEqual(renderSearchIndex(input.loaded, input.atlas));
  });

  it('the key changes with every field the records are made from', () => {
    const { loaded, atlas } = catalogue();
    const input = searchInput(loaded[0].manifest, atlas.get(loaded[0].file));
    const key = searchKey(input);
    const changed: string[] = [];
    const variants: [string, (i: typeof input) => void][] = [
      ['body', (i) => (i.country.body = 'moon' as typeof i.country.body)],
      ['iso_a3', (i) => (i.country.iso_a3 = 'USB')],
      ['iso_a2', (i) => (i.country.iso_a2 = 'UB')],
      ['m49_region', (i) => (i.country.m49_region = 'Americas')],
      ['name.en', (i) => (i.country.name.en = 'USA')],
      ['name.es', (i) => (i.country.name.es = 'Estados Unidos')],
      ['level', (i) => (i.levels[0].level = 'ADM3')],
      ['id', (i) => (i.levels[0].units[0].id = 'other')],
      ['unit_id', (i) => (i.levels[0].units[0].unit_id = 'k3f9a2m7x0qp')],
      ['name', (i) => (i.levels[0].units[0].name = 'Tejas')],
      ['names', (i) => (i.levels[0].units[0].names = ['Lone Star State'])],
      ['code', (i) => (i.levels[0].units[0].code = 'US-XX')],
      ['parent', (i) => (i.levels[0].units[0].parent = 'US')],
      ['area_km2', (i) => (i.levels[0].units[0].area_km2 = 1)],
      ['label', (i) => (i.levels[0].units[0].label = [0, 0])],
      ['geojson', (i) => (i.levels[0].units[0].geojson = 'api/v1/earth/USB/units/ADM1/X.geojson')],
    ];
    for (const [field, change] of variants) {
      const copy = structuredClone(input);
      change(copy);
      if (searchKey(copy) !== key) changed.push(field);
    }
    expect(changed).toEqual(variants.map(([field]) => field));
    // Every field of the input is one of those: a new field must be added here.
    const fields = [
      ...Object.keys(input.country).filter((k) => k !== 'name'),
      ...Object.keys(input.country.name).map((k) => `name.${k}`),
      ...Object.keys(input.levels[0]).filter((k) => k !== 'units'),
      ...Object.keys(input.levels[0].units[0]),
    ];
    expect(fields.sort()).toEqual(variants.map(([field]) => field).sort());
  });
});
