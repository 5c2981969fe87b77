// The formats stage inside `geoshelf build`, end to end (in process): odd
// property names build like any others, and what a download leaves out of
// its source reaches the user as a warning through the one reporter, naming
// the source file and pointing into it (a level with z: its TopoJSON is 2D;
// the other formats keep z, read back in readback.test.ts).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { measureGeoJSON } from '../../build/measure/measure.ts';
import { cli } from '../support/cli.ts';

const root = mkdtempSync(join(tmpdir(), 'geoshelf-formats-warnings-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const out = join(root, 'dist');

/** Writes data/earth/AND/ with one level of `features` and its manifest (derived numbers measured). */
async function tree(features: unknown[]): Promise<void> {
  const folder = join(root, 'data/earth/AND');
  mkdirSync(folder, { recursive: true });
  const path = 'data/earth/AND/AND_ADM1.geojson';
  writeFileSync(join(root, path), JSON.stringify({ type: 'FeatureCollection', features }));
  const stats = await measureGeoJSON(join(root, path));
  const manifest = {
    schema_version: 1,
    body: 'earth',
    iso_a3: 'AND',
    name: { en: 'Andorra', es: 'Andorra' },
    crs: { authority: 'OGC', code: 'CRS84', epsg: 4326 },
    status: 'ok',
    source: { name: 'test', url: 'https://example.org/', license: 'public-domain', retrieved: '2026-11-24' },
    datasets: [
      {
        level: 'ADM1',
        path,
        bytes: stats.bytes,
        sha256: stats.sha256,
        features: stats.features,
        bbox: stats.bbox,
        geometry_types: stats.geometry_types,
        properties: stats.properties,
        license: 'public-domain',
      },
    ],
  };
  writeFileSync(join(folder, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

const ring = (x: number, z?: number) =>
  [
    [x, 42.5],
    [x + 0.1, 42.5],
    [x + 0.1, 42.6],
    [x, 42.6],
    [x, 42.5],
  ].map((p) => (z === undefined ? p : [...p, z]));

test('property names such as constructor and __proto__ in some features only → built, exit 0 (was exit 70)', async () => {
  const odd = { constructor: 'c', toString: 1, ['__proto__']: 'p', hasOwnProperty: true, valueOf: 0.5 };
  await tree([
    { type: 'Feature', properties: { n: 'plain' }, geometry: { type: 'Polygon', coordinates: [ring(1.4)] } },
    {
      type: 'Feature',
      properties: { n: 'odd', ...odd },
      geometry: { type: 'Polygon', coordinates: [ring(1.6)] },
    },
  ]);
  const { code, stderr } = await cli('build', '--root', root, '--out', out, '--quiet');
  expect(stderr).toBe('');
  expect(code).toBe(0);
}, 120_000);

test('a level with z → built, and one warning line: FILE: POINTER: warning: its TopoJSON is 2D', async () => {
  await tree([
    { type: 'Feature', properties: { n: 'flat' }, geometry: { type: 'Polygon', coordinates: [ring(1.4)] } },
    {
      type: 'Feature',
      properties: { n: 'high' },
      geometry: { type: 'Polygon', coordinates: [ring(1.6, 2942)] },
    },
  ]);
  const { code, stderr } = await cli('build', '--root', root, '--out', out, '--quiet');
  expect(code).toBe(0);
  // The file is named from the current folder (the root is absolute here).
  expect(stderr).toBe(
    `${root}/data/earth/AND/AND_ADM1.geojson: /features/1/geometry/coordinates/0/0: warning: ` +
      'AND_ADM1.topojson is 2D: the z of every position is left out there (GeoPackage, FlatGeobuf, Shapefile and GeoParquet keep it)\n',
  );
  // Again from the cache (dist/ removed, so not a no-op), with --json: the same problem in the reporter's JSON shape.
  rmSync(out, { recursive: true, force: true });
  const json = await cli('build', '--root', root, '--out', out, '--quiet', '--json');
  expect(JSON.parse(json.stdout)).toEqual([
    {
      file: `${root}/data/earth/AND/AND_ADM1.geojson`,
      pointer: '/features/1/geometry/coordinates/0/0',
      rule: 'z-dropped',
      severity: 'warning',
      message:
        'AND_ADM1.topojson is 2D: the z of every position is left out there (GeoPackage, FlatGeobuf, Shapefile and GeoParquet keep it)',
    },
  ]);
}, 120_000);
