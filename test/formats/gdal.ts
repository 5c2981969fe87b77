// GDAL as the oracle for the download formats: every file is read back with
// ogr2ogr (GeoJSON out) and ogrinfo, and compared with its source GeoJSON.
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { FieldCollector, asText, type Field } from '../../build/formats/fields.ts';
import { truncateUtf8 } from '../../build/formats/fields.ts';
import { DBF_TEXT_BYTES } from '../../build/formats/dbase.ts';
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

/** Returns the features GDAL reads from `path` (a .shp.zip is read through /vsizip/), at full precision. */
export async function gdalFeatures(path: string): Promise<PlainFeature[]> {
  const input = path.endsWith('.zip') ? `/vsizip/${path}` : path;
  // GDAL writes 15 decimals by default; 20 decimals (17 significant digits for
  // properties) print every double so that it parses back to itself.
  const options = ['-lco', 'COORDINATE_PRECISION=20', '-lco', 'SIGNIFICANT_FIGURES=17'];
  const { stdout } = await run('ogr2ogr', ['-f', 'GeoJSON', ...options, '/vsistdout/', input], {
    maxBuffer: 1 << 30,
  });
  return (JSON.parse(stdout) as { features: PlainFeature[] }).features;
}

/** Returns what `ogrinfo -so -al` says of the first layer of `path` (GDAL 3.6 has no -json for vector data); `options` e.g. ["-spat", …]. */
export async function gdalLayer(
  path: string,
  options: string[] = [],
): Promise<{
  name: string;
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
export function polygonsOf(geometry: PlainFeature['geometry']): number[][][][] {
  return geometry.type === 'Polygon'
    ? [geometry.coordinates as number[][][]]
    : (geometry.coordinates as number[][][][]);
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
export function unwound(geometry: PlainFeature['geometry']): string {
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
    if (field.type === 'text') {
      const text = truncateUtf8(asText(value), DBF_TEXT_BYTES);
      return text === '' ? null : text; // dBase has no null: "" and null both read as null
    }
    return value;
  }
  // TopoJSON keeps JSON values: GDAL reads an object as JSON, a mixed column as text.
  if (format === 'topojson' && typeof value === 'object') return value;
  if (field.type === 'text') return asText(value);
  return value;
}

/**
 * Returns a value as GDAL read it: missing → null; a text value that holds a
 * JSON object or array comes out of ogr2ogr's GeoJSON writer as that value,
 * so it is turned back into its (compact) text.
 */
function gdalValue(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  return typeof value === 'object' ? JSON.stringify(value) : value;
}

/**
 * Expects GDAL's features `actual` to equal the source's, property by
 * property (through `names`: property → field name in the file) and
 * geometry by geometry: `exact` compares the coordinates as written,
 * `unwound` ignores ring winding and polygon order.
 */
export function expectSameFeatures(
  format: FormatName,
  source: { features: PlainFeature[]; fields: Field[] },
  actual: PlainFeature[],
  names: Map<string, string>,
  geometry: 'exact' | 'unwound',
): void {
  expect(actual.length).toBe(source.features.length);
  const canon = (f: PlainFeature, isSource: boolean) => {
    const props: Record<string, unknown> = {};
    for (const field of source.fields) {
      const name = names.get(field.name) ?? field.name;
      props[name] = isSource
        ? expectedValue(format, field, f.properties?.[field.name])
        : gdalValue(f.properties?.[name]);
    }
    const g = geometry === 'exact' ? JSON.stringify(polygonsOf(f.geometry)) : unwound(f.geometry);
    // A Shapefile has no MultiPolygon type: GDAL reads one outer ring as a Polygon.
    const multi = format === 'shp' ? polygonsOf(f.geometry).length > 1 : f.geometry.type === 'MultiPolygon';
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

/** Returns a ring on the quantisation grid, without the repeated closing point and repeats, starting at its least point. */
function gridRing(ring: number[][], translate: number[], scale: number[]): string {
  const points: number[][] = [];
  for (const [x, y] of ring) {
    const p = [Math.round((x - translate[0]) / scale[0]), Math.round((y - translate[1]) / scale[1])];
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
 * as the source's (so within half a step of it); rings may start elsewhere,
 * as arcs are cut at junctions. GDAL merges property names differing only in
 * case and adds the feature id as a property, so those names are skipped.
 */
export function expectSameTopology(
  source: { features: PlainFeature[]; fields: Field[] },
  actual: PlainFeature[],
  transform: { translate: number[]; scale: number[] },
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
      expect(a.properties[field.name] ?? null, `feature ${i} ${field.name}`).toEqual(
        expectedValue('topojson', field, f.properties?.[field.name]),
      );
    }
    const grid = (g: PlainFeature['geometry']) =>
      polygonsOf(g).map((p) => p.map((ring) => gridRing(ring, transform.translate, transform.scale)));
    expect(grid(a.geometry), `feature ${i} geometry`).toEqual(grid(f.geometry));
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
