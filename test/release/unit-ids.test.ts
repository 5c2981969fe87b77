// Unit IDs wherever a reader or a program meets a unit: the API's units and
// their permalinks, the search records, a sidecar per GeoJSON file (by
// feature index), the unit_id property of every download (read back with
// GDAL), and each country's history. The root shows a level's IDs only while
// its files are those of the latest release.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ApiCountryHistory,
  ApiUnitIds,
  CountryDocument,
  RegistryUnit,
  SearchRecord,
} from '../../build/core/shared/api.ts';
import { buildCatalogue } from '../../build/build.ts';
import { makeRelease } from '../../build/release/release.ts';
import { countryHistory } from '../../build/site/history.ts';
import { copyDataTree, editLevel } from '../support/cli.ts';
import { ledgerRelease } from '../support/ledger.ts';
import { HAS_GDAL } from '../formats/gdal.ts';

const FIXTURE = new URL('../fixtures/build', import.meta.url).pathname;
const TMP = join(tmpdir(), `geoshelf-unit-ids-${process.pid}`);
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

const ADM1 = 'data/earth/CHL/CHL_ADM1.geojson';
const read = <T>(dir: string, file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as T;

async function release(root: string, version: string): Promise<void> {
  const outcome = await makeRelease(root, version, {
    geometry: false,
  });
  expect(outcome.status).toBe('recorded');
}

async function build(root: string): Promise<string> {
  const out = join(root, 'dist');
  const result = await buildCatalogue({ root, out });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return out;
}

/** Edits CHL_ADM1 (a string replacement), then its manifest's derived fields and its preview, as a publisher does. */
async function edit(root: string, from: string, to: string): Promise<void> {
  await editLevel(root, ADM1, from, to);
}

/** Returns each feature's shapeName → its ID, from the registry's file and feature index. */
function idsByName(root: string, registry: RegistryUnit[], file: string): Record<string, string> {
  const features = read<{ features: { properties: { shapeName: string } }[] }>(root, file).features;
  const out: Record<string, string> = {};
  for (const u of registry) if (u.file === file) out[features[u.feature!]!.properties.shapeName] = u.id;
  return out;
}

/** Returns each feature's shapeName → unit_id as GDAL reads `path` (any order: FlatGeobuf is in Hilbert order). */
function gdalIds(path: string): Record<string, string | undefined> {
  const text = execFileSync('ogrinfo', ['-al', '-q', '-geom=NO', path], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  const out: Record<string, string | undefined> = {};
  for (const block of text.split(/\nOGRFeature\(/).slice(1)) {
    const field = (name: string) => new RegExp(`^  ${name} \\(String\\) = (.*)$`, 'm').exec(block)?.[1];
    out[field('shapeName')!] = field('unit_id');
  }
  return out;
}

/** Returns each row's shapeName → unit_id as hyparquet reads the GeoParquet `path` (GDAL here has no Parquet driver). */
async function parquetIds(path: string): Promise<Record<string, string | undefined>> {
  const bytes = readFileSync(path);
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
  const compressors = { GZIP: (input: Uint8Array) => new Uint8Array(gunzipSync(input)) };
  const rows = (await parquetReadObjects({ file, compressors, columns: ['shapeName', 'unit_id'] })) as {
    shapeName: string;
    unit_id?: string;
  }[];
  return Object.fromEntries(rows.map((r) => [r.shapeName, r.unit_id]));
}

describe('unit IDs in a released catalogue', () => {
  let root: string;
  let dist: string;
  let registry: RegistryUnit[];

  beforeAll(async () => {
    root = copyDataTree(FIXTURE, TMP);
    await release(root, '1.0.0');
    registry = (await ledgerRelease(root, '1.0.0')).registry;
    dist = await build(root);
  });

  it("the API's units carry their release ID, and their permalink is by ID", () => {
    const doc = read<CountryDocument>(dist, 'api/v1/earth/CHL.json');
    const expected = idsByName(root, registry, ADM1);
    const units = doc.units.ADM1!;
    expect(Object.fromEntries(units.map((u) => [u.name, u.unit_id]))).toEqual(expected);
    for (const u of units) expect(u.page).toBe(`/earth/CHL/#unit-${u.unit_id}`);
    expect(units.every((u) => u.id === u.code)).toBe(true); // the old anchors stay
  });

  it('the built units list links each unit by ID, and the ID is an anchor on the page', () => {
    const html = readFileSync(join(dist, 'earth/CHL/index.html'), 'utf8');
    const id = idsByName(root, registry, ADM1)['Antofagasta']!;
    expect(html).toContain(`<tr id="unit-CL-AN">`);
    expect(html).toContain(`<a id="unit-${id}" href="#unit-${id}">Antofagasta</a>`);
  });

  it('search records link the unit by ID and carry it last', () => {
    const id = idsByName(root, registry, ADM1)['Antofagasta']!;
    const shards = readdirSync(join(dist, 'search'), { recursive: true, encoding: 'utf8' });
    const records = shards
      .filter((f) => f.includes('/')) // the shards, in their folders (search/t/te.json), not keys.json
      .flatMap((f) => read<SearchRecord[]>(join(dist, 'search'), f));
    const found = records.filter((r) => r[0] === 'u' && r[1] === 'Antofagasta' && r[3] === 'ADM1');
    expect(found.length).toBeGreaterThan(0);
    for (const r of found) {
      expect(r[6]).toBe(`earth/CHL/#unit-${id}`);
      expect(r[9]).toBe(id);
    }
  });

  it("each GeoJSON file's IDs are in a sidecar by feature index, with the file's sha256, linked from the API", () => {
    const doc = read<CountryDocument>(dist, 'api/v1/earth/CHL.json');
    const level = doc.urls.find((u) => u.level === 'ADM1')!;
    expect(level.unit_ids_url).toBe('/api/v1/earth/CHL/CHL_ADM1.unit-ids.json');
    const sidecar = read<ApiUnitIds>(dist, 'api/v1/earth/CHL/CHL_ADM1.unit-ids.json');
    const manifest = doc.manifest.datasets.find((d) => d.level === 'ADM1')!;
    expect(sidecar).toMatchObject({
      file: `/${ADM1}`,
      sha256: manifest.sha256,
      property: 'unit_id',
    });
    const byFeature = registry.filter((u) => u.file === ADM1).sort((a, b) => a.feature! - b.feature!);
    expect(sidecar.ids).toEqual(byFeature.map((u) => u.id));
    // A split level: one sidecar per part, linked from the part.
    const parts = doc.urls.find((u) => u.level === 'ADM2')!.parts!;
    for (const part of parts) {
      const ids = read<ApiUnitIds>(dist, part.unit_ids_url!.slice(1)).ids;
      const file = part.url.slice(1);
      expect(ids).toEqual(
        registry
          .filter((u) => u.file === file)
          .sort((a, b) => a.feature! - b.feature!)
          .map((u) => u.id),
      );
    }
  });

  it.skipIf(!HAS_GDAL)(
    'every download format holds unit_id, as GDAL (hyparquet for GeoParquet) reads it back',
    async () => {
      const expected = idsByName(root, registry, ADM1);
      const folder = join(dist, 'downloads/earth/CHL');
      for (const file of ['CHL_ADM1.gpkg', 'CHL_ADM1.fgb', 'CHL_ADM1.topojson', 'CHL_ADM1.1km.geojson']) {
        expect([file, gdalIds(join(folder, file))]).toEqual([file, expected]);
      }
      expect(gdalIds(`/vsizip/${join(folder, 'CHL_ADM1.shp.zip')}`)).toEqual(expected);
      expect(await parquetIds(join(folder, 'CHL_ADM1.parquet'))).toEqual(expected);
      const part = 'data/earth/CHL/ADM2/CL-AN.geojson';
      expect(gdalIds(join(folder, 'CHL_ADM2_CL-AN.gpkg'))).toEqual(idsByName(root, registry, part));
      // A level given in parts is simplified whole: its copy carries every part's IDs.
      expect(gdalIds(join(folder, 'CHL_ADM2.10km.geojson'))).toMatchObject(idsByName(root, registry, part));
    },
  );

  it("the release's own published copy carries the IDs it gave", () => {
    const doc = read<CountryDocument>(dist, 'releases/1.0.0/api/v1/earth/CHL.json');
    expect(Object.fromEntries(doc.units.ADM1!.map((u) => [u.name, u.unit_id]))).toEqual(
      idsByName(root, registry, ADM1),
    );
    // Relative to the document (releases/1.0.0/api/v1/earth/CHL.json): the release's own page.
    expect(doc.units.ADM1![0]!.page).toMatch(/^\.\.\/\.\.\/\.\.\/earth\/CHL\/#unit-[0-9a-z]{12}$/);
  });
});

describe('unit IDs of the root with changes not yet released', () => {
  it('a changed level shows no ID (nor unit_id in its downloads) until released; unchanged levels keep theirs', async () => {
    const root = copyDataTree(FIXTURE, TMP);
    await release(root, '1.0.0');
    const registry = (await ledgerRelease(root, '1.0.0')).registry;
    await edit(root, '"shapeName":"Antofagasta"', '"shapeName":"Antofagasta Norte"');
    const dist = await build(root);
    const doc = read<CountryDocument>(dist, 'api/v1/earth/CHL.json');
    expect(doc.units.ADM1!.map((u) => u.unit_id)).toEqual([undefined, undefined, undefined]);
    expect(doc.units.ADM1![0]!.page).toBe('/earth/CHL/#unit-CL-AN');
    expect(doc.urls.find((u) => u.level === 'ADM1')!.unit_ids_url).toBeUndefined();
    const adm0 = registry.find((u) => u.country === 'CHL' && u.level === 'ADM0')!;
    expect(doc.units.ADM0![0]!.unit_id).toBe(adm0.id);
    if (HAS_GDAL) {
      const ids = gdalIds(join(dist, 'downloads/earth/CHL/CHL_ADM1.gpkg'));
      expect(Object.values(ids)).toEqual([undefined, undefined, undefined]);
    }
    // Released: the same unit, its ID again.
    await release(root, '1.1.0');
    const again = read<CountryDocument>(await build(root), 'api/v1/earth/CHL.json');
    const antofagasta = again.units.ADM1!.find((u) => u.code === 'CL-AN')!;
    expect(antofagasta.unit_id).toBe(registry.find((u) => u.code === 'CL-AN' && u.level === 'ADM1')!.id);
  });

  it('a level with a unit_id property of its own keeps it in the downloads, with a warning', async () => {
    const root = copyDataTree(FIXTURE, TMP);
    await release(root, '1.0.0');
    // Released with the publisher's own unit_id: the release's IDs are not written over it.
    await edit(root, '"shapeName":"Antofagasta"', '"unit_id":"mine","shapeName":"Antofagasta"');
    await release(root, '1.1.0');
    const out = join(root, 'dist');
    const result = await buildCatalogue({ root, out });
    if (!result.ok) throw new Error('build failed');
    expect(result.conversionWarnings.map((w) => [w.file, w.rule])).toEqual([[ADM1, 'unit-id-kept']]);
    if (HAS_GDAL) expect(gdalIds(join(out, 'downloads/earth/CHL/CHL_ADM1.gpkg'))['Antofagasta']).toBe('mine');
    // The API and the sidecar still give the release's IDs.
    const doc = read<CountryDocument>(out, 'api/v1/earth/CHL.json');
    expect(doc.units.ADM1!.every((u) => /^[0-9a-z]{12}$/.test(u.unit_id ?? ''))).toBe(true);
  });
});

describe('history across releases', () => {
  it("the country page lists each release's changes of it, and history.json gives each unit's", async () => {
    const root = copyDataTree(FIXTURE, TMP);
    await release(root, '1.0.0');
    await edit(root, '"shapeName":"Antofagasta"', '"shapeName":"Antofagasta Norte"');
    await release(root, '1.1.0');
    const dist = await build(root);
    const registry = (await ledgerRelease(root, '1.1.0')).registry;
    const id = registry.find((u) => u.code === 'CL-AN' && u.level === 'ADM1')!.id;
    const history = read<ApiCountryHistory>(dist, 'api/v1/earth/CHL/history.json');
    expect(history.releases.map((r) => [r.version, r.changes, r.changes_page])).toEqual([
      ['1.1.0', { renamed: 1 }, '/releases-changes/1.1.0/'],
      ['1.0.0', {}, '/releases-changes/1.0.0/'],
    ]);
    expect(history.units[id]).toMatchObject({
      name: 'Antofagasta Norte',
      first_seen: '1.0.0',
      last_changed: '1.1.0',
      current: true,
      changes: [{ release: '1.1.0', type: 'renamed', summary: 'renamed: Antofagasta → Antofagasta Norte' }],
    });
    // A current unit's last_seen would move with every release, rewriting every country's history.json.
    expect(history.units[id]).not.toHaveProperty('last_seen');
    const html = readFileSync(join(dist, 'earth/CHL/index.html'), 'utf8');
    expect(html).toContain('data-history="/api/v1/earth/CHL/history.json"');
    expect(html).toContain(
      '<li><a href="/releases/1.1.0/earth/CHL/">1.1.0</a>: 1 renamed · <a href="/releases-changes/1.1.0/">What changed in 1.1.0</a></li>',
    );
    expect(html).toContain('<li><a href="/releases/1.0.0/earth/CHL/">1.0.0</a>: its first release');
  });

  it('a merge links both ways in the histories: superseded_by from the old units, supersedes from the new', () => {
    // (merges themselves are found and tested in test/identity/; here: what history.json says of one)
    const a = { id: 'aaaaaaaaaaaa', name: 'A', code: 'X-A' };
    const b = { id: 'bbbbbbbbbbbb', name: 'B', code: 'X-B' };
    const ab = { id: 'cccccccccccc', name: 'AB', code: 'X-AB' };
    const unit = (u: typeof a, extra: Partial<RegistryUnit>): RegistryUnit => ({
      ...u,
      country: 'XTA',
      level: 'ADM1',
      first_seen: '1',
      last_seen: '2',
      last_changed: '2',
      parent_id: null,
      ...extra,
    });
    const units = new Map([
      [a.id, unit(a, { last_seen: '1', superseded_by: [ab.id] })],
      [b.id, unit(b, { last_seen: '1', superseded_by: [ab.id] })],
      [ab.id, unit(ab, { first_seen: '2', supersedes: [a.id, b.id], file: 'f', feature: 0 })],
    ]);
    const m = { body: 'earth', iso_a3: 'XTA' } as Parameters<typeof countryHistory>[1];
    const doc = countryHistory('/', m, [
      {
        version: '2',
        previous: '1',
        units,
        changes: [
          {
            type: 'merged',
            country: 'XTA',
            level: 'ADM1',
            old: [a.id, b.id],
            new: [ab.id],
            old_units: [a, b],
            new_units: [ab],
          },
        ],
        countries: new Set(['XTA']),
      },
      { version: '1', previous: null, units, changes: [], countries: new Set(['XTA']) },
    ])!;
    expect(doc.units[a.id]).toMatchObject({
      current: false,
      superseded_by: [ab.id],
      changes: [{ release: '2', type: 'merged', summary: 'merged into AB (cccccccccccc)' }],
    });
    expect(doc.units[ab.id]).toMatchObject({
      current: true,
      supersedes: [a.id, b.id],
      changes: [{ release: '2', summary: 'merged: made from A (aaaaaaaaaaaa) + B (bbbbbbbbbbbb)' }],
    });
  });
});
