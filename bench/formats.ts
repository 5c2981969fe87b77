// `npm run bench:formats`: the download formats of a real-country-shaped
// tree (bench/formats-data.ts: a small ADM0, a ~100 MB ADM1 on one line, an
// ADM2 level with one feature per line split into 30 parts, previews),
// against GDAL in the same run.
// 1. A cold `geoshelf build` (a new process, no .cache/, no dist/), which
//    validates, converts every level and part to four formats plus the
//    country zip, and publishes, against the time ogr2ogr takes to write
//    GeoPackage, FlatGeobuf and Shapefile from the same files (one after the
//    other). Three rounds, GDAL and the build interleaved so both see the
//    same load; the best of each. Target ≤ 0.5×.
// 2. The build's peak RSS (GNU time's %M: the largest process of the tree,
//    worker threads included), the largest of the three. Target ≤ 400 MB.
// 3. The no-op rebuild of the same tree (a new process each, median of 5),
//    as a ratio of its cold build. Target ≤ 5 %.
// Every child runs with a timeout and is killed (with its children) past
// it, so a build that never exits fails the benchmark instead of stalling it.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { basename, join } from 'node:path';
import { benchmarkTree, convertedFiles } from './formats-data.ts';

const REPO = new URL('..', import.meta.url).pathname;
const ROUNDS = 3;
const NOOPS = 5;
const GDAL_DIR = '/tmp/geoshelf-bench-formats/gdal';
const BUILD_TIMEOUT_MS = 10 * 60_000;
const OGR_TIMEOUT_MS = 5 * 60_000;
const DRIVERS = [
  ['GPKG', '.gpkg'],
  ['FlatGeobuf', '.fgb'],
  ['ESRI Shapefile', '.shp'],
] as const;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

interface Timed {
  ms: number;
  rssMb: number; // GNU time's %M
  stdout: string;
}

/**
 * Runs a command under GNU time in its own process group; returns its wall
 * time, peak RSS and stdout. Past `timeoutMs` the whole group is killed and
 * this throws: a hang fails loudly.
 */
function timed(command: string, args: string[], timeoutMs: number): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('/usr/bin/time', ['-f', '%M', command, ...args], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      process.kill(-child.pid!, 'SIGKILL');
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      const ms = performance.now() - started;
      const name = `${basename(command)} ${args.join(' ')}`;
      if (killed) reject(new Error(`${name}: still running after ${timeoutMs / 1000} s, killed (a hang?)`));
      else if (code !== 0) reject(new Error(`${name}: exit ${code}: ${stderr}`));
      else {
        const lines = stderr.trim().split('\n');
        resolve({ ms, rssMb: Number(lines[lines.length - 1]) / 1024, stdout });
      }
    });
  });
}

/** Returns ogr2ogr's time (ms) per driver, and per file (all drivers), to write every file in `files` (root-relative). */
async function gdalRound(
  root: string,
  files: string[],
): Promise<{ byDriver: Record<string, number>; byFile: Map<string, number> }> {
  rmSync(GDAL_DIR, { recursive: true, force: true });
  mkdirSync(GDAL_DIR, { recursive: true });
  const byDriver: Record<string, number> = {};
  const byFile = new Map<string, number>();
  for (const [driver, ext] of DRIVERS) {
    byDriver[driver] = 0;
    for (const file of files) {
      const out = join(GDAL_DIR, basename(file, '.geojson') + ext);
      const { ms } = await timed('ogr2ogr', ['-f', driver, out, join(root, file)], OGR_TIMEOUT_MS);
      byDriver[driver] += ms;
      byFile.set(file, (byFile.get(file) ?? 0) + ms);
    }
  }
  return { byDriver, byFile };
}

/** Runs `geoshelf build` of `root` as a user does (a new process); `cold` removes caches and output first. */
function build(root: string, cold: boolean): Promise<Timed> {
  if (cold) {
    rmSync(join(root, '.cache'), { recursive: true, force: true });
    rmSync(join(root, 'dist'), { recursive: true, force: true });
  }
  const args = [join(REPO, 'bin/geoshelf.js'), 'build', '--root', root, '--out', join(root, 'dist')];
  return timed('node', args, BUILD_TIMEOUT_MS);
}

async function main() {
  console.log(`bench:formats on ${cpus().length} cores, load ${load()}`);
  console.log(execFileSync('ogr2ogr', ['--version'], { encoding: 'utf8' }).trim());
  const root = await benchmarkTree();
  const files = convertedFiles(root);
  const mb = (paths: string[]) => paths.reduce((n, f) => n + statSync(join(root, f)).size, 0) / 1e6;
  const parts = files.filter((f) => f.includes('/ADM2/'));
  const levels = files.filter((f) => !parts.includes(f));
  console.log(
    `tree: ${levels.map((f) => `${basename(f)} ${mb([f]).toFixed(1)} MB`).join(', ')}, ` +
      `${parts.length} ADM2 parts ${mb(parts).toFixed(1)} MB; ${files.length} files, ${mb(files).toFixed(1)} MB converted`,
  );

  const rounds: {
    gdal: Record<string, number>;
    byFile: Map<string, number>;
    gdalTotal: number;
    cold: Timed;
  }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const { byDriver: gdal, byFile } = await gdalRound(root, files);
    const gdalTotal = Object.values(gdal).reduce((a, b) => a + b, 0);
    const cold = await build(root, true);
    rounds.push({ gdal, byFile, gdalTotal, cold });
    console.log(
      `  round ${round + 1} (load ${load()}): ogr2ogr GPKG + FGB + SHP ${seconds(gdalTotal)}, ` +
        `geoshelf build ${seconds(cold.ms)} (peak RSS ${cold.rssMb.toFixed(0)} MB)`,
    );
  }
  const best = <T>(items: T[], value: (item: T) => number) =>
    items.reduce((a, b) => (value(b) < value(a) ? b : a));
  const { gdal, byFile, gdalTotal } = best(rounds, (r) => r.gdalTotal);
  const coldMs = best(rounds, (r) => r.cold.ms).cold.ms;
  const rssMb = Math.max(...rounds.map((r) => r.cold.rssMb));

  // No-op rebuilds: a new process each, after the last cold build; also the time the build
  // itself reports (without the process's start-up).
  const noop: number[] = [];
  const noopInside: number[] = [];
  for (let i = 0; i < NOOPS; i++) {
    const run = await build(root, false);
    const summary = /in ([\d.]+) s \(0 written, /.exec(run.stdout);
    if (!summary) throw new Error(`the no-op rebuild wrote files: ${run.stdout}`);
    noop.push(run.ms);
    noopInside.push(Number(summary[1]) * 1000);
  }

  const ratio = coldMs / gdalTotal;
  const noopRatio = median(noop) / coldMs;
  console.log(`best of ${ROUNDS} rounds:`);
  for (const [driver, ms] of Object.entries(gdal)) console.log(`  ogr2ogr ${driver}: ${seconds(ms)}`);
  console.log(`  ogr2ogr total (GPKG + FGB + SHP): ${seconds(gdalTotal)}`);
  for (const file of levels) console.log(`    of which ${basename(file)}: ${seconds(byFile.get(file)!)}`);
  console.log(
    `    of which the ${parts.length} parts: ${seconds(parts.reduce((n, f) => n + byFile.get(f)!, 0))}`,
  );
  console.log(`  geoshelf build, cold, all four formats + country zip: ${seconds(coldMs)}`);
  console.log(`  ratio: ${ratio.toFixed(2)}× (target ≤ 0.5×) ${ratio <= 0.5 ? 'met' : 'MISSED'}`);
  console.log(`  peak RSS: ${rssMb.toFixed(0)} MB (target ≤ 400 MB) ${rssMb <= 400 ? 'met' : 'MISSED'}`);
  console.log(
    `  no-op rebuild, median of ${NOOPS}: ${seconds(median(noop))} = ${(noopRatio * 100).toFixed(1)} % of cold ` +
      `(target ≤ 5 %) ${noopRatio <= 0.05 ? 'met' : 'MISSED'}; ${seconds(median(noopInside))} of it in the build itself`,
  );
  console.log(`load after: ${load()}`);
  rmSync(GDAL_DIR, { recursive: true, force: true });
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  rmSync(join(root, '.cache'), { recursive: true, force: true });
}

await main();
