// `npm run bench:catalogue`: geoshelf at a real catalogue's size. Generates
// (bench/catalogue-data.ts, kept in /tmp) a geoBoundaries-shaped tree of
// GB GiB of GeoJSON (default 10; e.g. GB=1 for a first look), then times, each
// as its own `geoshelf` process under /usr/bin/time: a cold `build` (no
// cache, no dist/), a no-op rebuild, a rebuild after one country changed, a
// first `release`, and a `release` after another country changed. For each:
// wall time, CPU time (user + sys, every thread), peak RSS, and the bytes it
// added under the root (dist/, the caches, the ledger). A country's change
// (a unit renamed in its ADM1, its manifest and preview made again) is setup,
// not timed. Then each figure extrapolated to geoBoundaries' 20 GB, linearly
// in the tree's bytes (the work per byte of a large catalogue: conversions,
// tiles, hashing; fixed costs make it an upper bound for times).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { measureGeoJSON } from '../build/measure/measure.ts';
import { catalogueTree } from './catalogue-data.ts';
import { geoshelf } from './formats-data.ts';

const REPO = new URL('..', import.meta.url).pathname;
const GIB = 2 ** 30;
const SIZE = Number(process.env.GB ?? 10) * GIB;
/** geoBoundaries' size, for the extrapolation. */
const TARGET = 20 * GIB;
/** Any one timed command must finish within this (a hang ends the benchmark). */
const STEP_TIMEOUT_MS = 6 * 60 * 60_000;

interface Step {
  name: string;
  wall: number; // seconds
  cpu: number;
  rssMB: number;
  bytes: number; // added under the root
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

/** Returns the bytes of every file under `dir` (du's apparent size). */
function bytesUnder(dir: string): number {
  const out = spawnSync('du', ['-sb', dir], { encoding: 'utf8' });
  return Number(out.stdout.split('\t')[0]);
}

/** Runs `geoshelf ARGS…` under /usr/bin/time; returns its figures (throws when it fails). */
function timed(name: string, root: string, args: string[]): Step {
  const before = bytesUnder(root);
  const started = performance.now();
  const run = spawnSync(
    '/usr/bin/time',
    ['-f', 'maxrss=%M cpu=%U+%S', process.execPath, join(REPO, 'bin/geoshelf.js'), ...args],
    { encoding: 'utf8', timeout: STEP_TIMEOUT_MS, maxBuffer: 64 << 20 },
  );
  const wall = (performance.now() - started) / 1000;
  const usage = /maxrss=(\d+) cpu=([\d.]+)\+([\d.]+)/.exec(run.stderr ?? '');
  if (run.status !== 0 || !usage)
    throw new Error(
      `${name}: geoshelf ${args.join(' ')} failed (${run.status ?? run.signal}): ${run.stderr.slice(-2000)}`,
    );
  const step = {
    name,
    wall,
    cpu: Number(usage[2]) + Number(usage[3]),
    rssMB: Number(usage[1]) / 1024,
    bytes: bytesUnder(root) - before,
  };
  console.log(
    `${name.padEnd(28)} wall ${step.wall.toFixed(1)} s, CPU ${step.cpu.toFixed(1)} s, peak ${step.rssMB.toFixed(0)} MB, +${(step.bytes / 2 ** 20).toFixed(0)} MiB (load ${load()})`,
  );
  return step;
}

/** Renames the first unit of a country's ADM1 and brings its manifest and preview up to date (setup, not timed). */
async function changeCountry(root: string, iso3: string, mark: string): Promise<void> {
  const folder = join(root, 'data/earth', iso3);
  const path = join(folder, `${iso3}_ADM1.geojson`);
  const text = readFileSync(path, 'utf8');
  writeFileSync(path, text.replace(/"shapeName":"([^"]*)"/, `"shapeName":"$1 ${mark}"`));
  const manifestPath = join(folder, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    datasets: { level: string; path: string }[];
  };
  const stats = await measureGeoJSON(path);
  const { bytes, sha256, features, bbox, geometry_types, properties } = stats;
  manifest.datasets = manifest.datasets.map((d) =>
    d.level === 'ADM1' ? { ...d, bytes, sha256, features, bbox, geometry_types, properties } : d,
  );
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  await geoshelf(['preview', '--root', root, `${iso3}/ADM1`], STEP_TIMEOUT_MS);
}

console.log(`machine: ${cpus().length} cores, ${(totalmem() / GIB).toFixed(0)} GiB, Node ${process.version}`);
console.log(`tree: ${(SIZE / GIB).toFixed(1)} GiB of GeoJSON asked (GB=${SIZE / GIB}); load ${load()}`);
const root = await catalogueTree(SIZE, (line) => console.log(line));
spawnSync('rm', ['-rf', join(root, '.cache'), join(root, 'dist'), join(root, 'data/releases')]);
const data = bytesUnder(join(root, 'data'));
console.log(`data/: ${(data / GIB).toFixed(2)} GiB (levels, parts, previews, manifests)`);
const out = join(root, 'dist');
const build = ['build', '--root', root, '--out', out];
const steps: Step[] = [];
steps.push(timed('cold build', root, build));
steps.push(timed('no-op rebuild', root, build));
await changeCountry(root, 'FRA', 'changed');
steps.push(timed('rebuild, one country changed', root, build));
steps.push(timed('first release', root, ['release', '1.0.0', '--root', root]));
await changeCountry(root, 'DEU', 'changed');
steps.push(timed('release, one country changed', root, ['release', '1.1.0', '--root', root]));
const scale = TARGET / data;
console.log(`\nextrapolated to geoBoundaries' 20 GiB (× ${scale.toFixed(2)}, linear in bytes):`);
for (const s of steps)
  console.log(
    `${s.name.padEnd(28)} wall ${((s.wall * scale) / 60).toFixed(1)} min, CPU ${((s.cpu * scale) / 60).toFixed(1)} min, +${((s.bytes * scale) / GIB).toFixed(1)} GiB`,
  );
