// GDAL as the oracle for the download formats: every file is read back with
// ogr2ogr (into SQLite, for exact doubles) and ogrinfo, and compared with its
// source GeoJSON.
import Database from 'better-sqlite3';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { FieldCollector, asText, type Field } from '../../build/formats/fields.ts';
import { truncateUtf8 } from '../../build/formats/fields.ts';
import { DBF_TEXT_BYTES, dbfFields } from '../../build/formats/dbase.ts';
import type { FormatName } from '../../build/formats/formats.ts';

const run = promisify(execFile);

/** True when GDAL's command-line tools are installed (CI installs gdal-bin). */
export const HAS_GDAL = (() => {
  try {
    execFileSync('ogr2ogr', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

export interface PlainFeature {
  properties: Record<string, unknown>;
  geometry: { type: string; coordinates: number[][][] | number[][][][] };
}

/**
 * Returns a feature's own property `name` (undefined when it has none):
 * never an inherited member such as Object.prototype.constructor.
 */
export const own = (properties: Record<string, unknown> | null | undefined, name: string): unknown =>
  properties && Object.hasOwn(properties, name) ? properties[name] : undefined;

/**
 * Returns a WKB geometry (Polygon or MultiPolygon, ISO or OGC 2.5D codes) as
 * GeoJSON coordinates: [x, y], or [x, y, z] when it has z (m is dropped).
 */
function readWkb(wkb: Buffer): PlainFeature['geometry'] {
  let o = 0;
  const geometry = (): { type: number; coordinates: unknown } => {
    const le = wkb[o] === 1;
    const u32 = () => {
      const v = le ? wkb.readUInt32LE(o) : wkb.readUInt32BE(o);
      o += 4;
      return v;
    };
    const f64 = () => {
      const v = le ? wkb.readDoubleLE(o) : wkb.readDoubleBE(o);
      o += 8;
      return v;
    };
    o++;
    const code = u32();
    const iso = Math.floor((code & 0x0fffffff) / 1000); // 1: Z, 2: M, 3: ZM
    const z = (code & 0x80000000) !== 0 || iso === 1 || iso === 3;
    const m = (code & 0x40000000) !== 0 || iso === 2 || iso === 3;
    const type = (code & 0x0fffffff) % 1000;
    const polygon = () =>
      Array.from({ length: u32() }, () =>
        Array.from({ length: u32() }, () => {
          const p = [f64(), f64()];
          if (z) p.push(f64());
          if (m) f64();
          return p;
        }),
      );
    if (type === 3) return { type, coordinates: polygon() };
    if (type === 6) return { type, coordinates: Array.from({ length: u32() }, () => geometry().coordinates) };
    throw new Error(`WKB geometry type ${code} is not a Polygon or MultiPolygon`);
  };
  const { type, coordinates } = geometry();
  return {
    type: type === 3 ? 'Polygon' : 'MultiPolygon',
    coordinates: coordinates as number[][][] | number[][][][],
  };
}

/**
 * Returns the features GDAL reads from `path` (a .shp.zip is read through
 * /vsizip/), in the file's order, with the exact doubles GDAL read: ogr2ogr
 * copies them into a plain SQLite file (binary doubles, WKB), read here.
 * GDAL's text outputs round (GeoJSON prints 0.30000000000000004 as 0.3 and a
 * fixed number of decimals prints 1e-320 as 0), so they cannot be the oracle.
 */
export async function gdalFeatures(path: string): Promise<PlainFeature[]> {
  const input = path.endsWith('.zip') ? `/vsizip/${path}` : path;
  const dir = mkdtempSync(join(tmpdir(), 'geoshelf-gdal-'));
  try {
    const out = join(dir, 'read.sqlite');
    const options = ['-dsco', 'SPATIALITE=NO', '-lco', 'FORMAT=WKB', '-lco', 'LAUNDER=NO', '-nln', 'read'];
    await run('ogr2ogr', ['-f', 'SQLite', ...options, out, input], { timeout: 60_000 });
    const db = new Database(out, { readonly: true });
    try {
      const { f_geometry_column: geometryColumn } = db
        .prepare('SELECT f_geometry_column FROM geometry_columns')
        .get() as { f_geometry_column: string };
      // Rows as arrays: an object per row would take a column "__proto__" as its prototype.
      const statement = db.prepare('SELECT * FROM "read" ORDER BY rowid').raw();
      const columns = statement.columns();
      return (statement.all() as unknown[][]).map((row) => {
        let geometry: PlainFeature['geometry'] | undefined;
        const properties: [string, unknown][] = [];
        columns.forEach((column, i) => {
          if (i === 0) return; // the FID
          if (column.name === geometryColumn) geometry = readWkb(row[i] as Buffer);
          else if (column.type === 'INTEGER_BOOLEAN')
            properties.push([column.name, row[i] === null ? null : row[i] === 1]);
          else properties.push([column.name, row[i]]);
        });
        // Object.fromEntries defines own properties, "__proto__" too.
        return { properties: Object.fromEntries(properties), geometry: geometry! };
      });
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Returns what `ogrinfo -so -al` says of the first layer of `path` (GDAL 3.6 has no -json for vector data); `options` e.g. ["-spat", …]. */
export async function gdalLayer(
  path: string,
  options: string[] = [],
): Promise<{
  name: string;
  geometry: string; // e.g. "Multi Polygon", "3D Polygon"
  featureCount: number;
  fields: { name: string; type: string }[]; // type e.g. "Integer64", "Real", "String", "Integer(Boolean)"
  epsg?: number;
}> {
  const input = path.endsWith('.zip') ? `/vsizip/${path}` : path;
  const { stdout } = await run('ogrinfo', ['-so', '-al', ...options, input], { maxBuffer: 1 << 26 });
  const lines = stdout.split('\n');
  const value = (label: string) =>
    lines
      .find((l) => l.startsWith(label))
      ?.slice(label.length)
      .trim();
  const srsEnd = lines.findIndex((l) => l.startsWith('Data axis to CRS axis mapping'));
  const fields = lines
    .slice(srsEnd + 1)
    .map((l) => /^(.+): (\w+(?:\(\w+\))?) \(\d+\.\d+\)$/.exec(l))
    .filter((m) => m !== null)
    .map((m) => ({ name: m[1], type: m[2] }));
  const epsg = /ID\["EPSG",(\d+)\]\]\s*$/.exec(lines.slice(0, srsEnd).join('\n'));
  return {
    name: value('Layer name:') ?? '',
    geometry: value('Geometry:') ?? '',
    featureCount: Number(value('Feature Count:')),
    fields,
    epsg: epsg ? Number(epsg[1]) : undefined,
  };
}

/** Returns the source features of a GeoJSON file and the fields the writers chose for them. */
export function readSource(path: string): { features: PlainFeature[]; fields: Field[] } {
  const features = (JSON.parse(readFileSync(path, 'utf8')) as { features: PlainFeature[] }).features;
  const collector = new FieldCollector();
  for (const f of features) collector.add(f.properties);
  return { features, fields: collector.fields() };
}

/** Returns a shape's polygons (a Polygon as one). */
function polygonsOf(geometry: PlainFeature['geometry']): number[][][][] {
  return geometry.type === 'Polygon'
    ? [geometry.coordinates as number[][][]]
    : (geometry.coordinates as number[][][][]);
}

/** True when any position of the features has a third number (z). */
export function hasZ(features: PlainFeature[]): boolean {
  return features.some((f) => polygonsOf(f.geometry).some((p) => p.some((r) => r.some((q) => q.length > 2))));
}

/** Returns the geometry with every position [x, y] (`z` false) or [x, y, z] (`z` true; 0 when it has none). */
function withDimensions(geometry: PlainFeature['geometry'], z: boolean): PlainFeature['geometry'] {
  const position = (q: number[]) => (z ? [q[0], q[1], q.length > 2 ? q[2] : 0] : [q[0], q[1]]);
  const polygons = polygonsOf(geometry).map((p) => p.map((r) => r.map(position)));
  return geometry.type === 'Polygon'
    ? { type: 'Polygon', coordinates: polygons[0] }
    : { type: geometry.type, coordinates: polygons };
}

/** Returns twice the signed area of a ring (> 0 counter-clockwise). */
function area2(ring: number[][]): number {
  let s = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++)
    s += (ring[j][0] - ring[i][0]) * (ring[j][1] + ring[i][1]);
  return s;
}

/**
 * Returns the polygons with every ring counter-clockwise and polygons in a
 * sorted order: the same exact points, whatever winding and polygon order a
 * format imposes (Shapefile rings are clockwise).
 */
function unwound(geometry: PlainFeature['geometry']): string {
  const polygons = polygonsOf(geometry).map((p) =>
    p.map((ring) => (area2(ring) < 0 ? [...ring].reverse() : ring)),
  );
  return JSON.stringify(polygons.map((p) => JSON.stringify(p)).sort());
}

/** Returns the value GDAL should read back for a property in `format`. */
export function expectedValue(format: FormatName, field: Field, value: unknown): unknown {
  if (format === 'shp' && field.type === 'boolean' && (value === null || value === undefined)) return '?'; // dBase's "unknown"
  if (value === null || value === undefined) return null;
  if (format === 'shp') {
    if (field.type === 'boolean') return value ? 'T' : 'F'; // a dBase logical; GDAL 3.6 reads it as text
    // A real column too wide for a numeric field (e.g. 1e-300 in plain notation) is text.
    if (field.type === 'text' || dbfFields([field])[0].type === 'C') {
      const text = truncateUtf8(asText(value), DBF_TEXT_BYTES);
      return text === '' ? null : text; // dBase has no null: "" and null both read as null
    }
    return value;
  }
  // TopoJSON keeps JSON values: GDAL reads an object as JSON text (its own spacing: compared parsed).
  if (format === 'topojson' && typeof value === 'object') return value;
  if (field.type === 'text') return asText(value);
  return value;
}

/** Returns a value as GDAL read it: missing → null. */
const gdalValue = (value: unknown): unknown => value ?? null;

/**
 * Expects GDAL's features `actual` to equal the source's, property by
 * property (through `names`: property → field name in the file; a missing
 * property is null, whatever its name) and geometry by geometry: `exact`
 * compares the coordinates as written, `unwound` ignores ring winding and
 * polygon order. GeoPackage and FlatGeobuf declare one geometry type, so a
 * level holding any MultiPolygon reads back as MultiPolygons only; a level
 * with any z reads back with z everywhere (0 where the source has none).
 */
export function expectSameFeatures(
  format: FormatName,
  source: { features: PlainFeature[]; fields: Field[] },
  actual: PlainFeature[],
  names: Map<string, string>,
  geometry: 'exact' | 'unwound',
): void {
  expect(actual.length).toBe(source.features.length);
  const z = hasZ(source.features);
  const levelMulti = source.features.some((f) => f.geometry.type === 'MultiPolygon');
  const canon = (f: PlainFeature, isSource: boolean) => {
    // [name, value] pairs: an object would take "__proto__" as its prototype.
    const props: [string, unknown][] = source.fields.map((field) => {
      const name = names.get(field.name) ?? field.name;
      return [
        name,
        isSource
          ? expectedValue(format, field, own(f.properties, field.name))
          : gdalValue(own(f.properties, name)),
      ];
    });
    const shape = isSource ? withDimensions(f.geometry, z) : f.geometry;
    const g = geometry === 'exact' ? JSON.stringify(polygonsOf(shape)) : unwound(shape);
    // A Shapefile has no MultiPolygon type: GDAL reads one outer ring as a Polygon.
    const multi =
      format === 'shp'
        ? polygonsOf(f.geometry).length > 1
        : f.geometry.type === 'MultiPolygon' || (isSource && levelMulti);
    return JSON.stringify({ props, g, multi });
  };
  const want = source.features.map((f) => canon(f, true));
  const got = actual.map((f) => canon(f, false));
  // FlatGeobuf stores features in Hilbert order: compare as sorted lists (same multiset).
  if (format === 'fgb') {
    want.sort();
    got.sort();
  }
  for (let i = 0; i < want.length; i++)
    expect(JSON.parse(got[i]), `feature ${i}`).toEqual(JSON.parse(want[i]));
}

/**
 * Returns a ring on the quantisation grid (as it is without one), without
 * the repeated closing point and repeats, starting at its least point.
 */
function gridRing(ring: number[][], grid?: { translate: number[]; scale: number[] }): string {
  const points: number[][] = [];
  for (const [x, y] of ring) {
    const p = grid
      ? [
          Math.round((x - grid.translate[0]) / grid.scale[0]),
          Math.round((y - grid.translate[1]) / grid.scale[1]),
        ]
      : [x + 0, y + 0]; // -0 and 0 are one place
    const last = points[points.length - 1];
    if (!last || last[0] !== p[0] || last[1] !== p[1]) points.push(p);
  }
  if (
    points.length > 1 &&
    points[0][0] === points[points.length - 1][0] &&
    points[0][1] === points[points.length - 1][1]
  ) {
    points.pop();
  }
  let start = 0;
  points.forEach((p, i) => {
    const s = points[start];
    if (p[0] < s[0] || (p[0] === s[0] && p[1] < s[1])) start = i;
  });
  return JSON.stringify([...points.slice(start), ...points.slice(0, start)]);
}

/**
 * Expects GDAL's reading of a TopoJSON file to hold the source's features in
 * order, with the same properties and every position on the same grid point
 * as the source's (so within half a step of it), or, without a `transform`
 * (not quantised), the same position exactly; rings may start elsewhere,
 * as arcs are cut at junctions. GDAL merges property names differing only in
 * case and adds the feature id as a property, so those names are skipped.
 */
export function expectSameTopology(
  source: { features: PlainFeature[]; fields: Field[] },
  actual: PlainFeature[],
  transform?: { translate: number[]; scale: number[] },
): void {
  expect(actual.length).toBe(source.features.length);
  const lower = source.fields.map((f) => f.name.toLowerCase());
  const fields = source.fields.filter(
    (f, i) =>
      lower.indexOf(f.name.toLowerCase()) === i &&
      lower.lastIndexOf(f.name.toLowerCase()) === i &&
      f.name !== 'id',
  );
  source.features.forEach((f, i) => {
    const a = actual[i];
    for (const field of fields) {
      const want = expectedValue('topojson', field, own(f.properties, field.name));
      const got = own(a.properties, field.name) ?? null;
      const read = typeof want === 'object' && want !== null ? JSON.parse(got as string) : got;
      expect(read, `feature ${i} ${field.name}`).toEqual(want);
    }
    const grid = (g: PlainFeature['geometry']) =>
      polygonsOf(g).map((p) => p.map((ring) => gridRing(ring, transform)));
    expect(grid(a.geometry), `feature ${i} geometry`).toEqual(grid(f.geometry));
    if (!transform) return;
    for (const p of polygonsOf(a.geometry)) {
      for (const ring of p) {
        for (const [x, y] of ring) {
          const qx = (x - transform.translate[0]) / transform.scale[0];
          const qy = (y - transform.translate[1]) / transform.scale[1];
          // Decoded positions are grid points (up to float rounding).
          expect(Math.abs(qx - Math.round(qx))).toBeLessThan(1e-3);
          expect(Math.abs(qy - Math.round(qy))).toBeLessThan(1e-3);
        }
      }
    }
  });
}
