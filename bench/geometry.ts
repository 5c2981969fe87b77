// bench:geometry — `geoshelf validate --no-cache --no-nesting` (measure +
// geometry checks: the work GEOS's loop does; the nesting check's own cost is
// bench:nesting's)
// on a country's tree as published files come (bench/geometry-data.ts): a
// small ADM0 (one feature on one line), a ~200 MB ADM1 whose whole
// FeatureCollection is one line, a ~100 MB ADM2 with one feature per line,
// and a preview of each. Against GEOS's own is_valid loop over the same
// features (shapely; its JSON load and shape() excluded), measured in the
// same run. Targets: validate ≤ 0.5× the GEOS loop, peak RSS ≤ 200 MB.
// validate runs as a child process with a timeout: a hang (a run that never
// exits) fails the benchmark loudly. GEOSHELF_BENCH_MB=50 makes the ADM1
// 50 MB (for a quick look; figures in docs/benchmarks.md are from 200 MB).
// The adversarial shapes follow, in bench/geometry-adversarial.ts.
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureAndCheckGeoJSON } from '../build/measure/measure.ts';
import { ensureCountry } from './geometry-data.ts';

const MB = Number(process.env.GEOSHELF_BENCH_MB ?? 200);
const ROOT = join(tmpdir(), `geoshelf-bench-geometry-country-${MB}mb`);
const REPEATS = 3;
const VALIDATE_TIMEOUT_MS = 120_000; // validate takes a few seconds; a hang is reported, not waited for
const CLI = fileURLToPath(new URL('../bin/geoshelf.js', import.meta.url));
const SHAPELY = fileURLToPath(new URL('./geometry_shapely.py', import.meta.url));

interface Run {
  seconds: number;
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

/** Runs `validate --no-cache --no-nesting` under /usr/bin/time: wall clock and peak RSS of the whole process. */
async function validateOnce(): Promise<Run> {
  const run = await runChild(
    '/usr/bin/time',
    [
      '-f',
      'time=%e maxrss=%M',
      process.execPath,
      CLI,
      'validate',
      '--no-cache',
      '--no-nesting',
      '--root',
      ROOT,
    ],
    VALIDATE_TIMEOUT_MS,
  );
  if (run.timedOut) {
    throw new Error(`validate did not exit within ${VALIDATE_TIMEOUT_MS / 1000} s (a hang?): ${run.stderr}`);
  }
  const m = /time=([\d.]+) maxrss=(\d+)/.exec(run.stderr);
  if (!m || run.code !== 0) throw new Error(`validate failed (${run.code}): ${run.stdout}${run.stderr}`);
  // The summary is validate's last line on stderr, before /usr/bin/time's.
  const summary = run.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('time='));
  return { seconds: Number(m[1]), rssMB: Number(m[2]) / 1024, output: summary.pop() ?? '0 problems' };
}

/** Runs the shapely loop over every file; returns the time of the is_valid loop alone. */
async function geosOnce(files: string[]): Promise<Run & { features: number; invalid: number }> {
  const run = await runChild('/usr/bin/python3', [SHAPELY, ...files], 600_000);
  if (run.code !== 0) throw new Error(`shapely failed: ${run.stderr}`);
  const r = JSON.parse(run.stdout) as { features: number; invalid: number; seconds: number };
  return { seconds: r.seconds, rssMB: 0, output: '', features: r.features, invalid: r.invalid };
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

async function main(): Promise<void> {
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
  console.log(
    `bench:geometry — ${new Date().toISOString()}, ${cpus().length} cores, Node ${process.version}, load ${load()}`,
  );
  const files = await ensureCountry(ROOT, MB * 1e6, 2026);
  console.log(
    `tree: ${files.map((f) => `${f.slice(ROOT.length + 1)} ${(statSync(f).size / 1e6).toFixed(1)} MB`).join(', ')}`,
  );
  const coresBefore = await twoCoreSpeed();
  const validate: Run[] = [];
  const geos: Awaited<ReturnType<typeof geosOnce>>[] = [];
  // Interleaved, so both see the same load.
  for (let k = 0; k < REPEATS; k++) {
    validate.push(await validateOnce());
    geos.push(await geosOnce(files));
    console.log(
      `  run ${k + 1}: validate --no-cache ${validate[k]!.seconds.toFixed(2)} s (peak RSS ${validate[k]!.rssMB.toFixed(0)} MB), GEOS is_valid loop ${geos[k]!.seconds.toFixed(2)} s`,
    );
  }
  // For the record, in this process (no process start): the pass validate
  // makes (measuring and geometry checks in one scan), file after file.
  const inProcess: Run[] = [];
  for (let k = 0; k < REPEATS; k++) {
    const started = performance.now();
    let invalid = 0;
    for (const file of files) invalid += (await measureAndCheckGeoJSON(file)).geometry.issues.length;
    inProcess.push({ seconds: (performance.now() - started) / 1000, rssMB: 0, output: `${invalid} invalid` });
  }
  const v = best(validate);
  const g = best(geos);
  const c = best(inProcess);
  console.log(`${g.features} features (GEOS: ${g.invalid} invalid); validate says: ${v.output}`);
  const ratio = v.seconds / g.seconds;
  const peak = Math.max(...validate.map((r) => r.rssMB));
  const coresAfter = await twoCoreSpeed();
  console.log(
    `two busy processes at once each ran at ${(100 * coresBefore).toFixed(0)}% (before) and ${(100 * coresAfter).toFixed(0)}% (after) of one alone (100%: two full cores; ~60%: the vCPUs share a core)`,
  );
  console.log(`targets (best of ${REPEATS}; load now ${load()}):`);
  console.log(
    `  ${ratio <= 0.5 ? 'MET   ' : 'MISSED'} validate --no-cache ${v.seconds.toFixed(2)} s = ${ratio.toFixed(2)}× the GEOS is_valid loop ${g.seconds.toFixed(2)} s (target ≤ 0.5×)`,
  );
  console.log(
    `  ${peak <= 200 ? 'MET   ' : 'MISSED'} validate peak RSS ${peak.toFixed(0)} MB (target ≤ 200)`,
  );
  console.log(
    `  (for the record, in-process, file after file: measure + geometry in one pass ${c.seconds.toFixed(2)} s = ${(c.seconds / g.seconds).toFixed(2)}× the GEOS loop, ${c.output})`,
  );
}

await main();
