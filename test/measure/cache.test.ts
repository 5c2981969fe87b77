import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { GeoJSONError } from '../../build/geojson/errors.ts';
import { MeasurementCache } from '../../build/measure/cache.ts';
import { stampOf } from '../../build/core/files.ts';
import { codeIdentity } from '../../build/core/cache.ts';

const FIXTURES = new URL('../fixtures/measure/', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'geoshelf-measure-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cacheFile = join(dir, '.cache/geoshelf/measurements.json');
const a = join(dir, 'a.geojson');
const b = join(dir, 'b.geojson');
const square = (x: number) =>
  `{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"n":1},"geometry":{"type":"Polygon","coordinates":[[[${x},0],[1,0],[1,1],[${x},0]]]}}]}`;

beforeEach(() => {
  rmSync(cacheFile, { force: true });
  writeFileSync(a, square(0));
  writeFileSync(b, square(-5));
  const past = new Date('2026-01-01T00:00:00Z');
  utimesSync(a, past, past);
  utimesSync(b, past, past);
});

describe('MeasurementCache: measure once per run, and not again across runs while files are unchanged', () => {
  it('a second run over unchanged files reads no GeoJSON bytes', async () => {
    const first = new MeasurementCache({ cacheFile });
    const stats = [await first.measure(a), await first.measure(b)];
    await first.save();
    expect(first.stats).toEqual({
      filesMeasured: 2,
      bytesRead: stats[0].bytes + stats[1].bytes,
      cacheHits: 0,
    });
    expect(JSON.parse(readFileSync(cacheFile, 'utf8'))).toMatchObject({ stamp: codeIdentity() });

    const second = new MeasurementCache({ cacheFile });
    expect([await second.measure(a), await second.measure(b)]).toEqual(stats);
    expect(second.stats).toEqual({ filesMeasured: 0, bytesRead: 0, cacheHits: 2 });
  });

  it("a file's wrong bbox members are cached with its stats; an entry without them is measured again", async () => {
    writeFileSync(a, square(0).replace('"features"', '"bbox":[0,0,2,2],"features"'));
    utimesSync(a, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'));
    const first = new MeasurementCache({ cacheFile });
    const measured = await first.measureChecked(a, false);
    expect(measured.bboxes).toEqual([{ pointer: '/bbox', stated: [0, 0, 2, 2], actual: [0, 0, 1, 1] }]);
    await first.save();
    const second = new MeasurementCache({ cacheFile });
    expect((await second.measureChecked(a, false)).bboxes).toEqual(measured.bboxes);
    expect(second.stats.cacheHits).toBe(1);

    const cache = JSON.parse(readFileSync(cacheFile, 'utf8')) as {
      data: Record<string, { bboxes?: unknown }>;
    };
    for (const entry of Object.values(cache.data)) delete entry.bboxes;
    writeFileSync(cacheFile, JSON.stringify(cache));
    const third = new MeasurementCache({ cacheFile });
    expect((await third.measureChecked(a, false)).bboxes).toEqual(measured.bboxes);
    expect(third.stats).toMatchObject({ filesMeasured: 1, cacheHits: 0 });
  });

  it('a touched file (new mtime, same bytes) and a changed file are measured again', async () => {
    const first = new MeasurementCache({ cacheFile });
    await first.measure(a);
    await first.measure(b);
    await first.save();
    utimesSync(a, new Date(), new Date()); // touched
    writeFileSync(b, square(-7)); // changed: same size, new mtime
    const second = new MeasurementCache({ cacheFile });
    await second.measure(a);
    expect((await second.measure(b)).bbox).toEqual([-7, 0, 1, 1]);
    expect(second.stats).toMatchObject({ filesMeasured: 2, cacheHits: 0 });
  });

  it('an edit of the same length whose mtime is put back (touch -r) is measured again: the change time moved', async () => {
    utimesSync(a, 1_700_000_000, 1_700_000_000); // a whole second, which utimes puts back exactly
    const first = new MeasurementCache({ cacheFile });
    await first.measure(a);
    await first.save();
    const before = statSync(a);
    writeFileSync(a, readFileSync(a, 'utf8').replace('"n"', '"m"')); // same length
    utimesSync(a, 1_700_000_000, 1_700_000_000); // mtime as it was, as touch -r, cp -p and rsync -t leave it
    expect(statSync(a)).toMatchObject({ size: before.size, mtimeMs: before.mtimeMs });
    const second = new MeasurementCache({ cacheFile });
    expect((await second.measure(a)).properties).toEqual(['m']);
    expect(second.stats).toMatchObject({ filesMeasured: 1, cacheHits: 0 });
  });

  it('known() answers from the cache only at the stamp it was measured at, and never measures', async () => {
    const first = new MeasurementCache({ cacheFile });
    const stats = await first.measure(a);
    await first.save();
    const info = statSync(a);
    const second = new MeasurementCache({ cacheFile });
    expect(await second.known(b, statSync(b))).toBeUndefined(); // never measured
    expect(await second.known(a, { ...stampOf(info), mtimeMs: info.mtimeMs + 1 })).toBeUndefined(); // touched since
    expect(await second.known(a, { ...stampOf(info), ctimeMs: info.ctimeMs + 1 })).toBeUndefined(); // changed since
    expect(await second.known(a, { ...stampOf(info), ino: info.ino + 1 })).toBeUndefined(); // another file now
    expect((await second.known(a, info))?.stats).toEqual(stats);
    expect(second.stats).toEqual({ filesMeasured: 0, bytesRead: 0, cacheHits: 1 });
    // What it answered is this run's measurement from then on, at any stamp; measure() agrees.
    expect((await second.known(a, { ino: 0, size: 0, mtimeMs: 0, ctimeMs: 0 }))?.stats).toEqual(stats);
    expect(await second.measure(a)).toEqual(stats);
    expect(second.stats).toEqual({ filesMeasured: 0, bytesRead: 0, cacheHits: 1 });
  });

  it('within a run, a file is measured once however often and however concurrently it is asked for', async () => {
    const measurer = new MeasurementCache();
    const all = await Promise.all([a, a, `${dir}/./a.geojson`, a].map((p) => measurer.measure(p)));
    await measurer.measure(a);
    expect(measurer.stats).toEqual({ filesMeasured: 1, bytesRead: all[0].bytes, cacheHits: 0 });
    all[0].properties.push('mutated'); // each caller gets its own copy
    expect((await measurer.measure(a)).properties).toEqual(['n']);
  });

  it('without a cache file nothing is written; save() is a no-op', async () => {
    const measurer = new MeasurementCache();
    await measurer.measure(a);
    await measurer.save();
    expect(() => readFileSync(cacheFile)).toThrow();
  });

  it('a cache file that cannot be written is skipped, not an error', async () => {
    const measurer = new MeasurementCache({ cacheFile: join(a, 'cache/measurements.json') }); // a.geojson is a file, not a folder
    await measurer.measure(a);
    await expect(measurer.save()).resolves.toBeUndefined();
  });

  it('a corrupt cache file is ignored and replaced', async () => {
    const first = new MeasurementCache({ cacheFile });
    await first.measure(a);
    await first.save();
    writeFileSync(cacheFile, readFileSync(cacheFile, 'utf8').slice(0, 40)); // cut off
    const second = new MeasurementCache({ cacheFile });
    await second.measure(a);
    await second.save();
    expect(second.stats.filesMeasured).toBe(1);
    expect(JSON.parse(readFileSync(cacheFile, 'utf8')).data).toHaveProperty([a]);
  });

  it('a malformed file rejects every caller with the same GeoJSONError and is not cached', async () => {
    const bad = `${FIXTURES}false/null-geometry.geojson`;
    const measurer = new MeasurementCache({ cacheFile });
    await expect(measurer.measure(bad)).rejects.toBeInstanceOf(GeoJSONError);
    await expect(measurer.measure(bad)).rejects.toThrow('features[1].geometry is null');
    await measurer.save();
    expect(measurer.stats.filesMeasured).toBe(0);
  });
});
