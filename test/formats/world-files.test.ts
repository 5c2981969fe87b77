// World files (issue 30 §4): each level of each body in one GeoJSON,
// GeoPackage and GeoParquet file, read back by GDAL (the GeoPackage and the
// GeoJSON; GDAL here has no Parquet driver: pyarrow reads those in
// world-files-oracle.test.ts). The build fixture's three countries (one with
// a level published only as parts) and a Mars region whose unit and source
// names are hostile, built in process. GDAL's reads go through its library in
// one Python process (gdal_batch.py), as ogr2ogr converts each file.
import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../build/build.ts';
import type { ApiIndex } from '../../build/core/shared/api.ts';
import type { Manifest } from '../../build/core/shared/manifest.ts';
import { measureGeoJSON } from '../../build/measure/measure.ts';
import { makeRelease } from '../../build/release/release.ts';
import { FIXTURE } from '../build/helpers.ts';
import { boxFeature, writeCountry } from '../support/body-tree.ts';
import { copyDataTree } from '../support/cli.ts';

const tmp = mkdtempSync(join(tmpdir(), 'geoshelf-world-files-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const HOSTILE_UNIT = "Quote \" back\\slash\nnew line\ttab \u2028 <b>&amp;</b> 'single' 🚀";
const HOSTILE_SOURCE = 'Survey "A" \\ <i>B</i>\nsecond line';
const GDAL_BOUND_MS = 30_000;

let root = '';
let out = '';

/** Returns every manifest of the tree. */
function manifests(): Manifest[] {
  return ['earth', 'mars'].flatMap((body) =>
    readdirSync(join(root, 'data', body)).map(
      (iso) => JSON.parse(readFileSync(join(root, 'data', body, iso, 'manifest.json'), 'utf8')) as Manifest,
    ),
  );
}

/** Returns the features each body's level has in the countries' files: its file's, or its parts' together. */
function expectedCounts(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of manifests()) {
    for (const d of m.datasets) {
      const n = d.path ? d.features : (d.parts ?? []).reduce((sum, p) => sum + p.features, 0);
      counts.set(`${m.body}/${d.level}`, (counts.get(`${m.body}/${d.level}`) ?? 0) + n);
    }
  }
  return counts;
}

const readIndex = () => JSON.parse(readFileSync(join(out, 'api/v1/index.json'), 'utf8')) as ApiIndex;
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** A file as GDAL reads it (converted to GeoJSON by ogr2ogr): its features and the CRS GDAL names. */
interface GdalRead {
  crs: string; // e.g. "urn:ogc:def:crs:OGC:1.3:CRS84"
  features: { properties: Record<string, unknown> }[];
}

const gdalReads = new Map<string, GdalRead>();
const PYTHON = '/usr/bin/python3'; // Debian's, with python3-gdal (the python3 on PATH may lack it)
const GDAL_BATCH = new URL('./gdal_batch.py', import.meta.url).pathname;

/**
 * Returns each file as GDAL reads it, once per file and content: the files
 * not read yet are converted in one Python process (gdal_batch.py), each as
 * `ogr2ogr -f GeoJSON` converts it (a GDAL tool costs ~0.12 s of CPU to start).
 */
function gdalRead(...paths: string[]): GdalRead[] {
  const keys = paths.map((path) => `${path} ${sha256(path)}`);
  const dir = mkdtempSync(join(tmp, 'gdal-'));
  const todo = paths.filter((_, i) => !gdalReads.has(keys[i]!));
  const translate = todo.map((path, i) => [join(dir, `${i}.geojson`), path, ['-f', 'GeoJSON']]);
  if (todo.length > 0)
    execFileSync(PYTHON, [GDAL_BATCH], { input: JSON.stringify({ translate }), timeout: GDAL_BOUND_MS });
  for (const [i, path] of todo.entries()) {
    const collection = JSON.parse(readFileSync(join(dir, `${i}.geojson`), 'utf8')) as {
      crs?: { properties: { name: string } };
      features: GdalRead['features'];
    };
    // No "crs" member: GeoJSON's own CRS84 (RFC 7946), which GDAL leaves undeclared.
    const crs = collection.crs?.properties.name ?? 'urn:ogc:def:crs:OGC:1.3:CRS84';
    gdalReads.set(keys[paths.indexOf(path)]!, { crs, features: collection.features });
  }
  return keys.map((key) => gdalReads.get(key)!);
}

/** Builds the tree into `out` and returns the build's result. */
async function build() {
  const result = await buildCatalogue({ root, out });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result;
}

/** Rewrites a level file's text and the manifest's bytes and sha256 of it, as `geoshelf manifest` does. */
async function editLevel(iso: string, file: string, from: string, to: string): Promise<void> {
  const path = join(root, file);
  writeFileSync(path, readFileSync(path, 'utf8').replace(from, to));
  const manifestPath = join(root, 'data/earth', iso, 'manifest.json');
  const m = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  const { bytes, sha256: sum } = await measureGeoJSON(path);
  for (const d of m.datasets) if (d.path === file) Object.assign(d, { bytes, sha256: sum });
  writeFileSync(manifestPath, JSON.stringify(m, null, 2) + '\n');
}

beforeAll(async () => {
  root = copyDataTree(FIXTURE, tmp);
  out = join(root, 'dist');
  const crs = { authority: 'IAU_2015', code: '49900', epsg: 0 };
  const unit = boxFeature([10, 10, 20, 20], 'MX-1') as { properties: Record<string, unknown> };
  unit.properties.shapeName = HOSTILE_UNIT;
  const path = await writeCountry(root, { body: 'mars', iso: 'MXQ', level: 'QUAD', crs }, [
    unit,
    boxFeature([20, 10, 30, 20], 'MX-2'),
    boxFeature([0, 20, 10, 30], 'MX-3'),
  ]);
  // A longitude of -0: the same double as 0 to ==, another bit pattern, which every format keeps.
  const text = readFileSync(join(root, path), 'utf8');
  writeFileSync(join(root, path), text.replaceAll('[0,20]', '[-0,20]'));
  const manifestPath = join(root, 'data/mars/MXQ/manifest.json');
  const m = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  const measured = await measureGeoJSON(join(root, path));
  Object.assign(m.datasets[0], { bytes: measured.bytes, sha256: measured.sha256 });
  m.source.name = HOSTILE_SOURCE;
  writeFileSync(manifestPath, JSON.stringify(m, null, 2) + '\n');
  await build();
}, 120_000);

describe('world files', () => {
  it('world_files lists every level of every body in GeoJSON, GeoPackage and GeoParquet, with the files’ bytes and sha256', () => {
    const files = readIndex().world_files;
    const levels = [...expectedCounts().keys()].sort();
    expect(levels).toEqual(['earth/ADM0', 'earth/ADM1', 'earth/ADM2', 'mars/QUAD']);
    const listed = files.map((f) => `${f.body}/${f.level}/${f.format}`);
    expect(listed).toEqual(levels.flatMap((l) => ['geojson', 'gpkg', 'parquet'].map((f) => `${l}/${f}`)));
    for (const f of files) {
      const suffix = f.format === 'geojson' ? 'geojson' : f.format;
      expect(f.url).toBe(`/downloads/${f.body}/world/${f.level}.${suffix}`);
      const path = join(out, f.url.slice(1));
      expect(f.bytes).toBe(statSync(path).size);
      expect(f.sha256).toBe(sha256(path));
    }
  });

  it('GDAL reads each world GeoPackage and GeoJSON: every country’s features of the level (its file or its parts), in the body’s CRS, each with its country, licence and attribution', () => {
    const byIso = new Map(manifests().map((m) => [m.iso_a3, m]));
    const file = (level: string, suffix: string) =>
      join(out, 'downloads', level.split('/')[0]!, 'world', `${level.split('/')[1]!}.${suffix}`);
    const suffixes = ['gpkg', 'geojson'];
    gdalRead(...[...expectedCounts().keys()].flatMap((level) => suffixes.map((s) => file(level, s)))); // in one run
    for (const [level, count] of expectedCounts()) {
      const [body, name] = level.split('/');
      for (const suffix of suffixes) {
        const [{ crs, features }] = gdalRead(file(level, suffix));
        expect(features.length, `${level}.${suffix}`).toBe(count);
        expect(crs).toBe(body === 'earth' ? 'urn:ogc:def:crs:OGC:1.3:CRS84' : 'urn:ogc:def:crs:IAU::49900');
        for (const { properties: p } of features) {
          const m = byIso.get(p.country as string)!;
          const dataset = m.datasets.find((d) => d.level === name)!;
          expect(dataset, `${p.country as string} ${level}`).toBeDefined();
          expect(p.license).toBe(dataset.license);
          expect(p.attribution).toContain(dataset.src_provider ?? m.source.name);
          expect(p.attribution).toContain(m.source.url);
        }
      }
    }
  });

  it('a hostile unit name and source name (quotes, newlines, markup) survive every format GDAL reads', () => {
    for (const suffix of ['gpkg', 'geojson']) {
      const [{ features }] = gdalRead(join(out, 'downloads/mars/world', `QUAD.${suffix}`));
      const unit = features.find((f) => f.properties.shapeISO === 'MX-1')!;
      expect(unit.properties.shapeName).toBe(HOSTILE_UNIT);
      expect(unit.properties.attribution).toContain(HOSTILE_SOURCE);
    }
  });

  it('the world GeoJSON keeps each coordinate’s double bit for bit, -0 too', () => {
    const world = JSON.parse(readFileSync(join(out, 'downloads/mars/world/QUAD.geojson'), 'utf8')) as {
      features: { properties: { shapeISO: string }; geometry: { coordinates: number[][][] } }[];
    };
    const ring = world.features.find((f) => f.properties.shapeISO === 'MX-3')!.geometry.coordinates[0];
    expect(Object.is(ring[0][0], -0)).toBe(true);
    expect(Object.is(ring.at(-1)![0], -0)).toBe(true);
  });

  it('a rebuild whose change leaves every level’s sources as they were writes no world file again', async () => {
    const cacheFiles = () => {
      const dir = join(root, '.cache/geoshelf/world');
      return readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => {
          const s = statSync(join(e.parentPath, e.name));
          return `${e.name} ${s.ino} ${s.mtimeMs}`;
        })
        .sort();
    };
    const distFiles = () => readIndex().world_files.map((f) => `${f.url} ${statSync(join(out, f.url)).ino}`);
    const [cached, published] = [cacheFiles(), distFiles()];
    expect(cached.length).toBe(4 * 4); // each level's three files and its record
    const manifestPath = join(root, 'data/earth/ANT/manifest.json');
    const m = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
    m.notes = 'Described again, the data unchanged.';
    writeFileSync(manifestPath, JSON.stringify(m, null, 2) + '\n');
    const result = await build();
    expect(result.write.swapped).toBe(true); // the build did run
    expect(cacheFiles()).toEqual(cached);
    expect(distFiles()).toEqual(published);
  }, 60_000);

  it('a country changed changes the world files of its level after a rebuild, and no other level’s', async () => {
    const before = readIndex().world_files;
    await editLevel('FJI', 'data/earth/FJI/FJI_ADM0.geojson', '"shapeName":"Fiji"', '"shapeName":"Viti"');
    await build();
    const after = readIndex().world_files;
    for (const [i, f] of after.entries()) {
      if (f.body === 'earth' && f.level === 'ADM0') expect(f.sha256, f.url).not.toBe(before[i].sha256);
      else expect(f.sha256, f.url).toBe(before[i].sha256);
    }
    const names = gdalRead(join(out, 'downloads/earth/world/ADM0.gpkg'))[0]!.features.map(
      (f) => f.properties.shapeName,
    );
    expect(names).toContain('Viti');
    expect(names).not.toContain('Fiji');
  }, 60_000);

  it('a release’s copy holds no world file and lists none, nor any Web Mercator archive, style or page: they live at their one URL', async () => {
    const outcome = await makeRelease(root, '1.0.0', { geometry: false });
    expect(outcome.status).toBe('recorded');
    await build();
    const release = join(out, 'releases/1.0.0');
    const frozen = JSON.parse(readFileSync(join(release, 'api/v1/index.json'), 'utf8')) as ApiIndex;
    expect(frozen.world_files).toEqual([]);
    const stored = readdirSync(release, { recursive: true }).map(String);
    expect(stored.filter((p) => p.includes('world/'))).toEqual([]);
    expect(readIndex().world_files.length).toBe(12); // the root's are still there
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toContain('downloads/earth/world/ADM1.gpkg');
    expect(readFileSync(join(release, 'index.html'), 'utf8')).not.toContain('world/ADM1.gpkg');
    // The Web Mercator archives and styles (plan.ts's withoutWebMaps) likewise: the root has them.
    const webMaps = (path: string) => /\.mercator\.pmtiles$|\.style\.json$|^web-maps\//.test(path);
    const rooted = readdirSync(out, { recursive: true }).map(String);
    expect(rooted.filter((p) => !p.startsWith('releases/') && webMaps(p)).length).toBeGreaterThan(2);
    expect(stored.filter(webMaps)).toEqual([]);
    const pages = stored.filter((p) => /^[a-z]+\/[A-Z]{3}\/index\.html$/.test(p));
    expect(pages.length).toBeGreaterThan(0);
    for (const page of pages)
      expect(readFileSync(join(release, page), 'utf8'), page).not.toContain('Web map style');
  }, 120_000);
});

// The GeoPackage as SQLite sees it: no row lacks a world column.
it('no GeoPackage row lacks country, license or attribution', () => {
  for (const level of expectedCounts().keys()) {
    const [body, name] = level.split('/');
    const db = new Database(join(out, 'downloads', body, 'world', `${name}.gpkg`), { readonly: true });
    try {
      const table = `${body}_${name}`;
      const row = db
        .prepare(
          `SELECT COUNT(*) AS n, SUM(country IS NULL OR license IS NULL OR attribution IS NULL) AS missing FROM "${table}"`,
        )
        .get() as { n: number; missing: number };
      expect(row).toEqual({ n: expectedCounts().get(level), missing: 0 });
    } finally {
      db.close();
    }
  }
});
