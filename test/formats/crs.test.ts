// Every download format declares the manifest's CRS exactly, with GDAL as
// the oracle: a small tree of one country per accepted CRS (Earth in OGC:CRS84
// and in EPSG:4326, a Moon and a Mars region of QUAD boxes) is validated and
// its downloads prepared as `build` does; GDAL then reads each GeoPackage,
// Shapefile and FlatGeobuf as the CRS it reads from the same source written
// by `ogr2ogr -a_srs AUTHORITY:CODE` (OGC:CRS84: with no -a_srs, as GDAL
// reads an RFC 7946 GeoJSON file, which it writes as EPSG:4326), and the texts
// of build/core/shared/crs.ts are GDAL's own (`gdalsrsinfo`). Those GDAL
// runs go through GDAL's library in one Python process (gdal_batch.py): the
// same functions and texts as the tools, without ~40 tools' start-up.
import Database from 'better-sqlite3';
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as flatbuffers from 'flatbuffers';
import { Header } from 'flatgeobuf/lib/mjs/flat-geobuf/header.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCEPTED_CRS,
  BODIES,
  BODY_RADIUS_M,
  crsName,
  type CrsDefinition,
} from '../../build/core/shared/crs.ts';
import { prepareDownloads, type Downloads } from '../../build/formats/downloads.ts';
import { validateManifests } from '../../build/manifest/validate.ts';
import { MeasurementCache } from '../../build/measure/cache.ts';
import { boxFeature, writeCountry, type BodyCountry } from '../support/body-tree.ts';

const run = promisify(execFile);
const PYTHON = '/usr/bin/python3'; // Debian's, with python3-gdal (the python3 on PATH may lack it)
const ORACLE = new URL('./gdal_batch.py', import.meta.url).pathname;

/** Whether GDAL's Python bindings are importable (`.ci/run` installs python3-gdal). */
const HAS_GDAL_PYTHON = spawnSync(PYTHON, ['-c', 'from osgeo import gdal'], { stdio: 'ignore' }).status === 0;
/** Without them the test is skipped locally, but fails in CI. */
const SKIP = !HAS_GDAL_PYTHON && !process.env.CI;

/** GDAL's drivers of the three formats, and each one's file suffix (its download's format). */
const DRIVERS = [
  ['GPKG', 'gpkg'],
  ['ESRI Shapefile', 'shp'],
  ['FlatGeobuf', 'fgb'],
] as const;

/** One country per accepted CRS: its folder, level and CRS. */
const COUNTRIES: (BodyCountry & { crs: CrsDefinition })[] = [
  { body: 'earth', iso: 'AND', level: 'ADM1', crs: ACCEPTED_CRS.find((c) => c.code === 'CRS84')! },
  { body: 'earth', iso: 'LIE', level: 'ADM1', crs: ACCEPTED_CRS.find((c) => c.code === '4326')! },
  { body: 'moon', iso: 'LAC', level: 'QUAD', crs: ACCEPTED_CRS.find((c) => c.body === 'moon')! },
  { body: 'mars', iso: 'MCQ', level: 'QUAD', crs: ACCEPTED_CRS.find((c) => c.body === 'mars')! },
];

/** Two latitude/longitude boxes side by side, sharing an edge at longitude `x`. */
const boxes = (x: number, y: number) => [
  boxFeature([x - 1, y, x, y + 1], 'A-1'),
  boxFeature([x, y, x + 1, y + 1], 'A-2'),
];

let root = '';
let downloads: Downloads;
const oracle = () => join(root, 'gdal'); // GDAL's own files of each source
/** What GDAL read: each file's CRS as `ogrinfo -so -al` prints it, and each CRS name's `gdalsrsinfo -o wkt1`. */
let read: { layers: Record<string, string>; srs: Record<string, string> };

/** The CRS name gdalsrsinfo is asked for: OGC:CRS84 is written as EPSG:4326 (crs.ts), its definition EPSG:4326's. */
const srsName = (crs: CrsDefinition) => (crs.code === 'CRS84' ? 'EPSG:4326' : crsName(crs));

/** Returns how GDAL opens a file: a zipped Shapefile through /vsizip/, as ogrinfo is given it. */
const gdalPath = (path: string) => (path.endsWith('.zip') ? `/vsizip/${path}` : path);

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'geoshelf-crs-'));
  for (const [i, c] of COUNTRIES.entries()) await writeCountry(root, c, boxes(10 + 20 * i, 40 - 20 * i));
  const measurer = new MeasurementCache();
  const { manifests, problems } = await validateManifests(root, { measurer });
  expect(problems).toEqual([]);
  downloads = await prepareDownloads(root, manifests, measurer);
  if (SKIP) return;
  mkdirSync(oracle());
  // One Python process runs every ogr2ogr and ogrinfo of the file (gdal_batch.py).
  const translate = COUNTRIES.flatMap((c) => {
    const source = join(root, `data/${c.body}/${c.iso}/${c.iso}_${c.level}.geojson`);
    const srs = c.crs.code === 'CRS84' ? [] : ['-a_srs', crsName(c.crs)]; // GeoJSON is CRS84 already
    return DRIVERS.map(([driver, suffix]) => [
      join(oracle(), `${c.iso}.${suffix}`),
      source,
      ['-f', driver, ...srs],
    ]);
  });
  const layers = COUNTRIES.flatMap((c) =>
    DRIVERS.flatMap(([, suffix]) => [built(c, suffix), join(oracle(), `${c.iso}.${suffix}`)]),
  );
  const request = { translate, layers: layers.map(gdalPath), srs: ACCEPTED_CRS.map(srsName) };
  const stdout = execFileSync(PYTHON, [ORACLE], { input: JSON.stringify(request), timeout: 60_000 });
  read = JSON.parse(stdout.toString()) as typeof read;
}, 120_000); // a bound for a hang only

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

/** Returns the path of a country's download of `format` as the build prepared it (in the formats cache). */
function built(c: (typeof COUNTRIES)[number], format: 'gpkg' | 'fgb' | 'shp'): string {
  const url = `downloads/${c.body}/${c.iso}/${c.iso}_${c.level}.${format === 'shp' ? 'shp.zip' : format}`;
  const file = downloads.files.get(url);
  expect(file, url).toBeDefined();
  return file!.from;
}

/** Returns the CRS GDAL reads from a file (ogrinfo's "Layer SRS WKT", WKT2) and how it maps the data's axes. */
function layerSrs(path: string): string {
  const text = read.layers[gdalPath(path)];
  expect(text, `${path} was read`).toBeDefined();
  expect(text, `${path} has a CRS`).not.toContain('(unknown)');
  return text!;
}

/** Returns the crs table of a FlatGeobuf file's header. */
function fgbCrs(path: string): { org: string | null; code: number; name: string | null; wkt: string | null } {
  const bytes = readFileSync(path);
  const length = bytes.readUInt32LE(8);
  const header = Header.getRootAsHeader(
    new flatbuffers.ByteBuffer(new Uint8Array(bytes.subarray(12, 12 + length))),
  );
  const crs = header.crs()!;
  return { org: crs.org(), code: crs.code(), name: crs.name(), wkt: crs.wkt() };
}

/** Returns a GeoPackage's CRS rows of its one layer: the geometry column's srs_id, its gpkg_spatial_ref_sys row, and every geometry blob's srs_id. */
function gpkgCrs(path: string): { row: unknown; blobs: number[] } {
  const db = new Database(path, { readonly: true });
  try {
    const { table_name: table, srs_id: srsId } = db
      .prepare('SELECT table_name, srs_id FROM gpkg_geometry_columns')
      .get() as { table_name: string; srs_id: number };
    const row = db
      .prepare(
        'SELECT srs_name, srs_id, organization, organization_coordsys_id, definition, description FROM gpkg_spatial_ref_sys WHERE srs_id = ?',
      )
      .get(srsId);
    const contents = db.prepare('SELECT srs_id FROM gpkg_contents WHERE table_name = ?').get(table) as {
      srs_id: number;
    };
    expect(contents.srs_id).toBe(srsId);
    const blobs = (db.prepare(`SELECT geom FROM "${table}"`).all() as { geom: Buffer }[]).map((r) =>
      r.geom.readInt32LE(4),
    );
    return { row, blobs };
  } finally {
    db.close();
  }
}

describe.skipIf(SKIP)('each format declares the manifest’s CRS, as GDAL writes it', () => {
  describe.each(COUNTRIES)('$body $iso in $crs.authority:$crs.code', (c) => {
    it('GeoPackage: the gpkg_spatial_ref_sys row GDAL writes, its srs_id in gpkg_contents, the geometry column and every blob', () => {
      const ours = gpkgCrs(built(c, 'gpkg'));
      const gdal = gpkgCrs(join(oracle(), `${c.iso}.gpkg`));
      expect(ours.row).toEqual(gdal.row);
      expect(ours.blobs).toEqual(gdal.blobs);
      expect(layerSrs(built(c, 'gpkg'))).toBe(layerSrs(join(oracle(), `${c.iso}.gpkg`)));
    });

    it('Shapefile: the .prj GDAL writes, read back as the same CRS', async () => {
      const { stdout } = await run('unzip', ['-p', built(c, 'shp'), `${c.iso}_${c.level}.prj`]);
      expect(stdout).toBe(readFileSync(join(oracle(), `${c.iso}.prj`), 'utf8'));
      expect(layerSrs(built(c, 'shp'))).toBe(layerSrs(join(oracle(), `${c.iso}.shp`)));
    });

    it('FlatGeobuf: the header’s org, code, name and WKT GDAL writes, read back as the same CRS', () => {
      expect(fgbCrs(built(c, 'fgb'))).toEqual(fgbCrs(join(oracle(), `${c.iso}.fgb`)));
      expect(layerSrs(built(c, 'fgb'))).toBe(layerSrs(join(oracle(), `${c.iso}.fgb`)));
    });
  });

  it('the Moon’s and Mars’s files read as their IAU 2015 spheres, the Earth’s as WGS 84 (EPSG:4326 with its ID, for CRS84 too)', () => {
    const [crs84, epsg, moon, mars] = COUNTRIES.map((c) => layerSrs(built(c, 'gpkg')));
    expect(moon).toContain('DATUM["Moon (2015) - Sphere"');
    expect(moon).toContain('ELLIPSOID["Moon (2015) - Sphere",1737400,0');
    expect(moon).toContain('ID["IAU",30100]');
    expect(mars).toContain('ELLIPSOID["Mars (2015) - Sphere",3396190,0');
    expect(mars).toContain('ID["IAU",49900]');
    for (const wgs84 of [crs84, epsg]) {
      expect(wgs84).toContain('ID["EPSG",4326]');
      expect(wgs84).toContain('ELLIPSOID["WGS 84",6378137,298.257223563');
    }
  });

  it.each(ACCEPTED_CRS)(
    '$authority:$code: GeoPackage definition is gdalsrsinfo’s WKT1, on its body’s figure and radius',
    (crs) => {
      expect(crs.gpkg.definition).toBe(read.srs[srsName(crs)]);
      const figure = BODIES[crs.body].figure;
      expect(crs.gpkg.definition).toContain(`,${figure.semiMajorM},${figure.inverseFlattening},`);
      // The Moon and Mars are spheres: their radius is the CRS's; the Earth's is the ellipsoid's mean, (2a + b) / 3.
      const { semiMajorM: a, inverseFlattening: f } = figure;
      const mean = f === 0 ? a : a * (1 - 1 / f / 3);
      expect(Math.abs(BODY_RADIUS_M[crs.body] - mean)).toBeLessThan(0.05);
    },
  );
});
