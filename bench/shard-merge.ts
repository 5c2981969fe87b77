// `npm run bench:shard-merge`: the merge of a sharded build (issue 28 §3)
// against a single cold build of the sample. Builds the N shards (N from
// SHARDS, default 4), each in a fresh copy of data/ (a machine of its own:
// no cache), then R pairs (ROUNDS, default 3) of: a cold `geoshelf build` in
// a fresh root, and `geoshelf build --merge` of the shards into a fresh
// folder (a merge keeps no cache). Every run is a process of its own, timed
// from start to exit; the load average is printed with each. Target: the
// merge ≤ 10 % of the cold build.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const BIN = new URL('../bin/geoshelf.js', import.meta.url).pathname;
const DATA = new URL('../data', import.meta.url).pathname;
const N = Number(process.env.SHARDS ?? 4);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const scratch = mkdtempSync(join(tmpdir(), 'geoshelf-bench-merge-'));

/** Returns a fresh root holding a copy of the sample's data/. */
function freshRoot(name: string): string {
  const root = join(scratch, name);
  cpSync(DATA, join(root, 'data'), { recursive: true });
  return root;
}

/** Runs geoshelf with `args` and returns its wall time in seconds. */
function timed(...args: string[]): number {
  const started = performance.now();
  execFileSync('node', [BIN, ...args, '--quiet'], { stdio: ['ignore', 'ignore', 'inherit'] });
  return (performance.now() - started) / 1000;
}

const load = () => loadavg()[0]!.toFixed(1);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

try {
  const dirs: string[] = [];
  for (let k = 1; k <= N; k++) {
    const dir = join(scratch, `shard-${k}`);
    const s = timed('build', '--root', freshRoot(`machine-${k}`), '--shard', `${k}/${N}`, '--out', dir);
    console.log(`shard ${k}/${N}: ${s.toFixed(2)} s (load ${load()})`);
    dirs.push(dir);
  }
  const ratios: number[] = [];
  for (let r = 1; r <= ROUNDS; r++) {
    const root = freshRoot(`single-${r}`);
    const cold = timed('build', '--root', root, '--out', join(root, 'dist'));
    const loadCold = load();
    const merge = timed('build', '--merge', ...dirs, '--out', join(scratch, `merged-${r}`));
    ratios.push(merge / cold);
    console.log(
      `pair ${r}: cold build ${cold.toFixed(2)} s (load ${loadCold}), merge of ${N} shards ${merge.toFixed(2)} s (load ${load()}): ${((100 * merge) / cold).toFixed(1)} %`,
    );
    rmSync(root, { recursive: true, force: true });
    rmSync(join(scratch, `merged-${r}`), { recursive: true, force: true });
  }
  console.log(`median merge / cold build: ${(100 * median(ratios)).toFixed(1)} % (target ≤ 10 %)`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
