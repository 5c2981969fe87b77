import bbox from '@turf/bbox';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { measureGeoJSON } from '../../build/measure/measure.ts';
import { findSegments, shareWithWorker } from '../../build/measure/parallel.ts';
import { open } from 'node:fs/promises';
import { seededRandom } from '../support/random.ts';
import { randomFeatureCollection } from './generate.ts';

interface Parsed {
  features: { properties: Record<string, unknown> | null; geometry: { type: string } }[];
}

/** The stats the slow, obvious way: JSON.parse + @turf/bbox + node:crypto. */
function expectedStats(bytes: Buffer) {
  const text = bytes.toString('utf8').replace(/^\ufeff/, ''); // JSON.parse rejects a BOM; measure skips it
  const parsed = JSON.parse(text) as Parsed;
  const types: Record<string, number> = {};
  const names = new Set<string>();
  for (const feature of parsed.features) {
    types[feature.geometry.type] = (types[feature.geometry.type] ?? 0) + 1;
    for (const name of Object.keys(feature.properties ?? {})) names.add(name);
  }
  return {
    bytes: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    features: parsed.features.length,
    bbox: bbox(parsed as never, { recompute: true }),
    geometry_types: Object.fromEntries(Object.entries(types).sort(([a], [b]) => (a < b ? -1 : 1))),
    properties: [...names].sort(codepointOrder),
  };
}

function codepointOrder(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0)!);
  const y = [...b].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

const dir = mkdtempSync(join(tmpdir(), 'geoshelf-measure-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('measure equals JSON.parse + @turf/bbox + sha256 on generated FeatureCollections', () => {
  const random = seededRandom(20261122);
  const cases = Array.from({ length: 300 }, (_, seed) => ({
    seed,
    chunkSize: 4 + Math.floor(random() * 60),
  }));

  it.each(cases)(
    'seed $seed (whole, $chunkSize bytes at a time, and in two parts on two threads)',
    async ({ seed, chunkSize }) => {
      const path = join(dir, `${seed}.geojson`);
      const bytes = Buffer.from(randomFeatureCollection(seed), 'utf8');
      writeFileSync(path, bytes);
      const expected = expectedStats(bytes);
      const ways = [
        await measureGeoJSON(path),
        await measureGeoJSON(path, { chunkSize }),
        await measureGeoJSON(path, { chunkSize, parallelMinBytes: 0, segmentBytes: 200 }), // shared with a worker thread
      ];
      for (const stats of ways) {
        expect(stats).toEqual(expected);
        // toEqual treats -0 and 0 alike; the bbox must be the very same doubles, sign of zero included.
        stats.bbox.forEach((n, i) => expect(Object.is(n, expected.bbox[i]), `bbox[${i}] ${n}`).toBe(true));
        expect(Object.keys(stats.geometry_types)).toEqual(Object.keys(expected.geometry_types));
      }
    },
  );

  it('a file spanning many 1 MiB reads, hashed on a second thread, gives the same stats as JSON.parse', async () => {
    const features = Array.from({ length: 300 }, (_, seed) => {
      const text = randomFeatureCollection(100_000 + seed, 40).replace(/^\ufeff/, '');
      return (JSON.parse(text) as { features: unknown[] }).features.map((f) => JSON.stringify(f));
    }).flat();
    const all = Array.from({ length: 4 }, () => features.join(',\n')).join(',\n');
    const bytes = Buffer.from(`{"type":"FeatureCollection","features":[\n${all}\n]}`);
    expect(bytes.length).toBeGreaterThan(2 << 20); // several 1 MiB reads
    const path = join(dir, 'large.geojson');
    writeFileSync(path, bytes);
    const expected = expectedStats(bytes);
    expect(await measureGeoJSON(path, { hashWorkerMinBytes: 0 })).toEqual(expected); // hashed on the worker thread
    expect(await measureGeoJSON(path, { parallelMinBytes: 0, segmentBytes: 1 << 20 })).toEqual(expected);
  }, 120_000);

  it('a FeatureCollection on one line is cut where a feature opens, and the worker scans those segments', async () => {
    const feature = (x: number) =>
      `{"type": "Feature","properties":{"n":${x}},"geometry":{"type":"Polygon","coordinates":[[[${x},1],[2,-${x}],[${x},1]]]}}`;
    const text = `{"type":"FeatureCollection","features":[${Array.from({ length: 100 }, (_, i) => feature(i)).join(',')}]}`;
    const path = join(dir, 'one-line.geojson');
    writeFileSync(path, text);
    const file = await open(path);
    const segments = findSegments(file, text.length, 1000);
    await file.close();
    expect(segments.length).toBeGreaterThan(4);
    for (const { from } of segments.slice(1)) expect(text.slice(from - 1, from + 9)).toBe(',{"type": ');
    const shared = shareWithWorker(path, segments)!; // this thread claims none: the worker scans all but the first
    const parts = await Promise.all(segments.slice(1).map((_, k) => shared.result(k + 1)));
    expect(parts.every((part) => part?.ok)).toBe(true);
    expect(await measureGeoJSON(path, { parallelMinBytes: 0, segmentBytes: 1000 })).toEqual(
      expectedStats(Buffer.from(text)),
    );
  });

  it('an opening that is not between features (a Feature inside properties) is a cut the join refuses: the stats stay JSON.parse’s', async () => {
    const feature = (x: number) =>
      `{"type":"Feature","properties":{"n":${x},"kin":[{"type":"Feature","properties":{"m":${x}}}]},"geometry":{"type":"Polygon","coordinates":[[[${x},1],[2,-${x}],[${x},1]]]}}`;
    const text = `{"type":"FeatureCollection","features":[${Array.from({ length: 100 }, (_, i) => feature(i)).join(',')}]}`;
    const path = join(dir, 'nested.geojson');
    writeFileSync(path, text);
    const file = await open(path);
    const segments = findSegments(file, text.length, 1000);
    await file.close();
    expect(segments.some(({ from }) => text.slice(from - 1, from) === '[')).toBe(true); // a cut inside "kin"
    expect(await measureGeoJSON(path, { parallelMinBytes: 0, segmentBytes: 1000 })).toEqual(
      expectedStats(Buffer.from(text)),
    );
  });

  it('the worker thread scans segments from the last back (not only the sequential fallback)', async () => {
    const line = (x: number) =>
      `{"type":"Feature","properties":{"n":${x}},"geometry":{"type":"Polygon","coordinates":[[[${x},1],[2,-${x}],[${x},1]]]}}`;
    const text = `{"type":"FeatureCollection","features":[\n${Array.from({ length: 100 }, (_, i) => line(i)).join(',\n')}\n]}`;
    const path = join(dir, 'lines.geojson');
    writeFileSync(path, text);
    const file = await open(path);
    const segments = findSegments(file, text.length, 1000);
    await file.close();
    expect(segments.length).toBeGreaterThan(4);
    for (const { from } of segments.slice(1)) expect(text.slice(from - 2, from + 2)).toBe(',\n{"');
    const shared = shareWithWorker(path, segments)!; // this thread claims none: the worker scans all but the first
    const parts = await Promise.all(segments.slice(1).map((_, k) => shared.result(k + 1)));
    expect(parts.every((part) => part?.ok)).toBe(true);
    const first = Number(/"n":(\d+)/.exec(text.slice(segments[1].from))![1]);
    expect(parts.reduce((sum, part) => sum + part!.features!, 0)).toBe(100 - first);
    expect(parts.at(-1)!.bytesRead).toBe(text.length - segments.at(-1)!.from);
  });
});
