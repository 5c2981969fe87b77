// `npm run check` (and the start of `npm test`): the static checks, two at a time
// (the machine has 2 cores and each tool uses one): ESLint, Prettier's check,
// tsc for the Node code (with bench/ and scripts/), for the browser code,
// and for build/core/shared/ alone (no Node, no DOM), and knip (unused exports,
// files and dependencies). Prints each tool's output in a fixed order, then exits 1
// if any failed. Plain JavaScript so no TypeScript loader is needed to start.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';

// Each keeps what it found under .cache/ (ESLint and Prettier by each file's
// content, tsc by its build info, knip by each file's parse), so a run pays
// for the files changed since the last one, not for the whole tree. Even so a
// tool with nothing to do costs 1–8 s of a core to start and read its inputs
// (tsc parses every file to hash it): a tool whose inputs are all as they were at its last clean run is
// not started at all (STAMPS below).
const tsc = (name, project) => [
  '--noEmit',
  '--incremental',
  '--tsBuildInfoFile',
  `.cache/tsc/${name}.tsbuildinfo`,
  ...(project ? ['-p', project] : []),
];
const SCRIPT = /\.(?:[cm]?[jt]sx?|json)$/;
/** Whatever the tools' versions and plugins depend on: npm rewrites this file on every install. */
const INSTALLED = ['package.json', 'package-lock.json', 'node_modules/.package-lock.json'];
// name, tool, arguments, and which of the repository's files are its inputs
// (a tsc project also reads what its build info lists: node_modules' types).
const CHECKS = [
  {
    name: 'lint',
    bin: 'eslint',
    args: ['--cache', '--cache-strategy', 'content', '--cache-location', '.cache/eslint/', '.'],
    inputs: (file) => SCRIPT.test(file),
  },
  {
    name: 'format',
    bin: 'prettier',
    args: ['--check', '--cache', '--cache-strategy', 'content', '--cache-location', '.cache/prettier', '.'],
    inputs: () => true,
  },
  { name: 'types', bin: 'tsc', args: tsc('node'), inputs: (file) => SCRIPT.test(file), buildInfo: 'node' },
  {
    name: 'types (browser code)',
    bin: 'tsc',
    args: tsc('client', 'src/client'),
    inputs: (file) => SCRIPT.test(file) && /^(?:src\/client|build\/core\/shared)\//.test(file),
    buildInfo: 'client',
  },
  {
    // Exports nothing imports, files nothing loads, dependencies nothing uses (knip.jsonc names the
    // entry points); the config hints too, so an ignore or entry that is no longer needed fails.
    name: 'unused code',
    bin: 'knip',
    args: ['--no-progress', '--treat-config-hints-as-errors', '--cache', '--cache-location', '.cache/knip'],
    inputs: (file) => SCRIPT.test(file) || /\.(?:jsonc|ya?ml)$/.test(file), // with CI's workflows
  },
  {
    name: 'types (shared code)',
    bin: 'tsc',
    args: tsc('shared', 'build/core/shared'),
    inputs: (file) => SCRIPT.test(file) && file.startsWith('build/core/shared/'),
    buildInfo: 'shared',
  },
];

/** check name → the fingerprint of its inputs when it last passed. */
const STAMPS = '.cache/check/passed.json';

/**
 * Returns the repository's files that git tracks or would track (new files
 * included, ignored ones not: node_modules/, lib/, .cache/), or undefined
 * outside a git work tree (then every tool runs).
 */
function repositoryFiles() {
  const git = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  if (git.status !== 0 || git.error) return undefined;
  return [...new Set(git.stdout.split('\0').filter(Boolean))];
}

/** Returns the files a tsc project read last time (its build info's list: sources and node_modules' types). */
function filesRead(buildInfo) {
  const file = `.cache/tsc/${buildInfo}.tsbuildinfo`;
  try {
    const { fileNames } = JSON.parse(readFileSync(file, 'utf8'));
    return Array.isArray(fileNames) ? fileNames.map((name) => relative('.', join(dirname(file), name))) : [];
  } catch {
    return []; // no build info yet: the tool runs, since no stamp can match either
  }
}

/**
 * Returns a fingerprint of a check's inputs: the tool and its arguments, and
 * each input file's path, size and modification time (a file edited, added,
 * removed or checked out changes it), as tsc --build and make judge staleness;
 * and the newest modification time among them. Undefined when the inputs
 * cannot be listed.
 */
function fingerprint(check, files) {
  if (!files) return undefined;
  const inputs = new Set([...files.filter(check.inputs), ...INSTALLED]);
  if (check.buildInfo) for (const file of filesRead(check.buildInfo)) inputs.add(file);
  const hash = createHash('sha256').update(JSON.stringify([process.version, check.bin, check.args]));
  let newest = 0;
  for (const file of [...inputs].sort()) {
    const info = statSync(file, { throwIfNoEntry: false });
    hash.update(`${file}\0${info ? `${info.size} ${info.mtimeMs} ${info.isFile()}` : 'none'}\n`);
    newest = Math.max(newest, info?.mtimeMs ?? 0);
  }
  return { print: hash.digest('hex'), newest };
}

function readStamps() {
  try {
    const stamps = JSON.parse(readFileSync(STAMPS, 'utf8'));
    return stamps && typeof stamps === 'object' && !Array.isArray(stamps) ? stamps : {};
  } catch {
    return {};
  }
}

/** Runs one tool from node_modules/.bin and returns its exit code, output and wall time. */
function run({ name, bin, args }) {
  const start = performance.now();
  return new Promise((resolve) => {
    const child = spawn(`node_modules/.bin/${bin}`, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const done = (code) => resolve({ name, code, output, seconds: (performance.now() - start) / 1000 });
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (error) => {
      output += String(error);
      done(1);
    });
    child.on('close', (code) => done(code ?? 1));
  });
}

/**
 * Runs the checks whose inputs changed since they last passed, two at a time,
 * and returns each one's result in CHECKS' order. A check that passes is
 * stamped with its inputs as they are after the run (a tsc project's build
 * info then lists what it read), unless one of them changed after the run
 * began (allowing for coarse file times): the tool may have read it before.
 */
async function runChanged(stamps) {
  const files = repositoryFiles();
  const results = new Array(CHECKS.length);
  const pending = [];
  for (const [i, check] of CHECKS.entries()) {
    const before = fingerprint(check, files);
    if (before && stamps[check.name] === before.print) results[i] = { code: 0, skipped: true };
    else pending.push(i);
  }
  const worker = async () => {
    for (let i = pending.shift(); i !== undefined; i = pending.shift()) {
      const began = Date.now();
      const result = await run(CHECKS[i]);
      const after = fingerprint(CHECKS[i], files);
      delete stamps[CHECKS[i].name];
      if (result.code === 0 && after && after.newest < began - 2000) stamps[CHECKS[i].name] = after.print;
      results[i] = result;
    }
  };
  await Promise.all(Array.from({ length: Math.min(2, availableParallelism()) }, worker));
  return results;
}

const stamps = readStamps();
const results = await runChanged(stamps);
for (const [i, { code, output = '', seconds, skipped }] of results.entries()) {
  const how = skipped ? 'inputs unchanged since it last passed' : `${seconds.toFixed(1)} s`;
  process.stdout.write(`${code === 0 ? 'ok' : 'FAILED'}: ${CHECKS[i].name} (${how})\n`);
  if (code !== 0 || output.trim()) process.stdout.write(output.replace(/^/gm, '  ').trimEnd() + '\n');
}
mkdirSync(dirname(STAMPS), { recursive: true });
writeFileSync(`${STAMPS}.tmp`, JSON.stringify(stamps, null, 1));
renameSync(`${STAMPS}.tmp`, STAMPS);
process.exitCode = results.some((r) => r.code !== 0) ? 1 : 0;
