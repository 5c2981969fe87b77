// GeoParquet against the field's readers (issue 30 §5; the long project):
// every level and part of the sample data (the Earth, Mars, the Moon), and a small level under each
// accepted CRS and one with z, written by build/formats/geoparquet.ts, then
// read by pyarrow (schema, geo metadata), shapely ≥ 2 (every WKB: the same
// doubles as the source, bit for bit; the bbox column is each geometry's
// bounds) and pyproj (the PROJJSON is the manifest's CRS), all in
// .venv-oracle/ (.ci/run makes it; no skipping). Rows must follow the
// Hilbert curve of their bbox centres. GDAL here has no Parquet driver, so
// it is not an oracle for this format.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hilbert } from '../../build/core/hilbert.ts';
import { ACCEPTED_CRS, crsDefinition, crsName } from '../../build/core/shared/crs.ts';
import type { Manifest } from '../../build/core/shared/manifest.ts';
import { openGeoParquet } from '../../build/formats/geoparquet.ts';
import { pump, scanSource } from '../../build/formats/source-scan.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const PYTHON = join(ROOT, '.venv-oracle/bin/python');
const ORACLE = join(ROOT, 'test/formats/geoparquet_oracle.py');
const dir = mkdtempSync(join(tmpdir(), 'geoshelf-geoparquet-oracle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Written {
  parquet: string;
  source: string;
  crs: string; // e.g. "OGC:CRS84"
  bbox: [number, number, number, number];
}

/** Writes `source` as GeoParquet with unit IDs "u-0", "u-1"… (so the oracle finds each row's feature). */
async function write(
  source: string,
  name: string,
  crs: { authority: string; code: string },
): Promise<Written> {
  const probe = await scanSource(source);
  const ids = Array.from({ length: probe.count }, (_, i) => `u-${i}`);
  const scan = await scanSource(source, {}, ids);
  const parquet = join(dir, `${name}.parquet`);
  await pump(source, scan, [await openGeoParquet(parquet, scan, crs, { rowGroupRows: 1000 })]);
  return { parquet, source, crs: crsName(crs), bbox: scan.bbox };
}

/** Every level file and part of the sample data (every body), with its manifest's CRS. */
function sampleLevels(): { source: string; name: string; crs: Manifest['crs'] }[] {
  return ['earth', 'mars', 'moon'].flatMap((body) => {
    const folder = join(ROOT, 'data', body);
    return readdirSync(folder).flatMap((iso) => {
      const file = join(folder, iso, 'manifest.json');
      if (!existsSync(file)) return [];
      const m = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
      return m.datasets.flatMap((d) => [
        ...(d.path ? [{ source: join(ROOT, d.path), name: `${body}_${iso}_${d.level}`, crs: m.crs }] : []),
        ...(d.parts ?? []).map((p) => ({
          source: join(ROOT, p.path),
          name: `${body}_${iso}_${d.level}_${p.code}`,
          crs: m.crs,
        })),
      ]);
    });
  });
}

const square = (x: number, y: number, size: number, z?: number) =>
  [
    [x, y],
    [x + size, y],
    [x + size, y + size],
    [x, y + size],
    [x, y],
  ].map((p, i) => (z !== undefined && i % 2 === 0 ? [...p, z] : p));

/** A small level of Polygons and MultiPolygons (a hole, -0 for 0, long decimals), with z when `z` is given. */
function smallLevel(path: string, z?: number): string {
  const features = Array.from({ length: 12 }, (_, i) => {
    const x = (i % 4) * 20 - (40 + 1 / 7); // doubles with all 17 digits
    const y = Math.floor(i / 4) * 20 - 0.1 * i;
    const geometry =
      i % 3 === 1
        ? { type: 'MultiPolygon', coordinates: [[square(x, y, 5, z)], [square(x + 6, y, 3, z)]] }
        : {
            type: 'Polygon',
            coordinates: [square(x, y, 10, z), ...(i === 2 ? [square(x + 2, y + 2, 3, z)] : [])],
          };
    return {
      type: 'Feature',
      properties: { name: `unit ${i}`, n: i, share: i / 7, odd: i % 2 === 1, mix: i % 2 ? i : 'x' },
      geometry,
    };
  });
  writeFileSync(path, JSON.stringify({ type: 'FeatureCollection', features }).replaceAll(',0]', ',-0]'));
  return path;
}

/** Runs the oracle on `files`; returns its verdict per file. */
function oracle(files: Written[]): { file: string; problems: string[]; centres: [number, number][] }[] {
  const input = JSON.stringify(files.map((f) => [f.parquet, f.source, f.crs]));
  const out = execFileSync(PYTHON, [ORACLE], {
    input,
    encoding: 'utf8',
    timeout: 600_000,
    maxBuffer: 1 << 28,
  });
  return out
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

/** Whether the Hilbert values of `centres` (FlatGeobuf's 65,535-step grid over `bbox`) never rise. */
function inHilbertOrder(centres: [number, number][], [minX, minY, maxX, maxY]: Written['bbox']): boolean {
  const cell = (v: number, min: number, max: number) =>
    max === min ? 0 : Math.floor((65535 * (v - min)) / (max - min));
  const h = centres.map(([x, y]) => hilbert(cell(x, minX, maxX), cell(y, minY, maxY)));
  return h.every((v, i) => i === 0 || v <= h[i - 1]);
}

describe('GeoParquet against pyarrow, shapely ≥ 2 and pyproj', () => {
  it('the oracle is installed (.venv-oracle with pyarrow, shapely ≥ 2, pyproj: made by .ci/run)', () => {
    expect(existsSync(PYTHON)).toBe(true);
    const versions = execFileSync(
      PYTHON,
      ['-c', 'import pyarrow, pyproj, shapely; print(shapely.__version__)'],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(Number(versions.trim().split('.')[0])).toBeGreaterThanOrEqual(2);
  });

  it('every level and part of the sample data, a level under each accepted CRS, one with z: read as written', async () => {
    const files: Written[] = [];
    for (const { source, name, crs } of sampleLevels()) files.push(await write(source, name, crs));
    for (const crs of ACCEPTED_CRS) {
      const name = `small-${crs.authority}-${crs.code}`;
      files.push(await write(smallLevel(join(dir, `${name}.geojson`)), name, crs));
    }
    files.push(
      await write(
        smallLevel(join(dir, 'small-z.geojson'), 1.5),
        'small-z',
        crsDefinition({ authority: 'OGC', code: 'CRS84' }),
      ),
    );
    expect(files.length).toBeGreaterThan(250); // the sample has a level per country at least
    expect(new Set(files.map((f) => f.crs))).toEqual(new Set(ACCEPTED_CRS.map(crsName))); // the Moon and Mars too
    const verdicts = oracle(files);
    expect(verdicts.map((v) => v.file)).toEqual(files.map((f) => f.parquet));
    expect(verdicts.filter((v) => v.problems.length > 0).map((v) => [v.file, v.problems])).toEqual([]);
    const unordered = verdicts.filter((v, i) => !inHilbertOrder(v.centres, files[i].bbox)).map((v) => v.file);
    expect(unordered).toEqual([]);
  }, 600_000);
});
