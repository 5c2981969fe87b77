// bench:coverage, second part — what the coverage check adds to a cold
// `validate` of the sample (issue 29: ≤ 20 %). Paired runs of the whole
// command, `validate --no-cache` (A) against `validate --no-cache
// --no-coverage` (B), each pair in alternating order so that neither side
// always runs first, under /usr/bin/time: CPU (user + sys, every thread of
// the process) and wall clock. Prints each pair's A/B, the medians, and the
// ratio of each side's fastest run (the least disturbed on a shared machine).
// PAIRS=N sets the number of pairs (default 7).
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = fileURLToPath(new URL('../bin/geoshelf.js', import.meta.url));
const PAIRS = Number(process.env.PAIRS ?? 7);
const TIMEOUT_MS = 300_000;

interface Run {
  cpu: number; // seconds, user + sys
  wall: number;
  summary: string; // validate's count line
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

/** Runs validate once under /usr/bin/time, with `extra` flags; a hang is killed after TIMEOUT_MS. */
function validate(extra: string[]): Promise<Run> {
  const args = [
    '-f',
    'time=%e %U %S',
    process.execPath,
    CLI,
    'validate',
    '--no-cache',
    '--root',
    ROOT,
    ...extra,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      const m = /time=([\d.]+) ([\d.]+) ([\d.]+)/.exec(stderr);
      // validate exits 0 on warnings alone; the sample has no errors.
      if (!m || code !== 0)
        return reject(new Error(`validate ${extra.join(' ')} failed (${code}): ${stderr}`));
      const lines = stderr.split('\n').filter((l) => l !== '' && !l.startsWith('time='));
      resolve({ wall: Number(m[1]), cpu: Number(m[2]) + Number(m[3]), summary: lines.pop() ?? '' });
    });
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
};

console.log(`bench:coverage (validate) — ${PAIRS} pairs of a cold validate of ${ROOT}data; load ${load()}`);
const a: Run[] = [];
const b: Run[] = [];
for (let pair = 0; pair < PAIRS; pair++) {
  // Alternate which side runs first: the second of a pair finds the files in the page cache too.
  if (pair % 2 === 0) {
    a.push(await validate([]));
    b.push(await validate(['--no-coverage']));
  } else {
    b.push(await validate(['--no-coverage']));
    a.push(await validate([]));
  }
  const [x, y] = [a.at(-1)!, b.at(-1)!];
  console.log(
    `  pair ${pair + 1}: CPU ${x.cpu.toFixed(2)} / ${y.cpu.toFixed(2)} s = ${(x.cpu / y.cpu).toFixed(2)}×, wall ${x.wall.toFixed(2)} / ${y.wall.toFixed(2)} s = ${(x.wall / y.wall).toFixed(2)}×; load ${load()}`,
  );
}
const ratios = (key: 'cpu' | 'wall') => a.map((x, i) => x[key] / b[i]![key]);
for (const key of ['cpu', 'wall'] as const) {
  const r = ratios(key);
  const best = (runs: Run[]) => Math.min(...runs.map((x) => x[key]));
  console.log(
    `  ${key === 'cpu' ? 'CPU ' : 'wall'}: with ${median(a.map((x) => x[key])).toFixed(2)} s, without ${median(b.map((x) => x[key])).toFixed(2)} s; A/B median ${median(r).toFixed(2)}× (pairs ${Math.min(...r).toFixed(2)}–${Math.max(...r).toFixed(2)}×; target ≤ 1.20×); fastest runs ${best(a).toFixed(2)} / ${best(b).toFixed(2)} s = ${(best(a) / best(b)).toFixed(2)}×`,
  );
}
console.log(`  with: ${a[0]!.summary}\n  without: ${b[0]!.summary}\n  load ${load()}`);
