// GEOS (shapely ≥ 2.1, in .venv-oracle: .ci/run makes it) judges the
// simplified copies on real coverages: the 3,142 U.S. counties and their
// states simplified together, and the sample's USA and CHL as `build` makes
// them. At every tolerance: no invalid or empty unit, no edge that stops
// matching its neighbour's, no overlap, no new hole, the Hausdorff distance of
// each unit within the tolerance (bench/simplify_oracle.py check), positions
// within 10 % of GEOS's coverage_simplify, every state border made of county
// borders, and GDAL reading every copy back; and the previews' Visvalingam
// weights (cut at each tolerance, unrounded) sound by the same check. Without the venv (or GDAL) it
// skips locally and fails in CI.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { GeoFeature } from '../../build/geojson/level-features.ts';
import type { Manifest } from '../../build/core/shared/manifest.ts';
import { BODY_RADIUS_M, METRES_PER_DEGREE } from '../../build/core/shared/crs.ts';
import { prepare, render } from '../../build/preview/simplify.ts';
import { coverageArcs } from '../../build/simplify/arcs.ts';
import { TOLERANCES_M, writeSimplifiedCopies } from '../../build/simplify/copies.ts';
import { CoverageSimplifier } from '../../build/simplify/tpvw.ts';
import { ArcTexts, levelText, VertexTexts } from '../../build/simplify/write.ts';
import { HAS_GDAL } from '../formats/gdal.ts';
import { usCounties } from '../support/us-counties.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PYTHON = join(ROOT, '.venv-oracle/bin/python');
const ORACLE = join(ROOT, 'bench/simplify_oracle.py');
const HAS_ORACLE = existsSync(PYTHON) && HAS_GDAL;
if (!HAS_ORACLE) {
  if (process.env.CI)
    throw new Error(`${PYTHON} (shapely ≥ 2.1, pyproj) and GDAL are needed in CI: see .ci/run`);
  console.warn(`skipping the simplifier's GEOS oracle: no ${PYTHON} or no GDAL`);
}

const dir = mkdtempSync(join(tmpdir(), 'geoshelf-simplify-oracle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Ring = number[][];
interface Verdict {
  failures: string[];
  hausdorff_m: number;
  positions: number;
}

/** Returns GEOS's verdict on `simplified` (a GeoJSON file) against `original` at `toleranceM`. */
function judge(original: string, simplified: string, toleranceM: number): Verdict {
  const out = execFileSync(PYTHON, [ORACLE, 'check', original, simplified, String(toleranceM)], {
    encoding: 'utf8',
    timeout: 300_000,
  });
  return JSON.parse(out) as Verdict;
}

/** Returns how many positions GEOS's coverage_simplify keeps of `original` at `toleranceM`. */
function geosPositions(original: string, toleranceM: number): number {
  const out = execFileSync(PYTHON, [ORACLE, 'time', original, String(toleranceM), '1'], {
    encoding: 'utf8',
    timeout: 300_000,
  });
  return (JSON.parse(out) as { positions: number }).positions;
}

/** Returns the feature count GDAL's ogrinfo reads in a GeoJSON file. */
function ogrCount(path: string): number {
  const out = execFileSync('ogrinfo', ['-ro', '-so', '-al', path], { encoding: 'utf8', timeout: 60_000 });
  return Number(/Feature Count: (\d+)/.exec(out)?.[1]);
}

/** Returns the undirected segments of every ring of a FeatureCollection's text, as "x,y x,y". */
function segments(text: string): Set<string> {
  const out = new Set<string>();
  for (const f of (JSON.parse(text) as { features: GeoFeature[] }).features)
    for (const polygon of f.geometry!.coordinates as Ring[][])
      for (const ring of polygon)
        for (let i = 0; i + 1 < ring.length; i++)
          out.add([String(ring[i]), String(ring[i + 1])].sort().join(' '));
  return out;
}

describe.skipIf(!HAS_ORACLE)('the U.S. counties and states, simplified together', () => {
  const { states, counties } = usCounties();
  const originals = { states: join(dir, 'states.geojson'), counties: join(dir, 'counties.geojson') };
  writeFileSync(originals.states, JSON.stringify(states));
  writeFileSync(originals.counties, JSON.stringify(counties));
  const arcs = coverageArcs([states.features, counties.features]);
  const simplifier = new CoverageSimplifier(arcs, BODY_RADIUS_M.earth);
  const vertexTexts = new VertexTexts(arcs);

  it.each(TOLERANCES_M)(
    'at %i m: GEOS finds no invalid unit, gap, overlap or line beyond the tolerance; every state border is county borders',
    (toleranceM) => {
      simplifier.simplify(toleranceM); // in order, each from the last, as build does
      const texts = new ArcTexts(arcs, simplifier, vertexTexts);
      const stateText = levelText(arcs, texts, 0);
      const countyText = levelText(arcs, texts, 1);
      const copies = {
        states: join(dir, `states.${toleranceM}.geojson`),
        counties: join(dir, `c.${toleranceM}.geojson`),
      };
      writeFileSync(copies.states, stateText);
      writeFileSync(copies.counties, countyText);
      for (const level of ['states', 'counties'] as const) {
        const verdict = judge(originals[level], copies[level], toleranceM);
        expect(verdict.failures, level).toEqual([]);
        expect(verdict.hausdorff_m).toBeLessThanOrEqual(toleranceM * 1.005);
      }
      const fine = segments(countyText);
      const outside = [...segments(stateText)].filter((s) => !fine.has(s));
      expect(outside).toEqual([]);
      expect(ogrCount(copies.counties)).toBe(counties.features.length);
    },
    600_000,
  );

  it('keeps as many positions as GEOS coverage_simplify, within 10 %, at every tolerance', () => {
    const alone = coverageArcs([counties.features]);
    const s = new CoverageSimplifier(alone, BODY_RADIUS_M.earth);
    const vt = new VertexTexts(alone);
    for (const toleranceM of TOLERANCES_M) {
      s.simplify(toleranceM);
      const text = levelText(alone, new ArcTexts(alone, s, vt), 0);
      let ours = 0;
      for (const f of (JSON.parse(text) as { features: GeoFeature[] }).features)
        for (const polygon of f.geometry!.coordinates as Ring[][])
          for (const ring of polygon) ours += ring.length;
      const theirs = geosPositions(originals.counties, toleranceM);
      expect(
        Math.abs(ours / theirs - 1),
        `${toleranceM} m: ours ${ours}, GEOS ${theirs}`,
      ).toBeLessThanOrEqual(0.1);
    }
  }, 600_000);
});

describe.skipIf(!HAS_ORACLE)("the sample's countries, as build simplifies them", () => {
  it.each(['USA', 'CHL'])(
    '%s: GEOS finds every level sound at every tolerance; GDAL reads every copy',
    async (iso) => {
      const manifest = JSON.parse(
        readFileSync(join(ROOT, `data/earth/${iso}/manifest.json`), 'utf8'),
      ) as Manifest;
      const levels = manifest.datasets.map((d) => ({
        level: d.level,
        stem: `${iso}_${d.level}`,
        sources: d.path ? [d.path] : (d.parts ?? []).map((p) => p.path),
      }));
      const out = join(dir, iso);
      const files = await writeSimplifiedCopies(ROOT, levels, out, BODY_RADIUS_M.earth);
      expect(files).toHaveLength(levels.length * TOLERANCES_M.length);
      for (const f of files) {
        const level = levels.find((l) => l.level === f.level)!;
        const original = join(ROOT, level.sources[0]);
        if (level.sources.length === 1) {
          const verdict = judge(original, join(out, f.file), f.tolerance_m);
          expect(verdict.failures, f.file).toEqual([]);
        }
        const features = level.sources.reduce(
          (n, s) =>
            n + (JSON.parse(readFileSync(join(ROOT, s), 'utf8')) as { features: unknown[] }).features.length,
          0,
        );
        expect(ogrCount(join(out, f.file)), f.file).toBe(features);
      }
    },
    900_000,
  );
});

describe.skipIf(!HAS_ORACLE)("the U.S. counties' preview weights (geoshelf preview, Visvalingam)", () => {
  const { counties } = usCounties();
  const original = join(dir, 'preview-counties.geojson');
  writeFileSync(original, JSON.stringify(counties));
  const prepared = prepare('counties', counties.features, 'visvalingam', () => true, METRES_PER_DEGREE.earth);
  let whole = 0; // the counties' positions
  for (const f of counties.features)
    for (const polygon of (f.geometry?.type === 'Polygon'
      ? [f.geometry.coordinates]
      : f.geometry!.coordinates) as Ring[][])
      for (const ring of polygon) whole += ring.length;

  it.each(TOLERANCES_M)(
    'kept above the last weight within %i m, GEOS finds no invalid unit, gap, overlap or line beyond it',
    (toleranceM) => {
      // The heaviest weight at most the tolerance: every vertex lighter goes. 9 decimals: no rounding.
      const below = prepared.thresholds.filter((t) => t <= toleranceM);
      const threshold = below[below.length - 1]!;
      const copy = join(dir, `preview-counties.${toleranceM}.geojson`);
      writeFileSync(copy, render(prepared, threshold, 9).text);
      const verdict = judge(original, copy, toleranceM);
      expect(verdict.failures).toEqual([]);
      expect(verdict.hausdorff_m).toBeLessThanOrEqual(toleranceM * 1.005);
      expect(verdict.positions).toBeLessThan(whole); // it did simplify
    },
    600_000,
  );
});
