// bench:nesting — what validate's nesting check (units against their parent
// level, build/identity/nesting.ts) adds to `validate`, cold (no caches) and
// warm (every cache filled by a run before), on the sample data/ and on
// bench:geometry's real-shaped tree (a 1 MB ADM0, a 200 MB ADM1 on one line,
// a 100 MB ADM2; generated once, or GEOSHELF_BENCH_MB=50 for a smaller one).
// The baseline is the same validate without the check (nesting: false),
// measured in the same run, interleaved; the fastest run of each is
// compared. Target: warm validate within 1.1× of the baseline; cold is reported.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GeometryChecker } from '../build/geometry/cache.ts';
import { NestingChecker } from '../build/identity/nesting-cache.ts';
import { validateManifests } from '../build/manifest/validate.ts';
import { MeasurementCache } from '../build/measure/cache.ts';
import { ensureCountry } from './geometry-data.ts';

const MB = Number(process.env.GEOSHELF_BENCH_MB ?? 200);
const SAMPLE = fileURLToPath(new URL('../data/..', import.meta.url));
const TREE = join(tmpdir(), `geoshelf-bench-geometry-country-${MB}mb`);
const REPEATS = 3; // cold runs; warm ones are short, and run WARM_REPEATS times
const WARM_REPEATS = 7;

/** Runs validate once on `root`; `cache`: the folder of its cache files (warm), or none (cold). */
async function validateOnce(
  root: string,
  nesting: boolean,
  cache?: string,
): Promise<{ ms: number; warnings: number }> {
  const file = (name: string) => (cache ? { cacheFile: join(cache, name) } : {});
  const measurer = new MeasurementCache(file('measurements.json'));
  const geometry = new GeometryChecker(file('geometry.json'));
  const checker = nesting ? new NestingChecker(file('nesting.json')) : false;
  const started = performance.now();
  const { problems } = await validateManifests(root, { measurer, geometry, nesting: checker });
  await measurer.save();
  await geometry.save();
  if (checker) await checker.save();
  const ms = performance.now() - started;
  return { ms, warnings: problems.filter((p) => p.rule === 'nesting').length };
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

// The fastest of the runs: on a shared machine, the one least disturbed by the others' load.
const best = (xs: number[]) => Math.min(...xs);

async function benchRoot(label: string, root: string): Promise<void> {
  const cache = mkdtempSync(join(tmpdir(), 'geoshelf-bench-nesting-'));
  try {
    await validateOnce(root, true, cache); // fills every cache, the nesting one included
    const runs = {
      cold: [] as number[],
      coldBase: [] as number[],
      warm: [] as number[],
      warmBase: [] as number[],
    };
    let warnings = 0;
    for (let k = 0; k < REPEATS; k++) {
      runs.coldBase.push((await validateOnce(root, false)).ms);
      const cold = await validateOnce(root, true);
      runs.cold.push(cold.ms);
      warnings = cold.warnings;
    }
    for (let k = 0; k < WARM_REPEATS; k++) {
      runs.warmBase.push((await validateOnce(root, false, cache)).ms);
      runs.warm.push((await validateOnce(root, true, cache)).ms);
    }
    const line = (what: string, base: number[], withCheck: number[]) =>
      `  ${what}: ${best(withCheck).toFixed(0)} ms with the check vs ${best(base).toFixed(0)} ms without = ${(best(withCheck) / best(base)).toFixed(2)}×`;
    console.log(`${label} (${warnings} nesting warnings), load ${load()}:`);
    console.log(line('cold', runs.coldBase, runs.cold));
    const warm = best(runs.warm) / best(runs.warmBase);
    console.log(
      `${line('warm', runs.warmBase, runs.warm)} (target ≤ 1.1×: ${warm <= 1.1 ? 'met' : 'missed'})`,
    );
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  console.log(
    `bench:nesting — ${new Date().toISOString()}, ${cpus().length} cores, Node ${process.version}, load ${load()}`,
  );
  await benchRoot('sample data/', SAMPLE);
  await ensureCountry(TREE, MB * 1e6, 2026);
  await benchRoot(`bench:geometry's tree (${MB} MB ADM1)`, TREE);
}

await main();
