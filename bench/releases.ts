// bench:releases — identity matching and change classification of a real
// 3,142-unit refresh (U.S. counties, Census 2015 → 2017, us-atlas vintages
// made by test/support/vintages.ts) in geoshelf (build/identity/match.ts)
// against a GEOS script doing the same phases (bench/releases_geos.py: STRtree
// candidates plus intersection areas, Hausdorff distances), and against the
// plain "STRtree plus every candidate's intersection area" script (--full).
// Loading is untimed on both sides; each side runs the matching REPEATS
// times per round in one process (warm) and keeps its best CPU time; rounds
// alternate which side goes first. Target: geoshelf ≤ 0.5× GEOS.
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { readLevelUnits } from '../build/identity/level.ts';
import { matchUnits } from '../build/identity/match.ts';
import { DEFAULT_THRESHOLDS } from '../build/identity/thresholds.ts';
import { vintages } from '../test/support/vintages.ts';

const ROUNDS = Number(process.env.GEOSHELF_BENCH_ROUNDS ?? 3);
const REPEATS = 3;
const GEOS = fileURLToPath(new URL('./releases_geos.py', import.meta.url));
const IGNORED = new Set(['shapeName', 'shapeISO', 'src_shape_id', 'id', 'parentID', 'parentISO']);

const v = vintages();
const [olds, news] = await Promise.all([
  readLevelUnits([v.counties2015], 'src_shape_id'),
  readLevelUnits([v.counties2017], 'src_shape_id'),
]);

/** Returns geoshelf's best CPU and wall milliseconds of REPEATS matchings, and its intersection count. */
function ours(): { cpu: number; wall: number; intersections: number } {
  let best = { cpu: Infinity, wall: Infinity, intersections: 0 };
  for (let i = 0; i < REPEATS; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const r = matchUnits(olds, news, DEFAULT_THRESHOLDS, IGNORED);
    const wall = performance.now() - t0;
    const c = process.cpuUsage(c0);
    const cpu = (c.user + c.system) / 1000;
    if (cpu < best.cpu) best = { cpu, wall, intersections: r.intersections };
  }
  return best;
}

/** Returns the GEOS script's best CPU and wall milliseconds (its own measurement, load excluded). */
function geos(full: boolean): { cpu: number; wall: number; intersections: number } {
  const args = [
    GEOS,
    v.counties2015,
    v.counties2017,
    '--repeat',
    String(REPEATS),
    ...(full ? ['--full'] : []),
  ];
  const run = spawnSync('/usr/bin/python3', args, {
    encoding: 'utf8',
    timeout: 600_000,
    killSignal: 'SIGKILL',
  });
  if (run.status !== 0) throw new Error(`releases_geos.py failed: ${run.stderr}`);
  const out = JSON.parse(run.stdout) as {
    match_ms: { cpu: number; total: number };
    counts: { intersections: number };
  };
  return { cpu: out.match_ms.cpu, wall: out.match_ms.total, intersections: out.counts.intersections };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows: { ts: number; geos: number; full: number; tsWall: number; geosWall: number }[] = [];
let counts = '';
for (let round = 0; round < ROUNDS; round++) {
  const first = round % 2 === 0;
  const a = first ? ours() : undefined;
  const g = geos(false);
  const b = first ? a! : ours();
  const full = round === 0 ? geos(true) : undefined;
  rows.push({ ts: b.cpu, geos: g.cpu, full: full?.cpu ?? NaN, tsWall: b.wall, geosWall: g.wall });
  counts = `intersections: geoshelf ${b.intersections}, GEOS ${g.intersections}${full ? `, GEOS full ${full.intersections}` : ''}`;
  console.log(
    `round ${round + 1}: geoshelf ${b.cpu.toFixed(1)} ms CPU (${b.wall.toFixed(1)} wall), ` +
      `GEOS ${g.cpu.toFixed(1)} ms CPU (${g.wall.toFixed(1)} wall)` +
      (full ? `, GEOS full ${full.cpu.toFixed(1)} ms CPU` : '') +
      `, load ${loadavg()[0]!.toFixed(2)}`,
  );
}
const ratio = (f: (r: (typeof rows)[0]) => number) => rows.map(f);
const cpu = ratio((r) => r.ts / r.geos);
const wall = ratio((r) => r.tsWall / r.geosWall);
console.log(counts);
console.log(
  `matching ${olds.length} → ${news.length} units: geoshelf ÷ GEOS CPU best ${Math.min(...cpu).toFixed(2)}× / median ${median(cpu).toFixed(2)}×, ` +
    `wall best ${Math.min(...wall).toFixed(2)}× / median ${median(wall).toFixed(2)}× (target ≤ 0.5×: ${median(cpu) <= 0.5 ? 'met' : 'missed'}); ` +
    `÷ GEOS full (no early exit) ${(rows[0]!.ts / rows[0]!.full).toFixed(3)}×`,
);
