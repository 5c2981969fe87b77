// Every download format, read back by GDAL (ogr2ogr, ogrinfo) and compared
// with its source GeoJSON feature by feature: generated edge cases and a
// sample of the committed data.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
  gdalFeatures,
  gdalLayer,
  HAS_GDAL,
  readSource,
} from './gdal.ts';
import { scanSource } from '../../build/formats/source-scan.ts';

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

/** A sample level and a split part (islands: a MultiPolygon level) of the committed data; the build check covers all. */
const SAMPLES = ['data/earth/CHL/CHL_ADM1.geojson', 'data/earth/USA/ADM2/US-HI.geojson'];

const cases: { name: string; source: string }[] = [];
const converted = new Map<string, Conversion>();

beforeAll(async () => {
  if (!HAS_GDAL) return;
  tmp = mkdtempSync('/tmp/geoshelf-formats-');
  const write = (name: string, value: unknown) => {
    const path = join(tmp, `${name}.geojson`);
    writeFileSync(path, JSON.stringify(value));
    return path;
  };
  cases.push({ name: 'edge', source: write('edge', EDGE) }, { name: 'one', source: write('one', ONE) });
  for (const path of SAMPLES)
    cases.push({
      name: path.split('/').slice(-2).join('_').replace('.geojson', ''),
      source: join(REPO, path),
    });
  for (const c of cases) {
    mkdirSync(join(tmp, 'out'), { recursive: true });
    converted.set(c.name, await convertLevel(c.source, join(tmp, 'out', c.name), c.name));
  }
});

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const path = (name: string, format: FormatName) => join(tmp, 'out', name, name + FORMAT_SUFFIX[format]);
const caseNames = [
  'edge',
  'one',
  ...SAMPLES.map((p) => p.split('/').slice(-2).join('_').replace('.geojson', '')),
];

describe.skipIf(!HAS_GDAL)('formats read back by GDAL', () => {
  test.each(caseNames)(
    '%s: GeoPackage → same features in order, same properties, exact geometry',
    async (name) => {
      const source = readSource(cases.find((c) => c.name === name)!.source);
      const layer = await gdalLayer(path(name, 'gpkg'));
      expect(layer.name).toBe(name);
      expect(layer.featureCount).toBe(source.features.length);
      expect(layer.epsg).toBe(4326);
      const types = Object.fromEntries(layer.fields.map((f) => [f.name, f.type]));
      for (const f of source.fields) {
        expect(types[f.name]).toBe(
          { integer: 'Integer64', real: 'Real', boolean: 'Integer(Boolean)', text: 'String' }[f.type],
        );
      }
      expectSameFeatures('gpkg', source, await gdalFeatures(path(name, 'gpkg')), new Map(), 'exact');
    },
  );

  test.each(caseNames)(
    '%s: FlatGeobuf → same features (Hilbert order), properties, exact geometry',
    async (name) => {
      const source = readSource(cases.find((c) => c.name === name)!.source);
      const layer = await gdalLayer(path(name, 'fgb'));
      expect(layer.featureCount).toBe(source.features.length);
      expect(layer.epsg).toBe(4326);
      expectSameFeatures('fgb', source, await gdalFeatures(path(name, 'fgb')), new Map(), 'exact');
    },
  );

  test.each(caseNames)(
    '%s: FlatGeobuf spatial index → a bbox query finds what a scan of the GeoJSON finds',
    async (name) => {
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
      const conversion = converted.get(name)!;
      const renamed = new Map(conversion.shapefileRenamed.map((r) => [r.property, r.field]));
      const layer = await gdalLayer(path(name, 'shp'));
      expect(layer.featureCount).toBe(source.features.length);
      expect(layer.epsg).toBe(4326);
      for (const field of layer.fields) expect(Buffer.byteLength(field.name)).toBeLessThanOrEqual(10);
      expectSameFeatures('shp', source, await gdalFeatures(path(name, 'shp')), renamed, 'unwound');
    },
  );

  test.each(caseNames)('%s: TopoJSON → same features, every position on the stated grid', async (name) => {
    const source = readSource(cases.find((c) => c.name === name)!.source);
    const topojson = converted.get(name)!.topojson!;
    expect(Math.max(...topojson.scale)).toBeLessThanOrEqual(1e-6);
    expectSameTopology(source, await gdalFeatures(path(name, 'topojson')), topojson);
  });

  test('shapefile field names: cut to 10 bytes, then _1, _2… on a clash (listed in the conversion)', () => {
    expect(converted.get('edge')!.shapefileRenamed).toEqual([
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
