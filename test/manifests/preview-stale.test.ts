// preview-stale (issue 26): validate compares each preview with its dataset
// (the same units by code and name, an extent its simplification could have
// made), warns once per dataset when it no longer matches (an error with
// --strict), and a release refuses it. A preview `geoshelf preview` makes is
// never stale, however simplified.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatProblem } from '../../build/core/problem.ts';
import { METRES_PER_DEGREE } from '../../build/core/shared/crs.ts';
import { PreviewChecker } from '../../build/manifest/preview-cache.ts';
import { comparePreview } from '../../build/manifest/preview-compare.ts';
import { validateManifests } from '../../build/manifest/validate.ts';
import { MeasurementCache } from '../../build/measure/cache.ts';
import { makePreview } from '../../build/preview/preview.ts';
import type { Manifest, Simplification } from '../../build/core/shared/manifest.ts';
import { copyRoot } from '../support/cli.ts';
import { cli, tempCopy, type TestFeature } from '../support/xta.ts';

const ADM1 = 'data/earth/XTA/XTA_ADM1.geojson';
const ADM2 = 'data/earth/XTA/XTA_ADM2.geojson';
const MANIFEST = 'data/earth/XTA/manifest.json';
const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

/** The tree with previews made by `geoshelf preview ARGS…`, made once for each ARGS (most tests start from the same one). */
const made = new Map<string, Promise<string>>();

/** Returns a fresh copy of the XTA tree (two levels, wiggly shared borders, a tiny island) with previews made by `geoshelf preview ARGS…`. */
async function previewed(...args: string[]): Promise<string> {
  const key = JSON.stringify(args);
  let template = made.get(key);
  if (!template) {
    const root = tempCopy();
    roots.push(root);
    template = run('preview', '--root', root, ...args, 'XTA').then(() => root);
    made.set(key, template);
  }
  const root = copyRoot(await template, tmpdir());
  roots.push(root);
  return root;
}

async function run(...args: string[]): Promise<string> {
  const r = await cli(...args);
  if (r.code !== 0) throw new Error(`geoshelf ${args.join(' ')}: exit ${r.code}: ${r.stderr}`);
  return r.stderr;
}

/** Returns the preview-stale lines validate prints for `root`, and how many previews were compared. */
async function staleLines(root: string): Promise<{ lines: string[]; compared: number }> {
  const previews = new PreviewChecker();
  const { problems } = await validateManifests(root, {
    measurer: new MeasurementCache(),
    geometry: false,
    nesting: false,
    previews,
  });
  const lines = problems.filter((p) => p.rule === 'preview-stale').map(formatProblem);
  return { lines, compared: previews.stats.compared };
}

/** Rewrites the features of a GeoJSON file of `root`, then runs `geoshelf manifest XTA` (docs/manifests.md's round, no preview). */
async function editData(root: string, file: string, edit: (features: TestFeature[]) => TestFeature[]) {
  const path = join(root, file);
  const collection = JSON.parse(readFileSync(path, 'utf8')) as { bbox?: unknown; features: TestFeature[] };
  delete collection.bbox; // its own bbox member would no longer hold the extent
  collection.features = edit(collection.features);
  writeFileSync(path, JSON.stringify(collection));
  await run('manifest', '--root', root, 'XTA');
}

/** Returns `feature` scaled by `k` about its bbox's centre. */
function scaled(feature: TestFeature, k: number): TestFeature {
  const xs: number[] = [];
  const ys: number[] = [];
  const walk = (c: unknown): void => {
    if (typeof (c as number[])[0] === 'number') [xs, ys].forEach((a, i) => a.push((c as number[])[i]!));
    else (c as unknown[]).forEach(walk);
  };
  walk(feature.geometry.coordinates);
  const cx = (Math.min(...xs) + Math.max(...xs)) / 2;
  const cy = (Math.min(...ys) + Math.max(...ys)) / 2;
  const map = (c: unknown): unknown =>
    typeof (c as number[])[0] === 'number'
      ? [cx + ((c as number[])[0]! - cx) * k, cy + ((c as number[])[1]! - cy) * k]
      : (c as unknown[]).map(map);
  return {
    ...feature,
    geometry: { ...feature.geometry, coordinates: map(feature.geometry.coordinates) },
  } as TestFeature;
}

const simplificationOf = (root: string, level: number) =>
  (JSON.parse(readFileSync(join(root, MANIFEST), 'utf8')) as Manifest).datasets[level]!.simplification!;

describe('preview-stale: previews made by geoshelf preview', () => {
  it('a fresh preview, unsimplified or simplified by either method at any budget, matches its data: compared, no preview-stale', async () => {
    for (const method of ['visvalingam', 'douglas-peucker']) {
      for (const budget of ['2097152', '10000', '5000', '3500']) {
        const root = await previewed('--method', method, '--max-bytes', budget);
        if (budget !== '2097152') expect(simplificationOf(root, 1).tolerance_m).toBeGreaterThan(0);
        expect(await staleLines(root)).toEqual({ lines: [], compared: 2 });
      }
    }
  });

  /** Writes a 1° square with a spike 0.5° long and 0.0001° wide (its tip's triangle about 557 m on a side); returns its path. */
  function spikeData(): { root: string; data: string } {
    const root = tempCopy();
    roots.push(root);
    const ring = [
      [0, 0],
      [1, 0],
      [1, 1],
      [0.50005, 1],
      [0.5, 1.5],
      [0.49995, 1],
      [0, 1],
      [0, 0],
    ];
    const data = join(root, 'data/spike.geojson');
    writeFileSync(data, collection(ring));
    return { root, data };
  }
  const collection = (ring: number[][]) =>
    JSON.stringify({
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          properties: { shapeName: 'Spike', shapeISO: 'XT-S' },
          geometry: { type: 'Polygon', coordinates: [ring] },
        },
      ],
    });
  const compare = (data: string, preview: string, simplification: Simplification) =>
    comparePreview({
      files: [{ path: 'data/spike.geojson', real: data }],
      preview: { path: 'data/spike.preview.geojson', real: preview },
      properties: { data: ['shapeISO', 'shapeName'], preview: ['shapeISO', 'shapeName'] },
      simplification,
      perDegree: METRES_PER_DEGREE.earth,
    });

  it('Visvalingam (the coverage simplifier) keeps a thin spike at tolerances shorter than the spike, and the fresh preview passes', async () => {
    const { root, data } = spikeData();
    const options = { maxBytes: 1 << 20, method: 'visvalingam' } as const;
    const whole = (await makePreview(root, ['data/spike.geojson'], options, METRES_PER_DEGREE.earth)).bytes;
    const made = await makePreview(
      root,
      ['data/spike.geojson'],
      { ...options, maxBytes: whole - 1 },
      METRES_PER_DEGREE.earth,
    );
    // Its tip's triangle is 557 m on a side, but the tip is 55.7 km from the chord that would replace it:
    // the preview's north edge is within its tolerance (and half a rounding step) of the data's.
    const north = Math.max(
      ...(JSON.parse(made.text) as { features: TestFeature[] }).features[0]!.geometry.coordinates[0]!.map(
        (p) => (p as number[])[1]!,
      ),
    );
    const halfStep = (10 ** -made.decimals * 111_320) / 2;
    expect(made.simplification.tolerance_m).toBeLessThan(55_000);
    expect((1.5 - north) * 111_320).toBeLessThanOrEqual(made.simplification.tolerance_m + halfStep);
    const preview = join(root, 'data/spike.preview.geojson');
    writeFileSync(preview, made.text);
    expect(await compare(data, preview, made.simplification)).toBeUndefined();
  });

  it('a Visvalingam preview that dropped a thin spike far longer than its tolerance (as plain Visvalingam does) passes: the bound is on area', async () => {
    const { root, data } = spikeData();
    // Plain Visvalingam at 560 m drops the tip (557 m), then the two corners left on a line.
    const preview = join(root, 'data/spike.preview.geojson');
    writeFileSync(
      preview,
      collection([
        [0, 0],
        [1, 0],
        [1, 1],
        [0, 1],
        [0, 0],
      ]),
    );
    expect(await compare(data, preview, { method: 'visvalingam', tolerance_m: 560 })).toBeUndefined();
    // The same preview said to be simplified less, or by Douglas-Peucker (which keeps far points), is stale.
    expect(await compare(data, preview, { method: 'visvalingam', tolerance_m: 140 })).toEqual({
      first: expect.stringMatching(/^"Spike" \(XT-S\) reaches 5\d\.\d km further north in the dataset$/),
      units: 1,
    });
    const dp = { method: 'douglas-peucker', tolerance_m: 560 } as const;
    expect((await compare(data, preview, dp))?.first).toMatch(
      /reaches 5\d\.\d km further north in the dataset$/,
    );
  });
});

describe('preview-stale: data changed after its preview (manifest run, preview not)', () => {
  it('a renamed unit: one warning at /datasets/N/preview, saying to run geoshelf preview', async () => {
    const root = await previewed();
    await editData(root, ADM1, (features) => {
      features[0]!.properties.shapeName = 'Aurora Austral';
      return features;
    });
    expect((await staleLines(root)).lines).toEqual([
      `${MANIFEST}: /datasets/0/preview: warning: preview is stale: "Aurora Austral" (XT-A) is named "Aurora" in it (run: geoshelf preview XTA)`,
    ]);
  });

  it('a re-coded unit: matched by its name, with its code in the preview', async () => {
    const root = await previewed();
    await editData(root, ADM1, (features) => {
      features[2]!.properties.shapeISO = 'XT-Z';
      return features;
    });
    expect((await staleLines(root)).lines).toEqual([
      `${MANIFEST}: /datasets/0/preview: warning: preview is stale: "Cóndor" (XT-Z) has code XT-C in it (run: geoshelf preview XTA)`,
    ]);
  });

  it('an added unit: missing from the preview', async () => {
    const root = await previewed();
    await editData(root, ADM2, (features) => [
      ...features,
      { ...scaled(features[0]!, 0.5), id: 'XTA:ADM2:alfa-02', properties: { shapeName: 'Alfa 02' } },
    ]);
    expect((await staleLines(root)).lines).toEqual([
      `${MANIFEST}: /datasets/1/preview: warning: preview is stale: "Alfa 02" is missing from it (run: geoshelf preview XTA)`,
    ]);
  });

  it('a removed unit: in the preview but not in the dataset', async () => {
    const root = await previewed();
    await editData(root, ADM2, (features) => features.filter((f) => f.properties.shapeName !== 'Bravo 21'));
    expect((await staleLines(root)).lines).toEqual([
      `${MANIFEST}: /datasets/1/preview: warning: preview is stale: "Bravo 21" is in it but not in the dataset (run: geoshelf preview XTA)`,
    ]);
  });

  it('an enlarged unit, beyond what its simplification allows: its extent differs; several differences are counted', async () => {
    const root = await previewed('--max-bytes', '10000');
    expect(simplificationOf(root, 0)).toMatchObject({ method: 'visvalingam' });
    expect(simplificationOf(root, 1).tolerance_m).toBeGreaterThan(500);
    await editData(root, ADM1, (features) => [scaled(features[0]!, 1.3), ...features.slice(1)]);
    await editData(root, ADM2, (features) => [scaled(features[0]!, 1.3), ...features.slice(1, -1)]);
    expect((await staleLines(root)).lines).toEqual([
      expect.stringMatching(
        /^\S+: \/datasets\/0\/preview: warning: preview is stale: "Aurora" \(XT-A\) reaches \d+\.\d km further \w+ in the dataset \(run: geoshelf preview XTA\)$/,
      ),
      expect.stringMatching(
        /^\S+: \/datasets\/1\/preview: warning: preview is stale: "Alfa 00" reaches \d+\.\d km further \w+ in the dataset, and 1 more unit differs \(run: geoshelf preview XTA\)$/,
      ),
    ]);
    // Made again, it matches.
    await run('preview', '--root', root, '--max-bytes', '10000', 'XTA');
    expect((await staleLines(root)).lines).toEqual([]);
  });

  it('--strict makes it an error (exit 1); without, a warning (exit 0)', async () => {
    const root = await previewed();
    await editData(root, ADM2, (features) => features.slice(1));
    const line = `${MANIFEST}: /datasets/1/preview: preview is stale: "Alfa 00" is in it but not in the dataset (run: geoshelf preview --root ${root} XTA)`;
    const loose = await cli('validate', '--root', root, '--no-nesting');
    expect(loose.code).toBe(0);
    expect(loose.stderr).toContain(`${root}/${line.replace(': preview is', ': warning: preview is')}\n`);
    const strict = await cli('validate', '--root', root, '--no-nesting', '--strict');
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain(`${root}/${line}\n`);
  });

  it('release refuses a stale preview (an error there) and records nothing', async () => {
    const root = await previewed();
    await editData(root, ADM1, (features) => {
      features[1]!.properties.shapeName = 'Bío Bío';
      return features;
    });
    const refused = await cli('release', '1.0.0', '--root', root);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `${root}/${MANIFEST}: /datasets/0/preview: preview is stale: "Bío Bío" (XT-B) is named "Bío Bío Norte" in it (run: geoshelf preview --root ${root} XTA)\n`,
    );
    expect(existsSync(join(root, 'data/releases'))).toBe(false);
    // Once the preview is made again the release goes ahead: test/release/ edits data that way (editLevel).
  });
});

describe('preview-stale: the verdict cache', () => {
  it('keeps each verdict by the sha256 of the preview and its data files and the code: an unchanged tree reads neither again', async () => {
    const root = await previewed();
    const cacheFile = join(root, '.cache/geoshelf/preview-checks.json');
    const validate = async (identity = 'code-1') => {
      const previews = new PreviewChecker({ cacheFile, identity });
      const { problems } = await validateManifests(root, { measurer: new MeasurementCache(), previews });
      await previews.save();
      return { ...previews.stats, stale: problems.filter((p) => p.rule === 'preview-stale').length };
    };
    expect(await validate()).toEqual({ compared: 2, cacheHits: 0, stale: 0 });
    expect(await validate()).toEqual({ compared: 0, cacheHits: 2, stale: 0 });
    // A changed data file: that dataset is compared again, and the stale verdict is kept too.
    await editData(root, ADM2, (features) => features.slice(1));
    expect(await validate()).toEqual({ compared: 1, cacheHits: 1, stale: 1 });
    expect(await validate()).toEqual({ compared: 0, cacheHits: 2, stale: 1 });
    // Another code (a new geoshelf) compares everything again.
    expect(await validate('code-2')).toEqual({ compared: 2, cacheHits: 0, stale: 1 });
    // A damaged cache file counts as empty.
    writeFileSync(cacheFile, '{"stamp":"code-2","data":{"x":{"stamp":1}}');
    expect(await validate('code-2')).toEqual({ compared: 2, cacheHits: 0, stale: 1 });
  });

  it('validate keeps it under <root>/.cache/geoshelf/, and --no-cache leaves it alone', async () => {
    const root = await previewed();
    const cacheFile = join(root, '.cache/geoshelf/preview-checks.json');
    rmSync(cacheFile, { force: true });
    await run('validate', '--root', root, '--no-cache');
    expect(existsSync(cacheFile)).toBe(false);
    await run('validate', '--root', root);
    const kept = JSON.parse(readFileSync(cacheFile, 'utf8')) as { data: Record<string, unknown> };
    expect(Object.keys(kept.data).sort()).toEqual([
      'data/earth/XTA/preview/XTA_ADM1.preview.geojson',
      'data/earth/XTA/preview/XTA_ADM2.preview.geojson',
    ]);
  });
});
