// `npm run bench:large-level`: issue 28's memory bound, at a level of
// SIZE_GIB GiB (default 1; the issue asks for 1 and 4). A cold build's peak
// RSS must stay within the largest level's file size + 300 MB, whatever that
// size is. The tree (bench/catalogue-data.ts' generator, kept in /tmp) is one
// Canada-shaped country: an ADM0 of SIZE/64, the ADM1 of SIZE (16 units, as
// geoBoundaries' Canada ADM1 is 13 units in 610 MB), an ADM2 of SIZE/8 split
// into parts, and every level's preview (setup, not timed).
// The cold build runs in a child process (no cache, no dist/) that tells
// this process each stage as it starts; this process reads the child's RSS
// from /proc every 100 ms (worker threads included) and reports, per stage,
// wall time, CPU time and peak RSS, then the whole build's against the bound.
// A child past CAP_MB (default three quarters of the machine's memory) is
// killed, and the stage it was in reported: the benchmark must not take the
// machine down to show that the bound is missed.
import { fork } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { buildCatalogue } from '../build/build.ts';
import { countries, writeCountry, type PlannedLevel } from './catalogue-data.ts';
import { geoshelf } from './formats-data.ts';

const MIB = 2 ** 20;
const GIB = 2 ** 30;
/** The bound's allowance over the largest level (issue 28 §1). */
const ALLOWANCE = 300 * MIB;
/** Setup (generating, splitting, previews) and the build each must finish within this. */
const TIMEOUT_MS = 3 * 60 * 60_000;
const SAMPLE_MS = 100;

/** What the child tells this process. */
type Message = { stage: string; cpu: number } | { done: true; cpu: number; maxRSS: number };

/** The child: one cold build of the tree at argv[3], each stage announced with the CPU seconds so far. */
async function child(root: string): Promise<void> {
  rmSync(join(root, '.cache'), { recursive: true, force: true });
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  const cpu = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1e6;
  };
  let stage = '';
  const result = await buildCatalogue({
    root,
    out: join(root, 'dist'),
    onProgress: (name) => {
      if (name === stage) return;
      stage = name;
      process.send!({ stage: name, cpu: cpu() } satisfies Message);
    },
  });
  if (!result.ok) throw new Error('the build failed');
  process.send!({ done: true, cpu: cpu(), maxRSS: process.resourceUsage().maxRSS * 1024 } satisfies Message);
  process.disconnect();
}

/** Returns the tree's root, generating it on first use. */
async function largeTree(size: number): Promise<string> {
  const tree = `/tmp/geoshelf-bench-large-level/tree-v1-${Math.round(size / MIB)}MiB`;
  if (existsSync(join(tree, '.complete'))) return tree;
  rmSync(tree, { recursive: true, force: true });
  const country = countries().find((c) => c.iso3 === 'CAN')!;
  const levels: PlannedLevel[] = [
    { country, level: 'ADM0', bytes: size / 64 },
    { country, level: 'ADM1', bytes: size },
    { country, level: 'ADM2', bytes: size / 8 },
  ];
  const made = await writeCountry(tree, country, levels, 1);
  console.log(
    `generated ${made.datasets.map((d) => `${d.level} ${(d.bytes / MIB).toFixed(0)} MiB`).join(', ')}`,
  );
  await geoshelf(['split', '--level', 'ADM2', '--root', tree, 'CAN'], TIMEOUT_MS);
  await geoshelf(['preview', '--root', tree], TIMEOUT_MS);
  writeFileSync(join(tree, '.complete'), '');
  return tree;
}

/** Returns a process's resident set, bytes, from /proc (0 once it is gone). */
function rssOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

interface Stage {
  name: string;
  started: number; // ms
  cpu: number; // CPU seconds at its start
  peak: number; // bytes
}

/** Prints a stage's line as it ends (at `ended` ms, `cpu` CPU seconds), marking a peak over `bound`. */
function report(stage: Stage, ended: number, cpu: number, bound: number): void {
  const over = stage.peak > bound ? '  over the bound' : '';
  console.log(
    `  ${stage.name.padEnd(36)} ${((ended - stage.started) / 1000).toFixed(1).padStart(7)} s wall ` +
      `${(cpu - stage.cpu).toFixed(1).padStart(7)} s CPU ${(stage.peak / MIB).toFixed(0).padStart(6)} MiB${over}`,
  );
}

/**
 * Runs the child's cold build of `root`, sampling its RSS, and prints each
 * stage as it ends (a long run shows where it is); returns its totals.
 */
function coldBuild(root: string, cap: number, bound: number) {
  return new Promise<{ wall: number; cpu: number; maxRSS: number }>((resolve, reject) => {
    const started = performance.now();
    const build = fork(import.meta.filename, ['--child', root], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    let stage: Stage = { name: 'starting', started, cpu: 0, peak: 0 };
    let done: Extract<Message, { done: true }> | undefined;
    let killed = '';
    const sampler = setInterval(() => {
      const rss = rssOf(build.pid!);
      stage.peak = Math.max(stage.peak, rss);
      if (rss > cap && !killed) {
        killed = `RSS ${(rss / MIB).toFixed(0)} MiB passed the cap of ${(cap / MIB).toFixed(0)} MiB in "${stage.name}": killed`;
        build.kill('SIGKILL');
      }
    }, SAMPLE_MS);
    const timer = setTimeout(() => {
      killed = `still running after ${TIMEOUT_MS / 60_000} min: killed (a hang?)`;
      build.kill('SIGKILL');
    }, TIMEOUT_MS);
    build.on('message', (message: Message) => {
      const now = performance.now();
      report(stage, now, message.cpu, bound);
      if ('done' in message) done = message;
      else stage = { name: message.stage, started: now, cpu: message.cpu, peak: 0 };
    });
    build.on('exit', (code) => {
      clearInterval(sampler);
      clearTimeout(timer);
      const wall = performance.now() - started;
      if (killed || code !== 0 || !done) reject(new Error(`the cold build: ${killed || `exit ${code}`}`));
      else resolve({ wall, cpu: done.cpu, maxRSS: done.maxRSS });
    });
  });
}

async function main(): Promise<void> {
  const size = Number(process.env.SIZE_GIB ?? 1) * GIB;
  const cap = Number(process.env.CAP_MB ?? (0.75 * totalmem()) / MIB) * MIB;
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
  const root = await largeTree(size);
  const level = join(root, 'data/earth/CAN/CAN_ADM1.geojson');
  const largest = statSync(level).size;
  const bound = largest + ALLOWANCE;
  console.log(
    `bench:large-level: CAN_ADM1.geojson ${(largest / MIB).toFixed(0)} MiB, bound ${(bound / MIB).toFixed(0)} MiB; ` +
      `${cpus().length} cores, load ${load()}`,
  );
  console.log('cold build, by stage (peak RSS of the whole process, every thread, sampled every 100 ms):');
  const { wall, cpu, maxRSS } = await coldBuild(root, cap, bound);
  const met = maxRSS <= bound ? 'met' : 'MISSED';
  console.log(
    `whole build: ${(wall / 1000).toFixed(1)} s wall, ${cpu.toFixed(1)} s CPU, peak RSS ${(maxRSS / MIB).toFixed(0)} MiB ` +
      `against the bound of ${(bound / MIB).toFixed(0)} MiB (level + 300 MiB): ${met}; load after ${load()}`,
  );
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  rmSync(join(root, '.cache'), { recursive: true, force: true });
}

if (process.argv[2] === '--child') await child(process.argv[3]);
else await main();
