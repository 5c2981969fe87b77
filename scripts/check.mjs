// `npm run check`: the static checks CI runs before the tests, two at a time
// (the machine has 2 cores and each tool uses one): ESLint, Prettier's check,
// and tsc for the Node code (with bench/ and scripts/), for the browser code,
// and for build/core/shared/ alone (no Node, no DOM). Prints each tool's output in a fixed order, then exits 1
// if any failed. Plain JavaScript so no TypeScript loader is needed to start.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const CHECKS = [
  ['lint', 'eslint', ['.']],
  ['format', 'prettier', ['--check', '.']],
  ['types', 'tsc', ['--noEmit']],
  ['types (browser code)', 'tsc', ['--noEmit', '-p', 'src/client']],
  ['types (shared code)', 'tsc', ['--noEmit', '-p', 'build/core/shared']],
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
