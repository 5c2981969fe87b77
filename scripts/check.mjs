// `npm run check` (and the start of `npm test`): the static checks, two at a time
// (the machine has 2 cores and each tool uses one): ESLint, Prettier's check,
// and tsc for the Node code (with bench/ and scripts/), for the browser code,
// and for build/core/shared/ alone (no Node, no DOM). Prints each tool's output in a fixed order, then exits 1
// if any failed. Plain JavaScript so no TypeScript loader is needed to start.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

// Each keeps what it found under .cache/ (ESLint and Prettier by each file's
// content, tsc by its build info), so `npm test`, which runs them first, pays
// for the files changed since the last run, not for the whole tree.
const tsc = (name, project) => [
  '--noEmit',
  '--incremental',
  '--tsBuildInfoFile',
  `.cache/tsc/${name}.tsbuildinfo`,
  ...(project ? ['-p', project] : []),
];
const CHECKS = [
  ['lint', 'eslint', ['--cache', '--cache-strategy', 'content', '--cache-location', '.cache/eslint/', '.']],
  [
    'format',
    'prettier',
    ['--check', '--cache', '--cache-strategy', 'content', '--cache-location', '.cache/prettier', '.'],
  ],
  ['types', 'tsc', tsc('node')],
  ['types (browser code)', 'tsc', tsc('client', 'src/client')],
  ['types (shared code)', 'tsc', tsc('shared', 'build/core/shared')],
];

/** Runs one tool from node_modules/.bin and returns its exit code and output. */
function run([name, bin, args]) {
  return new Promise((resolve) => {
    const child = spawn(`node_modules/.bin/${bin}`, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (error) => resolve({ name, code: 1, output: String(error) }));
    child.on('close', (code) => resolve({ name, code: code ?? 1, output }));
  });
}

const results = new Array(CHECKS.length);
let next = 0;
const worker = async () => {
  while (next < CHECKS.length) {
    const i = next++;
    results[i] = await run(CHECKS[i]);
  }
};
await Promise.all(Array.from({ length: Math.min(2, availableParallelism()) }, worker));
for (const { name, code, output } of results) {
  process.stdout.write(`${code === 0 ? 'ok' : 'FAILED'}: ${name}\n`);
  if (code !== 0 || output.trim()) process.stdout.write(output.replace(/^/gm, '  ').trimEnd() + '\n');
}
process.exitCode = results.some((r) => r.code !== 0) ? 1 : 0;
