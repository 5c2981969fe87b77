// The measurer checks a file's own bbox members (RFC 7946 5) in its one pass:
// the collection's, each feature's and each geometry's, before or after what
// they cover, compared with the plain min/max of its coordinates; the same
// answer whole, cut into tiny chunks, and shared with the worker thread.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { measureGeoJSON, measureGeoJSONFile, type MeasureOptions } from '../../build/measure/measure.ts';

const dir = mkdtempSync(join(tmpdir(), 'geoshelf-bbox-member-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const OPTIONS: MeasureOptions[] = [
  {},
  { chunkSize: 5 },
  { chunkSize: 13 },
  { parallelMinBytes: 0, segmentBytes: 60 }, // later features scanned by the worker thread
];

/** A square feature from (x, y) to (x + 1, y + 1); `bbox` and `geometryBbox` are added as written. */
function square(x: number, y: number, bbox = '', geometryBbox = ''): string {
  const ring = `[[${x},${y}],[${x + 1},${y}],[${x + 1},${y + 1}],[${x},${y + 1}],[${x},${y}]]`;
  const geometry = `{"type":"Polygon",${geometryBbox ? `"bbox":${geometryBbox},` : ''}"coordinates":[${ring}]}`;
  return `{"type":"Feature",${bbox ? `"bbox":${bbox},` : ''}"properties":{},"geometry":${geometry}}`;
}

let n = 0;
/** Measures `text` every way and expects the same wrong bbox members each time; returns them. */
async function bboxesOf(text: string) {
  const path = join(dir, `${n++}.geojson`);
  writeFileSync(path, text);
  const runs = await Promise.all(OPTIONS.map((options) => measureGeoJSONFile(path, options)));
  for (const run of runs.slice(1)) expect(run).toEqual(runs[0]);
  return runs[0]!.bboxes;
}

describe("a file's own bbox members", () => {
  it('the collection bbox [0,0,1,1] of a file whose coordinates span more → /bbox, with both values', async () => {
    const text = `{"type":"FeatureCollection","bbox":[0,0,1,1],"features":[\n${square(0, 0)},\n${square(5, -3)}\n]}`;
    expect(await bboxesOf(text)).toEqual([{ pointer: '/bbox', stated: [0, 0, 1, 1], actual: [0, -3, 6, 1] }]);
  });

  it('a right one, before or after "features", is no problem; a wrong one after "features" is found', async () => {
    const features = `[\n${square(0, 0)},\n${square(5, -3)},\n${square(-2, 4)}\n]`;
    expect(await bboxesOf(`{"type":"FeatureCollection","bbox":[-2,-3,6,5],"features":${features}}`)).toEqual(
      [],
    );
    expect(await bboxesOf(`{"type":"FeatureCollection","features":${features},"bbox":[-2,-3,6,5]}`)).toEqual(
      [],
    );
    expect(await bboxesOf(`{"type":"FeatureCollection","features":${features},"bbox":[-2,-3,6,4]}`)).toEqual([
      { pointer: '/bbox', stated: [-2, -3, 6, 4], actual: [-2, -3, 6, 5] },
    ]);
  });

  it("a feature's and a geometry's bbox are compared with that feature's coordinates, wherever they are written", async () => {
    const geometryLast = `{"type":"Feature","properties":{},"geometry":{"coordinates":[[[2,2],[3,2],[3,3],[2,2]]],"type":"Polygon","bbox":[2,2,3,9]},"bbox":[2,2,3,3]}`;
    const lines = [
      square(0, 0, '[0,0,1,1]', '[0,0,1,1]'), // right
      square(5, -3, '[5,-3,6,-1]'), // north is -2
      square(-2, 4, '', '[-2,4,-1,5]'), // right
      geometryLast, // the feature's right, the geometry's north wrong, both written after the coordinates
      square(7, 7, '[7,7,8,8]', '[0,0,1,1]'),
    ];
    const text = `{"type":"FeatureCollection","features":[\n${lines.join(',\n')}\n]}`;
    expect(await bboxesOf(text)).toEqual([
      { pointer: '/features/1/bbox', stated: [5, -3, 6, -1], actual: [5, -3, 6, -2] },
      { pointer: '/features/3/geometry/bbox', stated: [2, 2, 3, 9], actual: [2, 2, 3, 3] },
      { pointer: '/features/4/geometry/bbox', stated: [0, 0, 1, 1], actual: [7, 7, 8, 8] },
    ]);
  });

  it('members after the coordinates in a file whose first feature has none are still checked (a second pass)', async () => {
    const late = (x: number, bbox: string) =>
      `{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[${x},0],[${x + 1},0],[${x + 1},1],[${x},0]]],"bbox":${bbox}},"bbox":${bbox}}`;
    // The first pass keeps no extent for feature 2 (its members come last); the second finds them wrong.
    const lines = [square(0, 0), square(1, 1), late(4, '[4,0,9,1]'), late(6, '[6,0,7,1]'), square(2, 2)];
    const text = `{"type":"FeatureCollection","features":[\n${lines.join(',\n')}\n]}`;
    expect(await bboxesOf(text)).toEqual([
      { pointer: '/features/2/geometry/bbox', stated: [4, 0, 9, 1], actual: [4, 0, 5, 1] },
      { pointer: '/features/2/bbox', stated: [4, 0, 9, 1], actual: [4, 0, 5, 1] },
    ]);
  });

  it('with heights, [w, s, low, e, n, high], the four plane numbers are compared', async () => {
    const text = `{"type":"FeatureCollection","bbox":[0,0,-5,1,1,100],"features":[${square(0, 0, '[0,0,0,1,2,0]')}]}`;
    expect(await bboxesOf(text)).toEqual([
      { pointer: '/features/0/bbox', stated: [0, 0, 0, 1, 2, 0], actual: [0, 0, 1, 1] },
    ]);
  });

  it('the antimeridian form (west > east, RFC 7946 5.2) is not the plain min/max a manifest states', async () => {
    const fiji = (x: number) => `[[${x},-18],[${x + 0.5},-18],[${x + 0.5},-17],[${x},-17],[${x},-18]]`;
    const geometry = `{"type":"MultiPolygon","coordinates":[[${fiji(177)}],[${fiji(-179.9)}]]}`;
    const text = `{"type":"FeatureCollection","bbox":[177,-18,-179.4,-17],"features":[{"type":"Feature","properties":{},"geometry":${geometry}}]}`;
    expect(await bboxesOf(text)).toEqual([
      { pointer: '/bbox', stated: [177, -18, -179.4, -17], actual: [-179.9, -18, 177.5, -17] },
    ]);
  });

  it('a bbox that is not an array of 4 or 6 numbers is reported as such (stated null); the file still measures', async () => {
    const members = [
      '"0,0,1,1"',
      '{"w":0}',
      '[0,0,1]',
      '[0,0,1,"1"]',
      '[[0,0],[1,1]]',
      'null',
      '[0,0,1,true]',
    ];
    for (const member of members) {
      const text = `{"type":"FeatureCollection","bbox":${member},"features":[${square(0, 0)}]}`;
      expect(await bboxesOf(text), member).toEqual([
        { pointer: '/bbox', stated: null, actual: [0, 0, 1, 1] },
      ]);
    }
  });

  it('of two bbox members the last is checked, as JSON.parse keeps it (a duplicate is not malformed)', async () => {
    const text = `{"type":"FeatureCollection","bbox":[9,9,9,9],"bbox":[0,0,1,1],"features":[${square(0, 0)}]}`;
    expect(await bboxesOf(text)).toEqual([]);
  });

  it('the stats are those of the same file without bbox members, to the bit', async () => {
    const plain = `{"type":"FeatureCollection","features":[\n${square(0, 0)},\n${square(-1, 2)}\n]}`.replace(
      '[[0,0]',
      '[[-0,0]', // of equal values the first stays: -0 (valid/whitespace.geojson checks it too)
    );
    const boxed = plain.replaceAll('"properties"', '"bbox":[0,0,1,1],"properties"');
    const [a, b] = [join(dir, 'plain.geojson'), join(dir, 'boxed.geojson')];
    writeFileSync(a, plain);
    writeFileSync(b, boxed);
    const [x, y] = [await measureGeoJSON(a), await measureGeoJSON(b)];
    expect({ ...y, bytes: 0, sha256: '' }).toEqual({ ...x, bytes: 0, sha256: '' }); // toEqual tells -0 from 0
  });
});
