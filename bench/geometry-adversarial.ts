// bench:geometry, adversarial shapes (issue 16, section 2): one feature each
// (test/geometry/adversarial.ts: teeth, a square of square holes, holes
// touching at corners, …) at 10k, 100k and 1M vertices, validate's reading
// and checks of the feature against GEOS's is_valid on the same feature,
// measured in the same run. Target: ≤ 2× GEOS at every size.
//
// Ours runs in a child process from a bundle of bench/geometry-adversarial-check.ts
// (as the CLI runs the checks), GEOS in bench/geometry_shapely.py; each with a
// timeout, so a return to quadratic time fails loudly rather than hanging.
// At 1M vertices the three shapes of the issue also run through the CLI,
// `validate --no-cache` on a root holding that one feature, end to end.
// GEOSHELF_BENCH_SIZES=10000,100000 runs fewer sizes.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { measureGeoJSON } from '../build/measure/measure.ts';
import { adversarialShapes, type AdversarialShape } from '../test/geometry/adversarial.ts';

const SIZES = (process.env.GEOSHELF_BENCH_SIZES ?? '10000,100000,1000000').split(',').map(Number);
const DIR = join(tmpdir(), 'geoshelf-bench-geometry-adversarial');
const REPEATS = 3;
const OURS_TIMEOUT_MS = 300_000; // the checks take ~1 s at 1M vertices; a quadratic return takes hours
const GEOS_TIMEOUT_MS = 900_000;
const CLI = fileURLToPath(new URL('../bin/geoshelf.js', import.meta.url));
const SHAPELY = fileURLToPath(new URL('./geometry_shapely.py', import.meta.url));
const CHECK = fileURLToPath(new URL('./geometry-adversarial-check.ts', import.meta.url));
const CLI_SHAPES = ['teeth', 'square with square holes', 'holes touching at corners'];

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

/** Writes the shape at this size as a one-feature FeatureCollection (once; kept for later runs). */
function ensureFile(shape: AdversarialShape, vertices: number): string {
  const path = join(DIR, `${shape.name.replaceAll(' ', '-')}-${vertices}.geojson`);
  if (existsSync(path)) return path;
  const feature = { type: 'Feature', properties: { name: shape.name }, geometry: shape.make(vertices) };
  writeFileSync(`${path}.tmp`, `{"type":"FeatureCollection","features":[\n${JSON.stringify(feature)}\n]}\n`);
  renameSync(`${path}.tmp`, path);
  return path;
}

interface Timing {
  seconds: number; // best wall time
  cpu: number; // best CPU time
  first?: number; // ours: the first (cold) run
  read?: number; // reading the feature: its positions from its bytes (ours), json.load + shape() (GEOS)
  positions?: number;
  verdict: string;
}

/** Runs a child with a timeout; returns its stdout, or a reason it failed. */
function run(command: string, args: string[], timeout: number): { out?: string; failed?: string } {
  const child = spawnSync(command, args, { encoding: 'utf8', timeout, killSignal: 'SIGKILL' });
  if (child.error && (child.error as NodeJS.ErrnoException).code === 'ETIMEDOUT')
    return { failed: `TIMEOUT after ${timeout / 1000} s` };
  if (child.status !== 0) return { failed: `exit ${child.status ?? child.signal}: ${child.stderr.trim()}` };
  return { out: child.stdout };
}

function ours(script: string, path: string): Timing | string {
  const { out, failed } = run(process.execPath, [script, path, String(REPEATS)], OURS_TIMEOUT_MS);
  if (failed) return failed;
  const r = JSON.parse(out!) as {
    first: number;
    best: number;
    bestCpu: number;
    read: number;
    positions: number;
    issue: string;
  };
  return {
    seconds: r.best,
    cpu: r.bestCpu,
    first: r.first,
    read: r.read,
    positions: r.positions,
    verdict: r.issue,
  };
}

function geos(path: string): Timing | string {
  const { out, failed } = run(
    '/usr/bin/python3',
    [SHAPELY, path, '--best-of', String(REPEATS)],
    GEOS_TIMEOUT_MS,
  );
  if (failed) return failed;
  const r = JSON.parse(out!) as {
    seconds: number;
    cpu_seconds: number;
    invalid: number;
    load_seconds: number;
  };
  return {
    seconds: r.seconds,
    cpu: r.cpu_seconds,
    read: r.load_seconds,
    verdict: r.invalid === 0 ? 'valid' : 'invalid',
  };
}

/** Returns a root whose one manifest lists a copy of `path` as an ADM0 with its stats (made once). */
async function ensureRoot(path: string): Promise<string> {
  const root = `${path.slice(0, -'.geojson'.length)}-root`;
  const data = 'data/earth/ABW/ABW_ADM0.geojson';
  const manifestPath = join(root, 'data/earth/ABW/manifest.json');
  if (existsSync(manifestPath)) return root;
  mkdirSync(join(root, 'data/earth/ABW'), { recursive: true });
  copyFileSync(path, join(root, data));
  const stats = await measureGeoJSON(join(root, data));
  const manifest = {
    schema_version: 1,
    body: 'earth',
    iso_a3: 'ABW',
    name: { en: 'Aruba', es: 'Aruba' },
    crs: { authority: 'OGC', code: 'CRS84', epsg: 4326 },
    status: 'ok',
    source: {
      name: 'bench:geometry',
      url: 'https://example.org/bench',
      license: 'CC0-1.0',
      retrieved: '2026-11-22',
    },
    datasets: [{ level: 'ADM0', path: data, ...stats, license: 'CC0-1.0' }],
  };
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  return root;
}

/** Runs `validate --no-cache` on `root` under /usr/bin/time; returns e.g. "1.02 s, peak RSS 150 MB: 0 problems". */
function validateCli(root: string): string {
  const child = spawnSync(
    '/usr/bin/time',
    ['-f', 'time=%e maxrss=%M', process.execPath, CLI, 'validate', '--no-cache', '--root', root],
    { encoding: 'utf8', timeout: OURS_TIMEOUT_MS, killSignal: 'SIGKILL' },
  );
  const m = /time=([\d.]+) maxrss=(\d+)/.exec(child.stderr ?? '');
  if (!m) return `failed (${child.error?.message ?? child.status}): ${child.stderr}`;
  const said = child.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('time='));
  return `${Number(m[1]).toFixed(2)} s, peak RSS ${(Number(m[2]) / 1024).toFixed(0)} MB, exit ${child.status}${said.length > 0 ? `: ${said.pop()}` : ''}`;
}

const ms = (seconds: number) => `${(seconds * 1000).toFixed(seconds < 0.1 ? 1 : 0)} ms`;

async function main(): Promise<void> {
  console.log(`bench:geometry, adversarial shapes — ${new Date().toISOString()}, load ${load()}`);
  mkdirSync(DIR, { recursive: true });
  const script = join(DIR, 'check.cjs');
  // Bundled with esbuild as bin/compile.js bundles the CLI's workers (no TypeScript loader in the timing).
  await build({
    entryPoints: [CHECK],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile: script,
    logLevel: 'error',
  });
  console.log(
    `ours: validate's checks of the feature (bundled, its own process), best of ${REPEATS} once warm [the first, cold run; reading its positions]; GEOS: shapely is_valid, best of ${REPEATS} (its loading apart, as our reading); wall clock, and CPU time`,
  );
  let met = 0;
  let missed = 0;
  const geosAt = new Map<string, Timing>(); // by path
  for (const shape of adversarialShapes) {
    for (const vertices of SIZES) {
      const path = ensureFile(shape, vertices);
      const a = ours(script, path);
      const geosRuns = vertices <= (shape.geosUpTo ?? Infinity);
      const b = geosRuns
        ? geos(path)
        : `not run: quadratic in GEOS (see ${shape.geosUpTo!.toLocaleString('en')})`;
      const name = `${shape.name} ${vertices.toLocaleString('en')}`.padEnd(36);
      if (typeof a === 'string') {
        missed++;
        console.log(`  MISSED ${name} ours: ${a}`);
        continue;
      }
      const oursText = `${ms(a.seconds)} [${ms(a.first!)}; ${ms(a.read!)}] cpu ${ms(a.cpu)}`;
      if (typeof b === 'string') {
        console.log(
          `         ${name} ${a.positions!.toLocaleString('en')} positions, ours ${oursText}; GEOS ${b}`,
        );
        continue;
      }
      geosAt.set(path, b);
      const ratio = a.seconds / b.seconds;
      const ok = ratio <= 2 && (a.verdict === 'valid') === (b.verdict === 'valid');
      if (ok) met++;
      else missed++;
      console.log(
        `  ${ok ? 'MET   ' : 'MISSED'} ${name} ${a.positions!.toLocaleString('en')} positions, ours ${oursText}, GEOS ${ms(b.seconds)} cpu ${ms(b.cpu)}: ${ratio.toFixed(2)}× (cpu ${(a.cpu / b.cpu).toFixed(2)}×)${a.verdict === 'valid' && b.verdict === 'valid' ? '' : ` verdicts: ${a.verdict} / ${b.verdict}`}`,
      );
    }
  }
  if (SIZES.includes(1_000_000)) {
    console.log(
      'validate --no-cache end to end on a root holding one 1M-vertex feature (start-up, measuring and hashing included), beside shapely reading the file and GEOS checking it:',
    );
    for (const name of CLI_SHAPES) {
      const path = ensureFile(
        adversarialShapes.find((s) => s.name === name)!,
        1_000_000,
      );
      const b = geosAt.get(path);
      const theirs = b
        ? `; shapely json.load + shape() ${b.read!.toFixed(2)} s, GEOS is_valid ${b.seconds.toFixed(2)} s`
        : '';
      console.log(`  ${name}: ${validateCli(await ensureRoot(path))}${theirs}`);
    }
  }
  console.log(`target ≤ 2× GEOS: met ${met}, missed ${missed} (load now ${load()})`);
}

await main();
