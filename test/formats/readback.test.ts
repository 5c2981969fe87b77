// Every download format, read back by GDAL (ogr2ogr, ogrinfo) and compared
// with its source GeoJSON feature by feature: generated edge cases (odd
// property names, extreme numbers, z, coordinates far out of range) and a
// sample of the committed data.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  convertLevel,
  FORMAT_SUFFIX,
  type Conversion,
  type FormatName,
} from '../../build/formats/formats.ts';
import {
  expectSameFeatures,
  expectSameTopology,
  expectedValue,
  gdalFeatures,
  gdalLayer,
  hasZ,
  HAS_GDAL,
  own,
  readSource,
} from './gdal.ts';
import { dbfFields } from '../../build/formats/dbase.ts';
import { scanSource } from '../../build/formats/source-scan.ts';
import { EPSG_4326 } from '../../build/core/shared/crs.ts';

const REPO = new URL('../../', import.meta.url).pathname;
let tmp = '';

const square = (x: number, y: number, size: number) => [
  [x, y],
  [x + size, y],
  [x + size, y + size],
  [x, y + size],
  [x, y],
];

/** Edge cases: MultiPolygons with holes, empty and null values, non-ASCII text and names, long names, typed columns. */
const EDGE = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      id: 'E-1',
      properties: {
        shapeName: 'Ñuñoa – São Tomé 東京 Ærø',
        population: 120000,
        density: 0.125,
        coastal: true,
        note: '',
        missing: null,
        src_shape_identifier: 'long name 1',
        src_shape_identity: 'long name 2',
        mixed: 7,
        región: 'Región Metropolitana',
      },
      geometry: {
        type: 'MultiPolygon',
        coordinates: [
          [
            square(-71.6, -33.6, 0.5),
            square(-71.5, -33.5, 0.1).reverse(),
            square(-71.3, -33.3, 0.05).reverse(),
          ],
          [square(-70.9, -33.9, 0.2)],
          [
            [
              [-70.1, -33.1],
              [-70.0, -33.1],
              [-70.05, -33.012345678901234],
              [-70.1, -33.1],
            ],
          ],
        ],
      },
    },
    {
      type: 'Feature',
      properties: {
        shapeName: 'Bío Bío',
        population: -3,
        density: 2,
        coastal: false,
        note: 'x'.repeat(300),
        src_shape_identifier: 'ü',
        mixed: 'seven',
        región: '',
      },
      geometry: {
        type: 'Polygon',
        coordinates: [square(-73, -37.5, 1), square(-72.8, -37.3, 0.2).reverse()],
      },
    },
    {
      type: 'Feature',
      properties: {
        shapeName: 'Polígono sin huecos',
        population: null,
        density: null,
        coastal: null,
        nested: { a: [1, 2] },
      },
      geometry: { type: 'Polygon', coordinates: [square(-68.5, -22.5, 0.75)] },
    },
  ],
};

const ONE = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: { shapeName: 'Isla', shapeISO: 'XX-01' },
      geometry: { type: 'MultiPolygon', coordinates: [[square(10, 10, 1)]] },
    },
  ],
};

/** Names of Object.prototype's members (and "prototype"): a missing one must read as null, not as the member. */
const INHERITED_NAMES = [
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__proto__',
  '__defineGetter__',
  'prototype',
];

/** Odd property names, each present in some features and missing from others, in columns of every type. */
const NAMES: {
  type: string;
  features: { type: string; properties: Record<string, unknown>; geometry: unknown }[];
} = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: { shapeName: 'none of them' },
      geometry: { type: 'Polygon', coordinates: [square(0, 0, 1)] },
    },
    {
      type: 'Feature',
      // A computed key: an own property "__proto__" (as JSON.parse makes it), not the prototype.
      properties: {
        shapeName: 'all of them',
        constructor: 'Constructor St',
        toString: 7,
        valueOf: 2.5,
        hasOwnProperty: true,
        ['__proto__']: 'proto',
        __defineGetter__: { a: 1 },
        prototype: 'p',
      },
      geometry: { type: 'Polygon', coordinates: [square(2, 0, 1)] },
    },
    {
      type: 'Feature',
      properties: { ['__proto__']: 'second', toString: 8, prototype: null },
      geometry: { type: 'Polygon', coordinates: [square(4, 0, 1)] },
    },
  ],
};

/** Numbers a dBase numeric field cannot hold as written by String(): exponents, 17 significant digits, subnormals. */
const NUMBERS = {
  type: 'FeatureCollection',
  features: [
    [1e-300, 1e300, 0.30000000000000004, 1e21, 5e-324, 9007199254740991],
    [0.5, -1.7976931348623157e308, 1234.5678901234567, 123456789012345680000, 1e-320, -9007199254740991],
    [null, 2, 1e-7, 3.5, 0, 0],
  ].map(([tiny, huge, precise, big, subnormal, count], i) => ({
    type: 'Feature',
    properties: { tiny, huge, precise, big, subnormal, count },
    geometry: { type: 'Polygon', coordinates: [square(i * 2, 0, 1)] },
  })),
};

/** Z: a Polygon with a hole and a MultiPolygon with z, a feature without z (z = 0), one with a fourth number (dropped, as GDAL reads it). */
const Z = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: { shapeName: 'with z' },
      geometry: {
        type: 'Polygon',
        coordinates: [
          square(0, 0, 1).map(([x, y]) => [x, y, 100.5 + x - y]),
          square(0.2, 0.2, 0.2)
            .reverse()
            .map(([x, y]) => [x, y, -3.25]),
        ],
      },
    },
    {
      type: 'Feature',
      properties: { shapeName: 'multi with z' },
      geometry: {
        type: 'MultiPolygon',
        coordinates: [
          [square(2, 0, 1).map(([x, y]) => [x, y, 1e-9 * x])],
          [square(4, 0, 1).map(([x, y]) => [x, y, 8848.86])],
        ],
      },
    },
    {
      type: 'Feature',
      properties: { shapeName: 'without z' },
      geometry: { type: 'Polygon', coordinates: [square(6, 0, 1)] },
    },
    {
      type: 'Feature',
      properties: { shapeName: 'with z and m' },
      geometry: { type: 'Polygon', coordinates: [square(8, 0, 1).map(([x, y]) => [x, y, 2, 99])] },
    },
  ],
};

/** Finite but extreme coordinates (far outside longitude and latitude, subnormal): no TopoJSON grid holds them. */
const EXTREME = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: { shapeName: 'huge' },
      geometry: { type: 'Polygon', coordinates: [square(-1e300, -1e300, 2e300)] },
    },
    {
      type: 'Feature',
      properties: { shapeName: 'subnormal' },
      geometry: { type: 'Polygon', coordinates: [square(0, 0, 1e-320)] },
    },
    {
      type: 'Feature',
      properties: { shapeName: 'ordinary' },
      geometry: { type: 'Polygon', coordinates: [square(10, 10, 1)] },
    },
  ],
};

/** A level whose whole extent is subnormal: a grid's step would overflow. */
const SUBNORMAL = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: { shapeName: 'subnormal' },
      geometry: { type: 'Polygon', coordinates: [square(0, 0, 1e-320)] },
    },
    {
      type: 'Feature',
      properties: { shapeName: 'next to it' },
      geometry: { type: 'Polygon', coordinates: [square(1e-320, 0, 2e-320)] },
    },
  ],
};

/** Generated cases, by name: the converter's input is the JSON text of each. */
const GENERATED: Record<string, unknown> = {
  edge: EDGE,
  one: ONE,
  names: NAMES,
  numbers: NUMBERS,
  z: Z,
  extreme: EXTREME,
  subnormal: SUBNORMAL,
};

/** A sample level and a split part (islands: a MultiPolygon level) of the committed data; the build check covers all. */
const SAMPLES = ['data/earth/CHL/CHL_ADM1.geojson', 'data/earth/USA/ADM2/US-HI.geojson'];

const cases: { name: string; source: string }[] = [];
const conversions = new Map<string, Promise<Conversion>>();

/** Returns the conversion of case `name`, converting it on first use (so a case that fails to convert fails its own tests only). */
function converted(name: string): Promise<Conversion> {
  let conversion = conversions.get(name);
  if (!conversion) {
    const source = cases.find((c) => c.name === name)!.source;
    conversion = convertLevel(source, join(tmp, 'out', name), name, EPSG_4326);
    conversions.set(name, conversion);
  }
  return conversion;
}

beforeAll(async () => {
  if (!HAS_GDAL) return;
  tmp = mkdtempSync('/tmp/geoshelf-formats-');
  const write = (name: string, value: unknown) => {
    const path = join(tmp, `${name}.geojson`);
    writeFileSync(path, JSON.stringify(value));
    return path;
  };
  for (const [name, value] of Object.entries(GENERATED)) cases.push({ name, source: write(name, value) });
  for (const path of SAMPLES)
    cases.push({
      name: path.split('/').slice(-2).join('_').replace('.geojson', ''),
      source: join(REPO, path),
    });
  mkdirSync(join(tmp, 'out'), { recursive: true });
});

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** Cases whose extent no TopoJSON grid holds: written unquantised. */
const UNQUANTISED = ['extreme', 'subnormal'];

/** Returns the one geometry type GDAL should read for a GeoPackage or FlatGeobuf of `features`. */
function declaredType(features: Parameters<typeof hasZ>[0]): string {
  const multi = features.some((f) => f.geometry.type === 'MultiPolygon');
  return `${hasZ(features) ? '3D ' : ''}${multi ? 'Multi Polygon' : 'Polygon'}`;
}

const path = (name: string, format: FormatName) => join(tmp, 'out', name, name + FORMAT_SUFFIX[format]);
const caseNames = [
  ...Object.keys(GENERATED),
  ...SAMPLES.map((p) => p.split('/').slice(-2).join('_').replace('.geojson', '')),
];

describe.skipIf(!HAS_GDAL)('formats read back by GDAL', () => {
  test.each(caseNames)(
    '%s: GeoPackage → same features in order, same properties, exact geometry',
    async (name) => {
      await converted(name);
      const source = readSource(cases.find((c) => c.name === name)!.source);
      const layer = await gdalLayer(path(name, 'gpkg'));
      expect(layer.name).toBe(name);
      expect(layer.featureCount).toBe(source.features.length);
      expect(layer.epsg).toBe(4326);
      expect(layer.geometry).toBe(declaredType(source.features));
      const types = new Map(layer.fields.map((f) => [f.name, f.type]));
      for (const f of source.fields) {
        expect(types.get(f.name), f.name).toBe(
          { integer: 'Integer64', real: 'Real', boolean: 'Integer(Boolean)', text: 'String' }[f.type],
        );
      }
      expectSameFeatures('gpkg', source, await gdalFeatures(path(name, 'gpkg')), new Map(), 'exact');
    },
  );

  test.each(caseNames)(
    '%s: FlatGeobuf → same features (Hilbert order), properties, exact geometry',
    async (name) => {
      await converted(name);
      const source = readSource(cases.find((c) => c.name === name)!.source);
      const layer = await gdalLayer(path(name, 'fgb'));
      expect(layer.featureCount).toBe(source.features.length);
      expect(layer.epsg).toBe(4326);
      expect(layer.geometry).toBe(declaredType(source.features));
      expectSameFeatures('fgb', source, await gdalFeatures(path(name, 'fgb')), new Map(), 'exact');
    },
  );

  test.each(caseNames)(
    '%s: FlatGeobuf spatial index → a bbox query finds what a scan of the GeoJSON finds',
    async (name) => {
      await converted(name);
      const source = cases.find((c) => c.name === name)!.source;
      const scan = await scanSource(source);
      const [w, s, e, n] = scan.bbox;
      // Two windows (the south-west and north-east quarters of the level's bbox), queried at once.
      const windows = [
        [w, s, (w + e) / 2, (s + n) / 2],
        [(w + e) / 2, (s + n) / 2, e, n],
      ].map((b) => b.map(String));
      const files = [path(name, 'fgb'), source];
      const counts = await Promise.all(
        windows.flatMap((window) => files.map((file) => gdalLayer(file, ['-spat', ...window]))),
      );
      for (let i = 0; i < windows.length; i++) {
        expect(counts[2 * i].featureCount, windows[i].join(' ')).toBe(counts[2 * i + 1].featureCount);
      }
    },
  );

  test.each(caseNames)(
    '%s: Shapefile zip → same features in order, 10-byte names, same points',
    async (name) => {
      const source = readSource(cases.find((c) => c.name === name)!.source);
      const conversion = await converted(name);
      const renamed = new Map(conversion.shapefileRenamed.map((r) => [r.property, r.field]));
      const layer = await gdalLayer(path(name, 'shp'));
      expect(layer.featureCount).toBe(source.features.length);
      expect(layer.epsg).toBe(4326);
      expect(layer.geometry).toBe(hasZ(source.features) ? '3D Polygon' : 'Polygon');
      for (const field of layer.fields) expect(Buffer.byteLength(field.name)).toBeLessThanOrEqual(10);
      expectSameFeatures('shp', source, await gdalFeatures(path(name, 'shp')), renamed, 'unwound');
    },
  );

  test.each(caseNames)(
    '%s: TopoJSON → same features, every position on the stated grid (or exact when not quantised)',
    async (name) => {
      const source = readSource(cases.find((c) => c.name === name)!.source);
      const topojson = (await converted(name)).topojson;
      expectSameTopology(source, await gdalFeatures(path(name, 'topojson')), topojson);
      const text = readFileSync(path(name, 'topojson'), 'utf8');
      if (UNQUANTISED.includes(name)) {
        expect(topojson).toBeUndefined();
        expect(JSON.parse(text)).not.toHaveProperty('transform');
      } else {
        expect(Math.max(...topojson!.scale)).toBeLessThanOrEqual(1e-6);
      }
    },
  );

  test('odd property names (constructor, __proto__…) → null where a feature lacks them, in every format', async () => {
    // The comparisons above cover every format; this names the rule and checks the values GDAL reads directly.
    const renamed = new Map((await converted('names')).shapefileRenamed.map((r) => [r.property, r.field]));
    const { fields } = readSource(cases.find((c) => c.name === 'names')!.source);
    for (const format of ['gpkg', 'fgb', 'shp', 'topojson'] as const) {
      const features = await gdalFeatures(path('names', format));
      const first = features.find((f) => own(f.properties, 'shapeName') === 'none of them')!;
      for (const name of INHERITED_NAMES) {
        const column = format === 'shp' ? (renamed.get(name) ?? name) : name;
        // null, or dBase's "?" for a logical field (hasOwnProperty holds booleans)
        const missing = expectedValue(
          format,
          fields.find((f) => f.name === name)!,
          undefined,
        );
        expect(missing, name).toBe(format === 'shp' && name === 'hasOwnProperty' ? '?' : null);
        expect(own(first.properties, column) ?? null, `${format} ${column}`).toBe(missing);
      }
    }
  });

  test('Shapefile numbers → as GDAL prints them with each field’s width and decimals, the same doubles', async () => {
    await converted('numbers');
    // ogr2ogr -f CSV prints a numeric field with its declared decimals: what a user sees and exports.
    const { stdout } = await promisify(execFile)('ogr2ogr', [
      '-f',
      'CSV',
      '/vsistdout/',
      `/vsizip/${path('numbers', 'shp')}`,
    ]);
    const [header, ...rows] = stdout.trim().split('\n');
    const columns = header.split(',');
    const source = readSource(cases.find((c) => c.name === 'numbers')!.source);
    rows.forEach((row, i) => {
      const cells = row.split(',').map((c) => c.replace(/^"|"$/g, ''));
      columns.forEach((column, k) => {
        const value = own(source.features[i].properties, column);
        if (value === null || value === undefined) expect(cells[k], `${i} ${column}`).toBe('');
        else expect(Number(cells[k]), `${i} ${column}: ${cells[k]}`).toBe(value);
      });
    });
    // Real columns a numeric field of at most 254 characters holds are numeric; 1e-300, 1e300 are text.
    const types = new Map(dbfFields(source.fields).map((f) => [f.field.name, f.type]));
    expect(Object.fromEntries(types)).toEqual({
      tiny: 'C',
      huge: 'C',
      precise: 'N',
      big: 'N',
      subnormal: 'C',
      count: 'N',
    });
  });

  test('z → kept in GeoPackage, FlatGeobuf and Shapefile; TopoJSON is 2D and the conversion warns once, pointing at the first z', async () => {
    expect((await converted('z')).warnings).toEqual([
      {
        format: 'topojson',
        rule: 'z-dropped',
        pointer: '/features/0/geometry/coordinates/0/0',
        message:
          'z.topojson is 2D: the z of every position is left out there (GeoPackage, FlatGeobuf, Shapefile and GeoParquet keep it)',
      },
    ]);
    // Only the generated cases: z is the one with a z (the samples are converted by the tests above).
    for (const name of Object.keys(GENERATED).filter((n) => n !== 'z'))
      expect((await converted(name)).warnings, name).toEqual([]);
  });

  test('shapefile field names: cut to 10 bytes, then _1, _2… on a clash (listed in the conversion)', async () => {
    expect((await converted('edge')).shapefileRenamed).toEqual([
      { property: 'src_shape_identifier', field: 'src_shape_' },
      { property: 'src_shape_identity', field: 'src_shap_1' },
    ]);
  });
});

test.skipIf(HAS_GDAL)('formats read-back tests need GDAL (apt-get install gdal-bin)', () => {
  // In CI (.ci/run installs gdal-bin) a missing GDAL is a failure, not a skip.
  if (process.env.CI) throw new Error('GDAL (ogr2ogr) not found: install gdal-bin');
  console.warn('GDAL (ogr2ogr) not found: the format read-back tests are skipped');
});
