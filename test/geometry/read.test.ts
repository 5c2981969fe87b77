// The streaming reader: features cut from chunks of any size, strings with
// braces and escapes, files split between this thread and the worker.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkGeometryFile } from '../../build/geometry/check-file.ts';
import { GeometryParseError, GeometryReader } from '../../build/geometry/parse-geometry.ts';
import { FeatureCutter } from '../../build/geometry/read-features.ts';
import { checkGeometry } from '../../build/geometry/validity.ts';

const USA = new URL('../../data/earth/USA/USA_ADM2.geojson', import.meta.url).pathname;

function cut(text: string, chunk: number): string[] {
  const cutter = new FeatureCutter();
  const out: string[] = [];
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += chunk) {
    for (const feature of cutter.push(bytes.subarray(at, at + chunk))) out.push(feature.bytes.toString());
  }
  return out;
}

describe('geometry reader', () => {
  const dir = mkdtempSync(join(tmpdir(), 'geoshelf-geometry-read-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('cuts the same features whatever the chunk size (keys, strings with braces and escapes across chunks)', () => {
    const features = [
      { type: 'Feature', properties: { name: 'a "}{" b\\', features: [1, { x: '[' }] }, geometry: null },
      {
        type: 'Feature',
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              [1, 0],
              [1, 1],
              [0, 0],
            ],
          ],
        },
        properties: {},
      },
    ].map((f) => JSON.stringify(f));
    const text = `{"type":"FeatureCollection","bbox":[0,0,1,1],"properties":{"features":[{"x":1}]},"features":[\n${features.join(',\n')}\n]}`;
    for (const chunk of [1, 2, 3, 7, 64, 1 << 20]) expect(cut(text, chunk)).toEqual(features);
  });

  it('reads positions to the doubles JSON.parse gives (exponents, long digits, negative zero, 3D)', () => {
    const coordinates = [
      [
        [1e-7, -0],
        [12.345678901234567, 2.5e2],
        [0.1, 0.30000000000000004, 99],
        [1e-7, -0],
      ],
    ];
    // written by hand: JSON.stringify would print -0 as 0 and 1e-7 as 1e-7 anyway
    const text =
      '{"type":"Feature","geometry":{"coordinates":[[[1e-7,-0],[12.345678901234567,2.5E+2],[0.1,0.30000000000000004,99],[1e-7,-0]]],"type":"Polygon"}}';
    const g = new GeometryReader().read(Buffer.from(text))!;
    expect(g.type).toBe('Polygon');
    expect([...g.xy.subarray(0, 2 * g.positions)]).toEqual(coordinates[0]!.flatMap((p) => [p[0], p[1]]));
    expect(Object.is(g.xy[1], -0)).toBe(true);
  });

  it('malformed bytes (read beside the measurer, before it refuses the file) throw, never hang', () => {
    const reader = new GeometryReader();
    for (const text of [
      '{"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,',
      '{"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,}]]]}}',
      '{"geometry":{"type":"Polygon","coordinates":[[[0,0],[-,1]]]}}',
      '{"geometry":{"type":"Polygon","coordinates":[[["0",0]]]}}',
      '{"geometry":{"type":"Polygon","coordinates":[]}}',
      '{"geometry":{"type":"Polygon" "coordinates":1}}',
    ]) {
      expect(() => reader.read(Buffer.from(text)), text).toThrow(GeometryParseError);
    }
  });

  it('a non-finite coordinate is an invalid coordinate, as GEOS says', () => {
    expect(
      checkGeometry('Polygon', [
        [
          [0, 0],
          [Infinity, 0],
          [1, 1],
          [0, 0],
        ],
      ])?.message,
    ).toBe('invalid coordinate at or near [Infinity, 0]');
  });

  it('a file shared with the worker thread gives the result of one sequential pass', async () => {
    const alone = await checkGeometryFile(USA);
    const shared = await checkGeometryFile(USA, { parallelMinBytes: 1 });
    expect(shared).toEqual(alone);
    expect(alone.issues.length).toBeGreaterThan(0);
  });

  it('a cut that is not between features (one feature over many lines) is checked here after all', async () => {
    const pretty = join(dir, 'pretty.geojson');
    const parsed = JSON.parse(readFileSync(USA, 'utf8')) as { features: unknown[] };
    parsed.features = parsed.features.slice(0, 200);
    writeFileSync(pretty, JSON.stringify(parsed, null, 1)); // "{" starts many lines inside features
    const alone = await checkGeometryFile(pretty);
    expect(await checkGeometryFile(pretty, { parallelMinBytes: 1 })).toEqual(alone);
    expect(alone.checked).toBe(200);
  });
});
