// bench:coverage — validate's coverage check (build/coverage/) on the 3,142
// U.S. counties of us-atlas (3,231 units with the territories), against what
// GEOS takes to find the same defects (bench/coverage_geos.py: shapely ≥ 2.1's
// coverage_invalid_edges, the pairwise intersections of the pairs an STRtree
// finds, and the holes of union_all), both from geometry already in memory.
// Three interleaved rounds, the fastest of each side compared. Target: ≤ 0.5×.
// The oracle runs in .venv-oracle/ (python3 -m venv .venv-oracle &&
// .venv-oracle/bin/pip install shapely). bench/coverage-validate.ts, run
// after it, times what the check adds to a cold `validate` of the sample.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { feature } from 'topojson-client';
import type { Topology } from 'topojson-specification';
import { checkCoverage, EDGE_WIDTH_M, GAP_WIDTH_M } from '../build/coverage/coverage.ts';
import { checkLevel } from '../build/coverage/cache.ts';
import { BODY_RADIUS_M } from '../build/core/shared/crs.ts';
import { shapeOf } from '../build/identity/shape.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PYTHON = join(ROOT, '.venv-oracle/bin/python');
const ROUNDS = 3;

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

const topology = JSON.parse(
  readFileSync(join(ROOT, 'node_modules/us-atlas-2017/counties-10m.json'), 'utf8'),
) as Topology;
const counties = feature(topology, topology.objects.counties!) as unknown as {
  features: { geometry: unknown }[];
};
const dir = mkdtempSync(join(tmpdir(), 'geoshelf-bench-coverage-'));
const file = join(dir, 'counties.geojson');
writeFileSync(file, JSON.stringify(counties));
try {
  console.log(`bench:coverage — ${counties.features.length} us-atlas counties; load ${load()}`);
  const shapes = counties.features.map((f) => shapeOf(f.geometry));
  const options = { radiusM: BODY_RADIUS_M.earth, gapWidthM: GAP_WIDTH_M, edgeWidthM: EDGE_WIDTH_M };
  const ours: number[] = [];
  const withRead: number[] = [];
  const geos: number[] = [];
  let found = 0;
  let oracle: { seconds: Record<string, number>; total: number; geos: string; shapely: string } | undefined;
  for (let round = 0; round < ROUNDS; round++) {
    let started = performance.now();
    found = checkCoverage(shapes, options).length;
    ours.push(performance.now() - started);
    started = performance.now();
    await checkLevel([{ path: file, real: file, sha256: '' }], [], { body: 'earth', gapWidthM: GAP_WIDTH_M });
    withRead.push(performance.now() - started);
    oracle = JSON.parse(
      execFileSync(PYTHON, [join(ROOT, 'bench/coverage_geos.py'), file, '1'], { encoding: 'utf8' }),
    );
    geos.push(oracle!.total * 1000);
  }
  const best = (xs: number[]) => Math.min(...xs);
  const steps = Object.entries(oracle!.seconds)
    .map(([step, s]) => `${step} ${(s * 1000).toFixed(0)} ms`)
    .join(', ');
  console.log(
    `  ours: ${best(ours).toFixed(0)} ms (${found} findings); reading the file too: ${best(withRead).toFixed(0)} ms`,
  );
  console.log(
    `  GEOS ${oracle!.geos} (shapely ${oracle!.shapely}): ${best(geos).toFixed(0)} ms (last round: ${steps})`,
  );
  console.log(
    `  ratio ${(best(ours) / best(geos)).toFixed(2)}× (target ≤ 0.5×); with reading ${(best(withRead) / best(geos)).toFixed(2)}×; load ${load()}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
