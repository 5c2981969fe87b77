// Previews (issue 5): every feature and ring kept under any budget that can be
// met, never over budget, shared borders still shared, precision matching the
// tolerance, and the manifest fields written with the file.
import { formatProblem } from '../../build/core/problem.ts';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../build/core/shared/manifest.ts';
import { MeasurementCache } from '../../build/measure/cache.ts';
import { MAX_PREVIEW_BYTES } from '../../build/core/shared/manifest.ts';
import { fitBudget, makePreview } from '../../build/preview/preview.ts';
import { decimalsFor, prepare, render } from '../../build/preview/simplify.ts';
import { METRES_PER_DEGREE } from '../../build/core/shared/crs.ts';
import { validateManifests } from '../../build/manifest/validate.ts';
import { parsedFeatures, type GeoFeature } from '../../build/geojson/level-features.ts';
import {
  cli,
  featuresOf,
  FIXTURE,
  polygonsOf,
  readFeatures,
  tempCopy,
  type TestFeature,
} from '../support/xta.ts';

const ADM1 = 'data/earth/XTA/XTA_ADM1.geojson';
const ADM2 = 'data/earth/XTA/XTA_ADM2.geojson';
const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));
const copy = () => {
  const root = tempCopy();
  roots.push(root);
  return root;
};

/** Returns the size of the most simplified preview of `path`. */
async function smallestBytes(path: string): Promise<number> {
  const features = await parsedFeatures(join(FIXTURE, path));
  const prepared = prepare(path, features, 'visvalingam', () => true, METRES_PER_DEGREE.earth);
  return render(prepared, Infinity, decimalsFor(Infinity, METRES_PER_DEGREE.earth)).bytes;
}

/** Checks that `preview` has the features of `input` in order, each ring a closed ring of ≥ 4 positions. */
function expectSameFeatures(preview: TestFeature[], input: TestFeature[]) {
  expect(preview.map((f) => f.id)).toEqual(input.map((f) => f.id));
  preview.forEach((feature, i) => {
    const polygons = polygonsOf(feature);
    expect(polygons.map((p) => p.length)).toEqual(polygonsOf(input[i]!).map((p) => p.length));
    for (const ring of polygons.flat()) {
      expect(ring.length).toBeGreaterThanOrEqual(4);
      expect(new Set(ring.map((p) => p.join())).size).toBeGreaterThanOrEqual(3);
      expect(ring[0]).toEqual(ring[ring.length - 1]);
    }
  });
}

describe('preview (stage)', () => {
  it('a budget forcing the heaviest simplification still keeps every feature, polygon and ring', async () => {
    const input = readFeatures(join(FIXTURE, ADM2));
    const budget = (await smallestBytes(ADM2)) + 50;
    const result = await makePreview(
      FIXTURE,
      [ADM2],
      { maxBytes: budget, method: 'visvalingam' },
      METRES_PER_DEGREE.earth,
    );
    expect(result.bytes).toBeLessThanOrEqual(budget);
    expect(result.vertices).toBeLessThan(result.inputVertices / 10);
    expectSameFeatures(featuresOf(result.text), input);
  });

  it('the tiny island (0.4 km across) survives as a triangle at a 1000+ m tolerance', async () => {
    const result = await makePreview(
      FIXTURE,
      [ADM1],
      { maxBytes: (await smallestBytes(ADM1)) + 20, method: 'visvalingam' },
      METRES_PER_DEGREE.earth,
    );
    expect(result.simplification.tolerance_m).toBeGreaterThan(1000);
    const island = polygonsOf(featuresOf(result.text)[2]!)[1]![0]!;
    expect(new Set(island.map((p) => p.join())).size).toBe(3); // rounded with more decimals than the tolerance asks
  });

  it('the preview never exceeds the budget, at any budget from the smallest possible to the whole file', async () => {
    const smallest = await smallestBytes(ADM2);
    const whole = (
      await makePreview(
        FIXTURE,
        [ADM2],
        { maxBytes: MAX_PREVIEW_BYTES, method: 'visvalingam' },
        METRES_PER_DEGREE.earth,
      )
    ).bytes;
    const input = readFeatures(join(FIXTURE, ADM2));
    for (const method of ['visvalingam', 'douglas-peucker'] as const) {
      for (let budget = smallest; budget <= whole + 1000; budget += Math.ceil((whole - smallest) / 9)) {
        const result = await makePreview(
          FIXTURE,
          [ADM2],
          { maxBytes: budget, method },
          METRES_PER_DEGREE.earth,
        );
        expect(result.bytes, `${method} at ${budget}`).toBeLessThanOrEqual(budget);
        expect(result.bytes).toBe(Buffer.byteLength(result.text));
        expectSameFeatures(featuresOf(result.text), input);
      }
    }
  });

  it('the result is the least simplified candidate that fits: one threshold less does not fit', async () => {
    const features = await parsedFeatures(join(FIXTURE, ADM2));
    const prepared = prepare(ADM2, features, 'douglas-peucker', () => true, METRES_PER_DEGREE.earth);
    const budget = 12_000;
    const result = fitBudget(ADM2, prepared, { maxBytes: budget, method: 'douglas-peucker' });
    const k = prepared.thresholds.findIndex((t) => Math.round(t) === result.simplification.tolerance_m);
    expect(k).toBeGreaterThan(0);
    // The candidate just below the used threshold (keeping one more weight class of vertices) is over budget.
    let used = k;
    while (
      render(
        prepared,
        prepared.thresholds[used]!,
        decimalsFor(prepared.thresholds[used]!, METRES_PER_DEGREE.earth),
      ).bytes > budget
    )
      used++;
    const below = prepared.thresholds[used - 1]!;
    expect(render(prepared, below, decimalsFor(below, METRES_PER_DEGREE.earth)).bytes).toBeGreaterThan(
      budget,
    );
  });

  it('a budget below the smallest possible preview → one-line error naming the file', async () => {
    await expect(
      makePreview(FIXTURE, [ADM2], { maxBytes: 1000, method: 'visvalingam' }, METRES_PER_DEGREE.earth),
    ).rejects.toThrow(
      /^data\/earth\/XTA\/XTA_ADM2\.geojson: cannot fit 1000 bytes: even keeping 3 vertices per ring the preview is \d+ bytes/,
    );
  });

  it('shared borders are simplified once: neighbours keep the same vertices along their common border', async () => {
    const result = await makePreview(
      FIXTURE,
      [ADM1],
      { maxBytes: 6000, method: 'visvalingam' },
      METRES_PER_DEGREE.earth,
    );
    expect(result.simplification.method).toBe('visvalingam');
    const [a, b] = featuresOf(result.text).map((f) => polygonsOf(f)[0]![0]!);
    // The A–B border runs near longitude -70 (wiggle ±0.01°); vertices there are shared.
    const onBorder = (ring: number[][]) =>
      new Set(
        ring
          .filter((p) => Math.abs(p[0]! + 70) < 0.02 && p[1]! > -32.99 && p[1]! < -32.01)
          .map((p) => p.join()),
      );
    const fromA = onBorder(a!);
    expect(fromA.size).toBeGreaterThan(1);
    expect(onBorder(b!)).toEqual(fromA);
  });

  it('Visvalingam never runs a border across another unit: a notch holding an islet keeps it, at every threshold', () => {
    const M = 1 / METRES_PER_DEGREE.earth;
    const notch = [0.05, Math.round((0.1 - 300 * M) * 1e9) / 1e9]; // 300 m deep, 600 m wide: 90,000 m²
    const square = [
      [0, 0],
      [0.1, 0],
      [0.1, 0.1],
      [0.05 + 300 * M, 0.1],
      notch,
      [0.05 - 300 * M, 0.1],
      [0, 0.1],
      [0, 0],
    ];
    const [cx, cy, d] = [0.05, 0.1 - 100 * M, 10 * M];
    const islet = [
      [cx - d, cy - d],
      [cx + d, cy - d],
      [cx + d, cy + d],
      [cx - d, cy + d],
      [cx - d, cy - d],
    ];
    const features = [square, islet].map((ring, i): GeoFeature => ({
      type: 'Feature',
      id: i,
      properties: {},
      geometry: { type: 'Polygon', coordinates: [ring] },
    }));
    const prepared = prepare('notch', features, 'visvalingam', () => true, METRES_PER_DEGREE.earth);
    expect(prepared.thresholds.length).toBeGreaterThan(0);
    for (const threshold of prepared.thresholds) {
      const ring = polygonsOf(featuresOf(render(prepared, threshold, 9).text)[0]!)[0]![0]!;
      expect(ring.map(String), `at ${threshold} m`).toContain(String(notch));
    }
  });

  it('coordinates are rounded to the decimals whose step is at most the tolerance', async () => {
    for (const maxBytes of [5000, 9000, 15_000]) {
      const result = await makePreview(
        FIXTURE,
        [ADM2],
        { maxBytes, method: 'douglas-peucker' },
        METRES_PER_DEGREE.earth,
      );
      const { tolerance_m } = result.simplification;
      expect(10 ** -result.decimals * METRES_PER_DEGREE.earth).toBeLessThanOrEqual(
        Math.max(tolerance_m, 0.5) + 0.5,
      );
      expect(10 ** -(result.decimals - 1) * METRES_PER_DEGREE.earth).toBeGreaterThan(tolerance_m - 0.5);
      const numbers = result.text.match(/-?\d+\.\d+/g) ?? [];
      const decimals = Math.max(...numbers.map((n) => n.split('.')[1]!.length));
      expect(decimals).toBeLessThanOrEqual(Math.max(result.decimals, 3)); // 3: the fixture's tiny island's rescue
    }
  });

  it('a level that fits unsimplified gets method "none", tolerance 0, and only identifying properties', async () => {
    const result = await makePreview(
      FIXTURE,
      [ADM2],
      { maxBytes: MAX_PREVIEW_BYTES, method: 'visvalingam' },
      METRES_PER_DEGREE.earth,
    );
    expect(result.simplification).toEqual({ method: 'none', tolerance_m: 0 });
    expect(result.vertices).toBe(result.inputVertices);
    const props = featuresOf(result.text).map((f) => Object.keys(f.properties).join());
    expect(new Set(props)).toEqual(
      new Set(['shapeName,shapeISO,shapeType,parentISO', 'shapeName,shapeISO,shapeType']),
    );
  });
});

describe('geoshelf preview (CLI)', () => {
  it('writes the previews and records preview, preview_bytes and simplification; validate passes', async () => {
    const root = copy();
    const run = await cli('preview', '--root', root, '--max-bytes', '12000', 'XTA');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const manifest = JSON.parse(readFileSync(join(root, 'data/earth/XTA/manifest.json'), 'utf8')) as Manifest;
    for (const dataset of manifest.datasets) {
      expect(dataset.preview).toBe(`data/earth/XTA/preview/XTA_${dataset.level}.preview.geojson`);
      expect(dataset.preview_bytes).toBe(statSync(join(root, dataset.preview!)).size);
      expect(dataset.preview_bytes).toBeLessThanOrEqual(12_000);
      expect(dataset.simplification?.method).toBe('visvalingam');
      expect(Object.keys(dataset).slice(7, 11)).toEqual([
        'properties',
        'preview',
        'preview_bytes',
        'simplification',
      ]);
    }
    const { problems } = await validateManifests(root, { measurer: new MeasurementCache() });
    // XTA's offshore units and its shoal lie outside ADM1 on purpose (nesting warnings), and the
    // shoal lies over Charlie 5 (a coverage warning): nothing else.
    const others = problems.filter((p) => p.rule !== 'nesting' && p.rule !== 'coverage');
    expect(others.map(formatProblem)).toEqual([]);
  });

  it('a second run skips unchanged inputs; --force or new options remake them, byte for byte the same', async () => {
    const root = copy();
    await cli('preview', '--root', root, '--max-bytes', '12000');
    const file = join(root, 'data/earth/XTA/preview/XTA_ADM2.preview.geojson');
    const first = readFileSync(file, 'utf8');
    const again = await cli('preview', '--root', root, '--max-bytes', '12000');
    expect(again.stdout).toContain('data/earth/XTA/preview/XTA_ADM2.preview.geojson: unchanged, skipped');
    const forced = await cli('preview', '--root', root, '--max-bytes', '12000', '--force', 'XTA/ADM2');
    expect(forced.stdout).toMatch(/XTA_ADM2\.preview\.geojson: \d+ bytes, visvalingam \d+ m/);
    expect(readFileSync(file, 'utf8')).toBe(first);
    const other = await cli('preview', '--root', root, '--max-bytes', '9000', 'XTA/ADM2');
    expect(other.stdout).not.toContain('skipped');
  });

  it('ISO3/LEVEL in any letter case names the same dataset', async () => {
    const root = copy();
    const run = await cli('preview', '--root', root, '--max-bytes', '12000', 'xta/adm2');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/^\S+\/data\/earth\/XTA\/preview\/XTA_ADM2\.preview\.geojson: \d+ bytes/);
  });

  it('a level published only as parts is previewed from all its parts', async () => {
    const root = copy();
    expect((await cli('split', '--level', 'ADM2', '--root', root, 'XTA')).code).toBe(0);
    const file = join(root, 'data/earth/XTA/manifest.json');
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
    const { path: _path, bytes: _bytes, sha256: _sha256, ...partsOnly } = manifest.datasets[1]!;
    manifest.datasets[1] = { ...partsOnly, properties: ['adm1ISO', ...partsOnly.properties] };
    writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
    rmSync(join(root, 'data/earth/XTA/XTA_ADM2.geojson'));
    const run = await cli('preview', '--root', root, 'XTA/ADM2');
    expect(run.stderr).toBe('');
    const preview = readFeatures(join(root, 'data/earth/XTA/preview/XTA_ADM2.preview.geojson'));
    expect(preview.map((f) => f.properties.adm1ISO)).toEqual([
      ...Array(4).fill('XT-A'),
      ...Array(4).fill('XT-B'),
      ...Array(3).fill('XT-C'),
      'unassigned',
      'unassigned',
    ]);
    const { problems } = await validateManifests(root, { measurer: new MeasurementCache() });
    // XTA's offshore units and its shoal lie outside ADM1 on purpose (nesting warnings), and the
    // shoal lies over Charlie 5 (a coverage warning): nothing else.
    const others = problems.filter((p) => p.rule !== 'nesting' && p.rule !== 'coverage');
    expect(others.map(formatProblem)).toEqual([]);
  });

  it('an impossible budget → exit 1, one line naming the file, manifest and previews untouched', async () => {
    const root = copy();
    const before = readFileSync(join(root, 'data/earth/XTA/manifest.json'), 'utf8');
    const run = await cli('preview', '--root', root, '--max-bytes', '1000', 'XTA/ADM2');
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('data/earth/XTA/XTA_ADM2.geojson: cannot fit 1000 bytes');
    expect(readFileSync(join(root, 'data/earth/XTA/manifest.json'), 'utf8')).toBe(before);
    const left = readdirSync(join(root, 'data/earth/XTA'), { recursive: true }) as string[];
    expect(left.filter((f) => f.includes('.tmp') || f.startsWith('preview'))).toEqual([]);
  });

  it('bad flags and names → exit 1 with a one-line error', async () => {
    expect((await cli('preview', '--root', FIXTURE, '--max-bytes', '3000000')).stderr).toContain(
      '--max-bytes: expected an integer from 1 to 2097152, got "3000000"',
    );
    expect((await cli('preview', '--root', FIXTURE, '--method', 'bezier')).stderr).toContain(
      '--method: expected visvalingam or douglas-peucker, got "bezier"',
    );
    const missing = await cli('preview', '--root', FIXTURE, 'XTA/ADM4');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('XTA/ADM4: no such dataset');
  });
});
