// The geometry checks of a large level shared between two threads report
// exactly what one thread does: the same problems, with the same feature
// indices, in the same order. The level holds jagged coast units (test/geometry/coast.ts),
// invalid ones in every part of the file, so a result of the worker's that was
// dropped, moved or put out of order changes the list.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkGeometryFile } from '../../build/geometry/check-file.ts';
import { measureAndCheckGeoJSON } from '../../build/measure/measure.ts';
import { seededRandom } from '../support/random.ts';
import { coastUnit } from './coast.ts';

const UNITS = 480;
const INVALID_EVERY = 4; // every segment of SEGMENT_BYTES holds invalid units
const SEGMENT_BYTES = 32 << 10; // ~9 units (3.5 kB each): ~50 segments
const ATTEMPTS = 3; // the worker takes segments from the end while this thread reads from the start

describe('geometry checks on two threads', () => {
  const dir = mkdtempSync(join(tmpdir(), 'geoshelf-geometry-threads-'));
  const path = join(dir, 'coast.geojson');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  beforeAll(() => {
    const random = seededRandom(28);
    const lines = Array.from({ length: UNITS }, (_, i) =>
      JSON.stringify({
        type: 'Feature',
        properties: { name: `unit ${i}` },
        geometry: coastUnit(random, i, { grid: 24, invalidEvery: INVALID_EVERY }),
      }),
    );
    writeFileSync(path, `{"type":"FeatureCollection","features":[\n${lines.join(',\n')}\n]}\n`);
  });

  it("validate's pass shared with the worker thread reports one thread's problems, in order, the worker's segments among them", async () => {
    const one = { parallelMinBytes: Infinity, hashWorkerMinBytes: Infinity };
    const alone = await measureAndCheckGeoJSON(path, one);
    const invalid = alone.geometry.issues.map((issue) => issue.feature);
    expect(invalid.length).toBeGreaterThan(UNITS / INVALID_EVERY / 2);
    expect(invalid.at(-1)).toBeGreaterThan(UNITS * 0.9); // problems up to the file's end
    let joined: number[] = [];
    for (let attempt = 0; attempt < ATTEMPTS && joined.length < 2; attempt++) {
      joined = [];
      const shared = await measureAndCheckGeoJSON(path, {
        parallelMinBytes: 1,
        segmentBytes: SEGMENT_BYTES,
        joined: (segment) => joined.push(segment),
      });
      expect(shared).toEqual(alone);
    }
    expect(joined.length).toBeGreaterThanOrEqual(2); // the worker's results took part (two: their order counts)
  });

  it("the geometry reader's check shared with its worker reports one thread's problems, in order", async () => {
    const alone = await checkGeometryFile(path);
    let joined = false;
    const shared = await checkGeometryFile(path, { parallelMinBytes: 1, joined: () => (joined = true) });
    expect(joined).toBe(true); // the second half is the worker's
    expect(shared).toEqual(alone);
    expect(alone.issues.filter((issue) => issue.feature >= UNITS / 2).length).toBeGreaterThan(10);
  });
});
