// `npm run bench:simplify`: the coverage simplifier (build/simplify/) on the
// 3,142 U.S. counties of us-atlas 3 (counties-10m, the 50 states and DC),
// against GEOS's coverage_simplify (shapely ≥ 2.1 in .venv-oracle) and
// mapshaper's -simplify (Visvalingam, keep-shapes) at the same tolerance, in
// paired rounds (GEOS, ours, mapshaper; two warm-up rounds not counted). Times
// are CPU seconds of the thread that does the work (the machine is shared):
// GEOS's
// call alone (it builds its edges and the result's geometries), ours from the
// parsed features to the simplified arcs (topology included; writing the
// GeoJSON is reported apart), mapshaper's simplify command alone (its arcs
// are built when it imports, which is not counted). Then GEOS judges our
// copies at each tolerance (bench/simplify_oracle.py check). Targets
// (issue 29): ≤ 0.5× GEOS and ≤ 0.5× mapshaper at 1 km; positions within
// 10 % of GEOS's; Hausdorff distance ≤ the tolerance; no gap or overlap.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import mapshaper from 'mapshaper';
import type { GeoFeature } from '../build/geojson/level-features.ts';
import { BODY_RADIUS_M } from '../build/core/shared/crs.ts';
import { coverageArcs } from '../build/simplify/arcs.ts';
import { TOLERANCES_M } from '../build/simplify/copies.ts';
import { CoverageSimplifier } from '../build/simplify/tpvw.ts';
import { ArcTexts, levelText, VertexTexts } from '../build/simplify/write.ts';
import { usCounties } from '../test/support/us-counties.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PYTHON = join(ROOT, '.venv-oracle/bin/python');
const ORACLE = join(ROOT, 'bench/simplify_oracle.py');
const ROUNDS = Number(process.env.GEOSHELF_BENCH_ROUNDS ?? 7);
const WARMUP = 2; // rounds not counted
const TARGET_M = 1000;
/** mapshaper's Visvalingam interval is √area × 0.65 (its scaledSimplify): this is GEOS's and ours. */
const MAPSHAPER_SCALE = 0.65;

type Ring = number[][];

/**
 * Returns this thread's CPU seconds (Linux's schedstat, in ns): ours and
 * mapshaper's run on the main thread, and the process's CPU time would also
 * count V8's background GC threads finishing the other side's garbage.
 */
const cpu = () => Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e9;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Ours: seconds to simplified arcs, seconds to write the GeoJSON, positions and arc vertices kept. */
function ours(features: GeoFeature[], toleranceM: number) {
  const start = cpu();
  const arcs = coverageArcs([features]);
  const simplifier = new CoverageSimplifier(arcs, BODY_RADIUS_M.earth);
  simplifier.simplify(toleranceM);
  const simplified = cpu();
  const text = levelText(arcs, new ArcTexts(arcs, simplifier, new VertexTexts(arcs)), 0);
  const written = cpu();
  const kept = simplifier.removed.length - simplifier.removed.reduce((n, r) => n + r, 0);
  return { seconds: simplified - start, writeSeconds: written - simplified, text, kept };
}

/** GEOS in its own process: the CPU seconds of one coverage_simplify call and the positions it keeps. */
function geos(file: string, toleranceM: number): { seconds: number; positions: number } {
  const out = execFileSync(PYTHON, [ORACLE, 'time', file, String(toleranceM), '1'], { encoding: 'utf8' });
  const { seconds, positions } = JSON.parse(out) as { seconds: number[]; positions: number };
  return { seconds: seconds[0], positions };
}

/** mapshaper's simplify command on a freshly imported copy: its CPU seconds and the arc vertices it keeps. */
function mapshaperSimplify(collection: object, toleranceM: number): { seconds: number; kept: number } {
  const dataset = mapshaper.internal.importContent(
    { json: { content: structuredClone(collection), filename: 'counties.json' } },
    {},
  );
  const start = cpu();
  mapshaper.cmd.simplify(dataset, {
    method: 'visvalingam',
    interval: toleranceM * MAPSHAPER_SCALE,
    keep_shapes: true,
  });
  return { seconds: cpu() - start, kept: dataset.arcs.getFilteredPointCount() };
}

function positionsOf(text: string): number {
  const { features } = JSON.parse(text) as { features: GeoFeature[] };
  let n = 0;
  for (const f of features)
    for (const polygon of f.geometry!.coordinates as Ring[][]) for (const ring of polygon) n += ring.length;
  return n;
}

async function main(): Promise<void> {
  if (!existsSync(PYTHON)) {
    console.error(`bench:simplify needs shapely ≥ 2.1 in ${PYTHON}:`);
    console.error('  python3 -m venv .venv-oracle && .venv-oracle/bin/pip install shapely pyproj');
    process.exit(1);
  }
  const dir = mkdtempSync(join(tmpdir(), 'geoshelf-bench-simplify-'));
  try {
    const collection = usCounties().counties;
    const file = join(dir, 'counties.geojson');
    writeFileSync(file, JSON.stringify(collection));
    console.log(
      `${collection.features.length} counties; load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    const rows: Record<string, number[]> = {};
    const add = (k: string, v: number) => (rows[k] ??= []).push(v);
    let positions = { ours: 0, geos: 0, oursKept: 0, mapshaperKept: 0 };
    for (let round = -WARMUP; round < ROUNDS; round++) {
      const g = geos(file, TARGET_M);
      const o = ours(collection.features, TARGET_M);
      const m = mapshaperSimplify(collection, TARGET_M);
      if (round < 0) continue; // warm-up: the JIT, the disk cache, Python's imports
      add('geos', g.seconds);
      add('ours', o.seconds);
      add('write', o.writeSeconds);
      add('mapshaper', m.seconds);
      add('vs geos', o.seconds / g.seconds);
      add('vs mapshaper', o.seconds / m.seconds);
      positions = { ours: positionsOf(o.text), geos: g.positions, oursKept: o.kept, mapshaperKept: m.kept };
    }
    const ms = (k: string) => `${(1000 * median(rows[k])).toFixed(0)} ms`;
    console.log(`at ${TARGET_M} m, median of ${ROUNDS} paired rounds (CPU time):`);
    console.log(
      `  ours ${ms('ours')} (+ ${ms('write')} to write the GeoJSON), GEOS ${ms('geos')}, mapshaper ${ms('mapshaper')}`,
    );
    console.log(
      `  ours / GEOS ${median(rows['vs geos']).toFixed(2)}× (target ≤ 0.5×), ours / mapshaper ${median(rows['vs mapshaper']).toFixed(2)}× (target ≤ 0.5×)`,
    );
    const off = (positions.ours / positions.geos - 1) * 100;
    console.log(
      `  positions: ours ${positions.ours}, GEOS ${positions.geos} (${off >= 0 ? '+' : ''}${off.toFixed(1)} %, target within 10 %); arc vertices: ours ${positions.oursKept}, mapshaper ${positions.mapshaperKept}`,
    );
    for (const toleranceM of TOLERANCES_M) {
      const o = ours(collection.features, toleranceM);
      const copy = join(dir, `counties.${toleranceM}.geojson`);
      writeFileSync(copy, o.text);
      const g = geos(file, toleranceM);
      const verdict = JSON.parse(
        execFileSync(PYTHON, [ORACLE, 'check', file, copy, String(toleranceM)], { encoding: 'utf8' }),
      ) as { failures: string[]; hausdorff_m: number; judged: number };
      const n = positionsOf(o.text);
      console.log(
        `at ${toleranceM} m: positions ours ${n}, GEOS ${g.positions} (${((n / g.positions - 1) * 100).toFixed(1)} %); ` +
          `worst Hausdorff ${verdict.hausdorff_m.toFixed(0)} m; GEOS judged ${verdict.judged} counties: ` +
          (verdict.failures.length === 0
            ? 'no gap, overlap, invalid or collapsed unit'
            : verdict.failures.join('; ')),
      );
    }
    console.log(
      `load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
