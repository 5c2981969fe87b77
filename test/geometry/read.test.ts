// The geometry checks' reading (the GeoJSON reader with a GeometrySink):
// positions to exact doubles, features cut from chunks of any size, files
// split between this thread and the worker.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FeatureCollectionScanner } from '../../build/geojson/scanner.ts';
import { checkGeometryFile } from '../../build/geometry/check-file.ts';
import { GeometrySink } from '../../build/geometry/feature-sink.ts';
import { checkGeometry } from '../../build/geometry/validity.ts';
import { measureAndCheckGeoJSON, measureGeoJSON } from '../../build/measure/measure.ts';

const USA = new URL('../../data/earth/USA/USA_ADM2.geojson', import.meta.url).pathname;

/** Returns the positions of each geometry of `text`, a FeatureCollection, fed to the reader `chunk` bytes at a time. */
function positions(text: string, chunk: number): number[][] {
  const out: number[][] = [];
  const sink = new GeometrySink((_, g) => out.push([...g.xy.subarray(0, 2 * g.positions)]));
  const scanner = new FeatureCollectionScanner(sink);
  const bytes = Buffer.from(text);
  let held = Buffer.alloc(0); // a token cut by the chunk's end, carried into the next
  for (let at = 0; at < bytes.length || at === 0; at += chunk) {
    const buf = Buffer.concat([held, bytes.subarray(at, at + chunk)]);
    const eof = at + chunk >= bytes.length;
    const stop = scanner.scan(buf, 0, buf.length, at - held.length, eof);
    held = Buffer.from(buf.subarray(stop));
  }
  return out;
}

describe('geometry reader', () => {
  const dir = mkdtempSync(join(tmpdir(), 'geoshelf-geometry-read-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads positions to the doubles JSON.parse gives (exponents, long digits, negative zero, 3D), whatever the chunk size', () => {
    const ring = [
      [1e-7, -0],
      [12.345678901234567, 2.5e2],
      [0.1, 0.30000000000000004, 99],
      [1e-7, -0],
    ];
    // written by hand: JSON.stringify would print -0 as 0
    const feature =
      '{"type":"Feature","properties":{"name":"a \\"}{\\" b"},"geometry":{"coordinates":[[[1e-7,-0],[12.345678901234567,2.5E+2],[0.1,0.30000000000000004,99],[1e-7,-0]]],"type":"Polygon"}}';
    const text = `{"type":"FeatureCollection","features":[${feature},\n${feature}]}`;
    const want = ring.flatMap((p) => [p[0]!, p[1]!]);
    for (const chunk of [1, 2, 3, 7, 64, 1 << 20]) {
      const read = positions(text, chunk);
      expect(read, `chunk ${chunk}`).toEqual([want, want]);
      expect(Object.is(read[1]![1], -0)).toBe(true);
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

  it("the measurer's pass (cut into small reads, shared with its worker thread) gives the geometry reader's verdict", async () => {
    const alone = await checkGeometryFile(USA);
    const options = { chunkSize: 4096, parallelMinBytes: 1, segmentBytes: 256 << 10, hashWorkerMinBytes: 1 };
    const { stats, geometry } = await measureAndCheckGeoJSON(USA, options);
    expect(geometry).toEqual(alone);
    expect(stats).toEqual(await measureGeoJSON(USA));
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
