// GeoParquet 1.1 as written by build/formats/geoparquet.ts, read back in
// process by hyparquet (an independent reader, with gunzip for its pages):
// the geo metadata, the schema, every row's values and geometry against the
// source, the bbox column, the Hilbert row order, row groups and their
// statistics, with the body in memory and on disk. The pyarrow and shapely
// oracle is test/formats/geoparquet-oracle.test.ts (the long project).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parquetMetadata, parquetReadObjects, type FileMetaData } from 'hyparquet';
import { afterAll, describe, expect, test } from 'vitest';
import { ACCEPTED_CRS, EPSG_4326, findCrs } from '../../build/core/shared/crs.ts';
import { hilbert } from '../../build/core/hilbert.ts';
import { openGeoParquet } from '../../build/formats/geoparquet.ts';
import { projjson } from '../../build/formats/projjson.ts';
import { pump, scanSource } from '../../build/formats/source-scan.ts';

const MOON_2015 = findCrs({ authority: 'IAU_2015', code: '30100' })!;
const dir = mkdtempSync(join(tmpdir(), 'geoshelf-geoparquet-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const square = (x: number, y: number, size: number) => [
  [x, y],
  [x + size, y],
  [x + size, y + size],
  [x, y + size],
  [x, y],
];

/** Ten units on a grid: Polygons and MultiPolygons (one with a hole), every kind of property value. */
function level() {
  return {
    type: 'FeatureCollection',
    features: Array.from({ length: 10 }, (_, i) => {
      const x = (i % 4) * 1.5 + 0.1 * i; // e.g. 0.1, 1.6…: not on the Hilbert grid's lines
      const y = Math.floor(i / 4) * 1.25 - 33.000000000000014;
      const properties: Record<string, unknown> = {
        name: i === 3 ? 'Ñuñoa – 東京' : `unit ${i}`,
        population: i * 1000 - 2 ** 40, // int64, negative
        density: i === 5 ? -1e-300 : i / 3,
        coastal: i % 3 === 0,
        mixed: i % 2 ? 7 : 'seven', // text: 7 becomes "7"
        nested: { a: [i, null] }, // text: JSON
        geometry: 'a property named like the geometry column',
      };
      if (i === 4) delete properties.name; // missing: null
      if (i === 6) properties.population = null;
      const geometry =
        i % 3 === 1
          ? { type: 'MultiPolygon', coordinates: [[square(x, y, 0.5)], [square(x + 0.6, y, 0.25)]] }
          : {
              type: 'Polygon',
              coordinates: i === 2 ? [square(x, y, 1), square(x + 0.25, y + 0.25, 0.5)] : [square(x, y, 1)],
            };
      return { type: 'Feature', properties, geometry };
    }),
  };
}

type Row = Record<string, unknown>;

/** Writes `source` as GeoParquet and reads it back: metadata, geo metadata and rows (geometry as GeoJSON). */
async function roundTrip(name: string, options: { inMemoryBelow?: number; rowGroupRows?: number } = {}) {
  const source = join(dir, `${name}.geojson`);
  const out = join(dir, `${name}.parquet`);
  const fc = level();
  writeFileSync(source, JSON.stringify(fc));
  const ids = fc.features.map((_, i) => `id-${i}`);
  const scan = await scanSource(source, {}, ids);
  await pump(source, scan, [await openGeoParquet(out, scan, MOON_2015, options)]);
  const bytes = readFileSync(out);
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
  const metadata = parquetMetadata(file);
  const geo = JSON.parse(metadata.key_value_metadata!.find((kv) => kv.key === 'geo')!.value!);
  const compressors = { GZIP: (input: Uint8Array) => new Uint8Array(gunzipSync(input)) };
  const rows = (await parquetReadObjects({ file, compressors, metadata })) as Row[];
  return { fc, scan, metadata, geo, rows, bytes };
}

/** The statistics of the column chunk `path` in each row group, as bigint, number, boolean or string. */
function stats(metadata: FileMetaData, path: string) {
  return metadata.row_groups.map((g) => {
    const c = g.columns.find((col) => col.meta_data!.path_in_schema.join('.') === path)!.meta_data!;
    return { min: c.statistics?.min_value, max: c.statistics?.max_value, nulls: c.statistics?.null_count };
  });
}

describe('GeoParquet writer', () => {
  test('geo metadata: version 1.1.0, WKB geometry, its types, bbox, PROJJSON CRS and the bbox covering', async () => {
    const { geo, scan } = await roundTrip('meta');
    expect(geo).toEqual({
      version: '1.1.0',
      primary_column: 'geometry',
      columns: {
        geometry: {
          encoding: 'WKB',
          geometry_types: ['Polygon', 'MultiPolygon'],
          bbox: scan.bbox,
          crs: projjson(MOON_2015),
          covering: {
            bbox: {
              xmin: ['bbox', 'xmin'],
              ymin: ['bbox', 'ymin'],
              xmax: ['bbox', 'xmax'],
              ymax: ['bbox', 'ymax'],
            },
          },
        },
      },
    });
  });

  test('every accepted CRS has its PROJJSON, named by its own authority and code', () => {
    for (const crs of ACCEPTED_CRS) {
      const id = (projjson(crs) as { id: { authority: string; code: string | number; version?: number } }).id;
      const authority = id.version ? `${id.authority}_${id.version}` : id.authority; // IAU 2015 → "IAU_2015"
      expect(`${authority}:${id.code}`).toBe(`${crs.authority}:${crs.code}`);
    }
    expect(() => projjson({ authority: 'EPSG', code: '3857' })).toThrow('has no PROJJSON');
  });

  test('columns: unit_id first, the properties (a clash with "geometry" renamed), then geometry and the bbox struct', async () => {
    const { metadata } = await roundTrip('schema');
    const schema = metadata.schema.map((e) => [e.name, e.type ?? 'group', e.repetition_type ?? '']);
    expect(schema).toEqual([
      ['schema', 'group', ''],
      ['unit_id', 'BYTE_ARRAY', 'OPTIONAL'],
      ['name', 'BYTE_ARRAY', 'OPTIONAL'],
      ['population', 'INT64', 'OPTIONAL'],
      ['density', 'DOUBLE', 'OPTIONAL'],
      ['coastal', 'BOOLEAN', 'OPTIONAL'],
      ['mixed', 'BYTE_ARRAY', 'OPTIONAL'],
      ['nested', 'BYTE_ARRAY', 'OPTIONAL'],
      ['geometry_1', 'BYTE_ARRAY', 'OPTIONAL'],
      ['geometry', 'BYTE_ARRAY', 'REQUIRED'],
      ['bbox', 'group', 'REQUIRED'],
      ['xmin', 'DOUBLE', 'REQUIRED'],
      ['ymin', 'DOUBLE', 'REQUIRED'],
      ['xmax', 'DOUBLE', 'REQUIRED'],
      ['ymax', 'DOUBLE', 'REQUIRED'],
    ]);
    expect(metadata.schema.filter((e) => e.converted_type === 'UTF8').map((e) => e.name)).toEqual([
      'unit_id',
      'name',
      'mixed',
      'nested',
      'geometry_1',
    ]);
  });

  for (const [name, options] of [
    ['body in memory, one row group', {}],
    ['body on disk, row groups of 3 rows', { inMemoryBelow: 0, rowGroupRows: 3 }],
  ] as const) {
    test(`${name}: every row holds its feature's values and exact geometry, in Hilbert order`, async () => {
      const { fc, scan, rows, metadata } = await roundTrip(name.replace(/\W+/g, '-'), options);
      expect(metadata.row_groups.map((g) => Number(g.num_rows))).toEqual(
        'rowGroupRows' in options ? [3, 3, 3, 1] : [10],
      );
      const index = rows.map((r) => Number(String(r.unit_id).slice(3))); // "id-7" → 7
      expect([...index].sort((a, b) => a - b)).toEqual(fc.features.map((_, i) => i));
      rows.forEach((row, i) => {
        const f = fc.features[index[i]];
        const p = f.properties;
        expect(row.name ?? null).toBe(p.name ?? null);
        expect(row.population).toBe(p.population === null ? null : BigInt(p.population as number));
        expect(row.density).toBe(p.density);
        expect(row.coastal).toBe(p.coastal);
        expect(row.mixed).toBe(typeof p.mixed === 'string' ? p.mixed : JSON.stringify(p.mixed));
        expect(row.nested).toBe(JSON.stringify(p.nested));
        expect(row.geometry_1).toBe(p.geometry);
        expect(row.geometry).toEqual(f.geometry); // hyparquet decodes the WKB: the same doubles
        const b = scan.boxes.subarray(index[i] * 4, index[i] * 4 + 4);
        expect(row.bbox).toEqual({ xmin: b[0], ymin: b[1], xmax: b[2], ymax: b[3] });
      });
      // Hilbert values of the bbox centres on FlatGeobuf's 65,535-step grid never rise.
      const [minX, minY, maxX, maxY] = scan.bbox;
      const h = rows.map((r) => {
        const { xmin, ymin, xmax, ymax } = r.bbox as Record<string, number>;
        const x = Math.floor((65535 * ((xmin + xmax) / 2 - minX)) / (maxX - minX));
        return hilbert(x, Math.floor((65535 * ((ymin + ymax) / 2 - minY)) / (maxY - minY)));
      });
      expect(h).toEqual([...h].sort((a, b) => b - a));
      // Each row group's statistics are its rows' least and greatest values.
      const groups = metadata.row_groups.map((g, n) => rows.slice(n * 3, n * 3 + Number(g.num_rows)));
      if (!('rowGroupRows' in options)) groups.splice(0, groups.length, rows);
      const extremes = (values: unknown[]) => {
        const present = values.filter((v) => v !== null && v !== undefined) as (number | bigint | string)[];
        const sorted = [...present].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        const min = sorted[0] === 0 ? -0 : sorted[0]; // Parquet's rule: a zero minimum is written as -0
        return { min, max: sorted.at(-1), nulls: BigInt(values.length - present.length) };
      };
      expect(stats(metadata, 'population')).toEqual(groups.map((g) => extremes(g.map((r) => r.population))));
      expect(stats(metadata, 'name')).toEqual(groups.map((g) => extremes(g.map((r) => r.name))));
      for (const key of ['xmin', 'ymin', 'xmax', 'ymax'])
        expect(stats(metadata, `bbox.${key}`)).toEqual(
          groups.map((g) => extremes(g.map((r) => (r.bbox as Record<string, number>)[key]))),
        );
    });
  }

  test('a page of 4 KiB or more is gzipped (when that shrinks it), a smaller one stored as it is', async () => {
    const source = join(dir, 'codecs.geojson');
    const out = join(dir, 'codecs.parquet');
    const notes = Array.from({ length: 10 }, (_, i) => `note ${i}: ${'a long repeated text '.repeat(40)}`);
    const features = notes.map((note, i) => ({
      type: 'Feature',
      properties: { note, n: i },
      geometry: { type: 'Polygon', coordinates: [square(i, 0, 1)] },
    }));
    writeFileSync(source, JSON.stringify({ type: 'FeatureCollection', features }));
    const scan = await scanSource(source);
    await pump(source, scan, [await openGeoParquet(out, scan, EPSG_4326)]);
    const bytes = readFileSync(out);
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
    const metadata = parquetMetadata(file);
    const codecs = metadata.row_groups[0].columns.map((c) => [
      c.meta_data!.path_in_schema.join('.'),
      c.meta_data!.codec,
    ]);
    expect(Object.fromEntries(codecs)).toEqual({
      note: 'GZIP',
      n: 'UNCOMPRESSED',
      geometry: 'UNCOMPRESSED',
      'bbox.xmin': 'UNCOMPRESSED',
      'bbox.ymin': 'UNCOMPRESSED',
      'bbox.xmax': 'UNCOMPRESSED',
      'bbox.ymax': 'UNCOMPRESSED',
    });
    const compressors = { GZIP: (input: Uint8Array) => new Uint8Array(gunzipSync(input)) };
    const rows = (await parquetReadObjects({ file, compressors, metadata, columns: ['note'] })) as Row[];
    expect(rows.map((r) => r.note).sort()).toEqual([...notes].sort());
  });

  test('the same source gives the same bytes', async () => {
    const a = (await roundTrip('same-1')).bytes;
    const b = (await roundTrip('same-2')).bytes;
    expect(a.equals(b)).toBe(true);
  });

  test('a level with z: geometry types "Polygon Z", positions without z get 0', async () => {
    const source = join(dir, 'z.geojson');
    const out = join(dir, 'z.parquet');
    const withZ = [
      [0, 0, 5],
      [1, 0],
      [1, 1, 7],
      [0, 0, 5],
    ];
    writeFileSync(
      source,
      JSON.stringify({
        type: 'FeatureCollection',
        features: [{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [withZ] } }],
      }),
    );
    const scan = await scanSource(source);
    await pump(source, scan, [await openGeoParquet(out, scan, EPSG_4326)]);
    const bytes = readFileSync(out);
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
    const metadata = parquetMetadata(file);
    const geo = JSON.parse(metadata.key_value_metadata!.find((kv) => kv.key === 'geo')!.value!);
    expect(geo.columns.geometry.geometry_types).toEqual(['Polygon Z']);
    const compressors = { GZIP: (input: Uint8Array) => new Uint8Array(gunzipSync(input)) };
    const [row] = (await parquetReadObjects({ file, compressors, metadata })) as Row[];
    expect((row.geometry as { coordinates: number[][][] }).coordinates).toEqual([
      withZ.map(([x, y, z]) => [x, y, z ?? 0]),
    ]);
  });
});
