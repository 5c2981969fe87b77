// bench:geometry — `geoshelf validate --no-nesting --no-coverage` with its
// measurement and geometry caches removed (every file measured and its
// geometry checked again: the work GEOS's loop does; the preview comparison
// comes from its cache, and the nesting and coverage checks' own costs are
// bench:nesting's and bench:coverage's) on two trees (bench/geometry-data.ts):
// - smooth cells: a country's tree as published files come: a small ADM0
//   (one feature on one line), a ~200 MB ADM1 whose whole FeatureCollection
//   is one line, a ~100 MB ADM2 with one feature per line, and a preview of
//   each; star-shaped rings whose radius wanders smoothly;
// - jagged coast: one ~200 MB level of ~9,000 coast-like units, one per
//   line, rings of ~760 positions as irregular as a coastline at full detail
//   (test/geometry/coast.ts), one in 100 invalid.
// Each against GEOS's own is_valid loop over the same features (shapely; its
// JSON load and shape() excluded), measured in the same run, wall clock and
// CPU time. Targets: validate ≤ 0.5× the GEOS loop (wall, on both trees),
// peak RSS ≤ 200 MB. validate runs as a child process with a timeout: a hang
// (a run that never exits) fails the benchmark loudly. GEOSHELF_BENCH_MB=50
// makes the ADM1 and the coast level 50 MB (for a quick look; figures in
// docs/benchmarks.md are from 200 MB); GEOSHELF_BENCH_TREES=coast runs one tree.
// The adversarial shapes follow, in bench/geometry-adversarial.ts.
import { spawn } from 'node:child_process';
import { existsSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureAndCheckGeoJSON } from '../build/measure/measure.ts';
import { ensureCoast, ensureCountry } from './geometry-data.ts';

const MB = Number(process.env.GEOSHELF_BENCH_MB ?? 200);
const TREES = (process.env.GEOSHELF_BENCH_TREES ?? 'smooth,coast').split(',');
const REPEATS = 3;
const VALIDATE_TIMEOUT_MS = 120_000; // validate takes a few seconds; a hang is reported, not waited for
const CLI = fileURLToPath(new URL('../bin/geoshelf.js', import.meta.url));
const SHAPELY = fileURLToPath(new URL('./geometry_shapely.py', import.meta.url));
// The caches a `fresh` run removes (build/measure/cache.ts, build/geometry/cache.ts): the
// preview comparison's (build/manifest/preview-cache.ts) is kept.
const FRESH = ['measurements.json', 'geometry.json'];

interface Run {
  seconds: number;
  cpu: number; // seconds of CPU (user + system), every thread
  rssMB: number;
  output: string;
}

/** Runs a child to its end, or kills it after `timeout` ms; returns its exit code (null if killed), stdout and stderr. */
function runChild(
  command: string,
  args: string[],
  timeout: number,
): Promise<{ code: number | null; stdout: string; stderr: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(command, args);
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeout);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}

/**
 * How validate runs: `fresh` measures and checks every file again (its
 * measurement and geometry caches removed) but takes the preview comparison
 * (issue 26: every level read again, no part of GEOS's work) from its cache,
 * filled by an untimed run first; `no-cache` runs with --no-cache (every
 * check from scratch, the preview comparison too); `coverage` so, with the
 * coverage check.
 */
type Mode = 'fresh' | 'no-cache' | 'coverage';

/**
 * Runs `validate --no-nesting --no-coverage` as `mode` says, under
 * /usr/bin/time: wall clock, CPU and peak RSS of the whole process.
 */
async function validateOnce(root: string, mode: Mode): Promise<Run> {
  const cache = join(root, '.cache/geoshelf');
  if (mode === 'fresh') for (const name of FRESH) rmSync(join(cache, name), { force: true });
  const flags = [
    ...(mode === 'fresh' ? [] : ['--no-cache']),
    '--no-nesting',
    ...(mode === 'coverage' ? [] : ['--no-coverage']),
  ];
  const run = await runChild(
    '/usr/bin/time',
    ['-f', 'time=%e cpu=%U+%S maxrss=%M', process.execPath, CLI, 'validate', ...flags, '--root', root],
    VALIDATE_TIMEOUT_MS * (mode === 'coverage' ? 5 : 1),
  );
  if (run.timedOut) {
    throw new Error(`validate did not exit within ${VALIDATE_TIMEOUT_MS / 1000} s (a hang?): ${run.stderr}`);
  }
  const m = /time=([\d.]+) cpu=([\d.]+)\+([\d.]+) maxrss=(\d+)/.exec(run.stderr);
  if (!m || run.code !== 0) throw new Error(`validate failed (${run.code}): ${run.stdout}${run.stderr}`);
  // The summary is validate's last line on stderr, before /usr/bin/time's.
  const summary = run.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('time='));
  return {
    seconds: Number(m[1]),
    cpu: Number(m[2]) + Number(m[3]),
    rssMB: Number(m[4]) / 1024,
    output: summary.pop() ?? '0 problems',
  };
}

/** Runs the shapely loop over every file; returns the time of the is_valid loop alone. */
async function geosOnce(files: string[]): Promise<Run & { features: number; invalid: number }> {
  const run = await runChild('/usr/bin/python3', [SHAPELY, ...files], 600_000);
  if (run.code !== 0) throw new Error(`shapely failed: ${run.stderr}`);
  const r = JSON.parse(run.stdout) as {
    features: number;
    invalid: number;
    seconds: number;
    cpu_seconds: number;
  };
  return {
    seconds: r.seconds,
    cpu: r.cpu_seconds,
    rssMB: 0,
    output: '',
    features: r.features,
    invalid: r.invalid,
  };
}

// The same busy loop in one process, then in two at once: how much two
// threads get on this machine. validate spreads its work over both cores and
// GEOS's loop uses one, so on a host whose two vCPUs share a physical core
// (each then runs at a fraction of its speed) the ratio rises although neither
// program changed.
const SPIN = 'let x = 0; for (let i = 0; i < 2e8; i++) x += i % 7; if (x < 0) console.log(x);';

/** Returns the wall seconds `copies` processes running SPIN at once take. */
async function spinSeconds(copies: number): Promise<number> {
  const started = performance.now();
  await Promise.all(Array.from({ length: copies }, () => runChild(process.execPath, ['-e', SPIN], 120_000)));
  return (performance.now() - started) / 1000;
}

/** Returns the speed of each of two busy processes run at once, as a fraction of one alone (1 = two full cores). */
async function twoCoreSpeed(): Promise<number> {
  const one = await spinSeconds(1);
  const two = await spinSeconds(2);
  return one / two;
}

function best<T extends Run>(runs: T[]): T {
  return runs.reduce((a, b) => (b.seconds < a.seconds ? b : a));
}

/** Returns the least CPU time of `runs`. */
function leastCpu(runs: Run[]): number {
  return Math.min(...runs.map((r) => r.cpu));
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

interface Tree {
  name: string; // e.g. "jagged coast"
  root: string;
  files: string[];
}

/** Returns the trees to run, generated once each (kept under the system's temporary folder). */
async function trees(): Promise<Tree[]> {
  const all: Tree[] = [];
  if (TREES.includes('smooth')) {
    const root = join(tmpdir(), `geoshelf-bench-geometry-country-${MB}mb`);
    all.push({ name: 'smooth cells', root, files: await ensureCountry(root, MB * 1e6, 2026) });
  }
  if (TREES.includes('coast')) {
    const root = join(tmpdir(), `geoshelf-bench-geometry-coast-${MB}mb`);
    all.push({ name: 'jagged coast', root, files: await ensureCoast(root, MB * 1e6, 2027) });
  }
  return all;
}

/** Runs one tree's validate and GEOS loop, interleaved; prints each run and the tree's verdicts; returns whether every target was met. */
async function runTree(tree: Tree): Promise<boolean> {
  const { name, root, files } = tree;
  console.log(
    `${name}: ${files.map((f) => `${f.slice(root.length + 1)} ${(statSync(f).size / 1e6).toFixed(1)} MB`).join(', ')}`,
  );
  const validate: Run[] = [];
  const geos: Awaited<ReturnType<typeof geosOnce>>[] = [];
  await validateOnce(root, 'fresh'); // untimed: fills the preview comparison's cache
  // A cache renamed would be kept by the timed runs, which would then time a cached validate.
  const missing = FRESH.filter((name) => !existsSync(join(root, '.cache/geoshelf', name)));
  if (missing.length > 0) throw new Error(`validate wrote no ${missing.join(', ')}: update FRESH`);
  // Interleaved, so both see the same load.
  for (let k = 0; k < REPEATS; k++) {
    validate.push(await validateOnce(root, 'fresh'));
    geos.push(await geosOnce(files));
    const [v, g] = [validate[k]!, geos[k]!];
    console.log(
      `  run ${k + 1}: validate ${v.seconds.toFixed(2)} s (CPU ${v.cpu.toFixed(2)} s, peak RSS ${v.rssMB.toFixed(0)} MB), GEOS is_valid loop ${g.seconds.toFixed(2)} s (CPU ${g.cpu.toFixed(2)} s)`,
    );
  }
  // For the record, in this process (no process start): the pass validate
  // makes (measuring and geometry checks in one scan), file after file.
  const inProcess: Run[] = [];
  for (let k = 0; k < REPEATS; k++) {
    const started = performance.now();
    const cpu = process.cpuUsage();
    let invalid = 0;
    for (const file of files) invalid += (await measureAndCheckGeoJSON(file)).geometry.issues.length;
    const used = process.cpuUsage(cpu);
    inProcess.push({
      seconds: (performance.now() - started) / 1000,
      cpu: (used.user + used.system) / 1e6,
      rssMB: 0,
      output: `${invalid} invalid`,
    });
  }
  const v = best(validate);
  const g = best(geos);
  const c = best(inProcess);
  console.log(`  ${g.features} features (GEOS: ${g.invalid} invalid); validate says: ${v.output}`);
  const ratio = v.seconds / g.seconds;
  const peak = Math.max(...validate.map((r) => r.rssMB));
  console.log(`  targets (best of ${REPEATS}; load now ${load()}):`);
  console.log(
    `    ${ratio <= 0.5 ? 'MET   ' : 'MISSED'} validate ${v.seconds.toFixed(2)} s = ${ratio.toFixed(2)}× the GEOS is_valid loop ${g.seconds.toFixed(2)} s (target ≤ 0.5×)`,
  );
  console.log(
    `    ${peak <= 200 ? 'MET   ' : 'MISSED'} validate peak RSS ${peak.toFixed(0)} MB (target ≤ 200)`,
  );
  console.log(
    `    (CPU: validate ${leastCpu(validate).toFixed(2)} s on every thread = ${(leastCpu(validate) / leastCpu(geos)).toFixed(2)}× GEOS's ${leastCpu(geos).toFixed(2)} s; ${(leastCpu(validate) / (2 * leastCpu(geos))).toFixed(2)}× is what two full cores would give at best)`,
  );
  console.log(
    `    (for the record, in-process, file after file: measure + geometry in one pass ${c.seconds.toFixed(2)} s = ${(c.seconds / g.seconds).toFixed(2)}× the GEOS loop, CPU ${c.cpu.toFixed(2)} s, ${c.output})`,
  );
  const noCache = await validateOnce(root, 'no-cache');
  console.log(
    `    (for the record, validate --no-cache --no-nesting --no-coverage once, the preview comparison included: ${noCache.seconds.toFixed(2)} s, CPU ${noCache.cpu.toFixed(2)} s)`,
  );
  if (process.env.GEOSHELF_BENCH_COVERAGE === '1') {
    const withCoverage = await validateOnce(root, 'coverage');
    console.log(
      `    (for the record, validate --no-cache --no-nesting with the coverage check, once: ${withCoverage.seconds.toFixed(2)} s, CPU ${withCoverage.cpu.toFixed(2)} s, peak RSS ${withCoverage.rssMB.toFixed(0)} MB: ${withCoverage.output})`,
    );
  }
  return ratio <= 0.5 && peak <= 200;
}

async function main(): Promise<void> {
  console.log(
    `bench:geometry — ${new Date().toISOString()}, ${cpus().length} cores, Node ${process.version}, load ${load()}`,
  );
  const all = await trees();
  const coresBefore = await twoCoreSpeed();
  const met: string[] = [];
  for (const tree of all) if (await runTree(tree)) met.push(tree.name);
  const coresAfter = await twoCoreSpeed();
  console.log(
    `two busy processes at once each ran at ${(100 * coresBefore).toFixed(0)}% (before) and ${(100 * coresAfter).toFixed(0)}% (after) of one alone (100%: two full cores; ~60%: the vCPUs share a core)`,
  );
  console.log(`every target met on: ${met.length === 0 ? 'none' : met.join(', ')} (of ${all.length} trees)`);
}

await main();
