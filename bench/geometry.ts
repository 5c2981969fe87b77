// bench:geometry — `geoshelf validate --no-cache` (measure + geometry checks)
// on a ~200 MB level of valid polygons, against GEOS's own is_valid loop over
// the same features (shapely; its JSON load and shape() excluded), measured in
// the same run. Targets: validate ≤ 0.5× the GEOS loop, peak RSS ≤ 200 MB.
// GEOSHELF_BENCH_MB=50 runs a smaller level (for a quick look; figures in
// docs/benchmarks.md are from the 200 MB level).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkGeometryFile } from '../build/geometry/check-file.ts';
import { measureAndCheckGeoJSON, measureGeoJSON } from '../build/measure/measure.ts';
import { ensureLevel } from './geometry-data.ts';

const MB = Number(process.env.GEOSHELF_BENCH_MB ?? 200);
const ROOT = join(tmpdir(), `geoshelf-bench-geometry-${MB}mb`);
const DATA = 'data/earth/FJI/FJI_ADM2.geojson';
const REPEATS = 3;
const CLI = fileURLToPath(new URL('../bin/geoshelf.js', import.meta.url));
const SHAPELY = fileURLToPath(new URL('./geometry_shapely.py', import.meta.url));

/** Writes the level and a manifest stating its measured stats (once; kept for later runs). */
async function ensureRoot(): Promise<string> {
  const path = join(ROOT, DATA);
  ensureLevel(path, MB * 1e6, 2026);
  const stats = await measureGeoJSON(path);
  const manifest = {
    schema_version: 1,
    body: 'earth',
    iso_a3: 'FJI',
    name: { en: 'Fiji', es: 'Fiyi' },
    crs: { authority: 'OGC', code: 'CRS84', epsg: 4326 },
    status: 'ok',
    source: {
      name: 'bench:geometry',
      url: 'https://example.org/bench',
      license: 'CC0-1.0',
      retrieved: '2026-11-22',
    },
    datasets: [{ level: 'ADM2', path: DATA, ...stats, license: 'CC0-1.0' }],
  };
  mkdirSync(join(ROOT, 'data/earth/FJI'), { recursive: true });
  writeFileSync(join(ROOT, 'data/earth/FJI/manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return path;
}

interface Run {
  seconds: number;
  rssMB: number;
  output: string;
}

/** Runs `validate --no-cache` under /usr/bin/time: wall clock and peak RSS of the whole process. */
function validateOnce(): Run {
  const run = spawnSync(
    '/usr/bin/time',
    ['-f', 'time=%e maxrss=%M', process.execPath, CLI, 'validate', '--no-cache', '--root', ROOT],
    {
      encoding: 'utf8',
    },
  );
  const m = /time=([\d.]+) maxrss=(\d+)/.exec(run.stderr);
  if (!m || run.status !== 0) throw new Error(`validate failed (${run.status}): ${run.stdout}${run.stderr}`);
  // The summary is validate's last line on stderr, before /usr/bin/time's.
  const summary = run.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('time='));
  return { seconds: Number(m[1]), rssMB: Number(m[2]) / 1024, output: summary.pop() ?? '' };
}

/** Runs the shapely loop; returns the time of the is_valid loop alone. */
function geosOnce(path: string): Run & { features: number; invalid: number } {
  const run = spawnSync('/usr/bin/python3', [SHAPELY, path], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (run.status !== 0) throw new Error(`shapely failed: ${run.stderr}`);
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
  const children = Array.from({ length: copies }, () =>
    spawn(process.execPath, ['-e', SPIN], { stdio: 'ignore' }),
  );
  await Promise.all(children.map((child) => new Promise((done) => child.on('exit', done))));
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
  const path = await ensureRoot();
  const mb = statSync(path).size / 1e6;
  const coresBefore = await twoCoreSpeed();
  const validate: Run[] = [];
  const geos: ReturnType<typeof geosOnce>[] = [];
  // Interleaved, so both see the same load.
  for (let k = 0; k < REPEATS; k++) {
    validate.push(validateOnce());
    geos.push(geosOnce(path));
    console.log(
      `  run ${k + 1}: validate --no-cache ${validate[k]!.seconds.toFixed(2)} s (peak RSS ${validate[k]!.rssMB.toFixed(0)} MB), GEOS is_valid loop ${geos[k]!.seconds.toFixed(2)} s`,
    );
  }
  // For the record, in this process (no process start): the pass validate
  // makes (measuring and geometry checks in one scan), and the geometry
  // checks alone (their own reader, as when measurements come from the cache).
  const inProcess: Run[] = [];
  const alone: Run[] = [];
  for (let k = 0; k < REPEATS; k++) {
    let started = performance.now();
    const { geometry } = await measureAndCheckGeoJSON(path);
    inProcess.push({
      seconds: (performance.now() - started) / 1000,
      rssMB: 0,
      output: `${geometry.issues.length} invalid`,
    });
    started = performance.now();
    const result = await checkGeometryFile(path);
    alone.push({
      seconds: (performance.now() - started) / 1000,
      rssMB: 0,
      output: `${result.issues.length} invalid`,
    });
  }
  const v = best(validate);
  const g = best(geos);
  const c = best(inProcess);
  console.log(
    `level: ${mb.toFixed(0)} MB, ${g.features} features (GEOS: ${g.invalid} invalid); validate says: ${v.output}`,
  );
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
  const a = best(alone);
  console.log(
    `  (for the record, in-process: measure + geometry in one pass ${c.seconds.toFixed(2)} s = ${(c.seconds / g.seconds).toFixed(2)}× the GEOS loop, ${c.output}; geometry checks alone ${a.seconds.toFixed(2)} s = ${(a.seconds / g.seconds).toFixed(2)}×)`,
  );
}

await main();
