// Shared by tests that run the CLI: in-process (fast: the same main() the
// binary calls, with its output captured) or, for the few end-to-end tests
// per command, as a real child process.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format, promisify } from 'node:util';
import { main } from '../../src/cli/main.ts';

/** The CLI entry point, run as `node BIN …`. */
export const BIN = new URL('../../bin/geoshelf.js', import.meta.url).pathname;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `geoshelf ARGS…` in this process (main() with console and the
 * standard streams captured) and returns its exit code, stdout and stderr.
 * Calls must not overlap: the capture is process-wide.
 */
export async function cli(...args: string[]): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const saved = {
    log: console.log,
    error: console.error,
    warn: console.warn,
    stdout: process.stdout.write,
    stderr: process.stderr.write,
  };
  console.log = (...a: unknown[]) => void out.push(`${format(...a)}\n`);
  console.error = console.warn = (...a: unknown[]) => void err.push(`${format(...a)}\n`);
  process.stdout.write = ((chunk: string | Uint8Array) =>
    out.push(String(chunk)) > 0) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) =>
    err.push(String(chunk)) > 0) as typeof process.stderr.write;
  try {
    const code = await main(args);
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    Object.assign(console, { log: saved.log, error: saved.error, warn: saved.warn });
    process.stdout.write = saved.stdout;
    process.stderr.write = saved.stderr;
  }
}

/** How long a child process may run before a test calls it hung (only to catch a hang: no test asserts on time). */
export const CHILD_BOUND_MS = 120_000;

/**
 * Runs `node BIN ARGS…` as a child process: for end-to-end tests of the
 * binary itself. Throws if it has not exited by itself within `timeoutMs`
 * (it is killed then): every command must exit after its work.
 */
export async function cliProcess(...args: string[]): Promise<CliResult> {
  return cliProcessWith({}, ...args);
}

/** cliProcess with options: `cwd`, `timeoutMs` (default CHILD_BOUND_MS). */
export async function cliProcessWith(
  { cwd, timeoutMs = CHILD_BOUND_MS }: { cwd?: string; timeoutMs?: number },
  ...args: string[]
): Promise<CliResult> {
  try {
    const { stdout, stderr } = await promisify(execFile)('node', [BIN, ...args], {
      cwd,
      timeout: timeoutMs,
      killSignal: 'SIGKILL',
      maxBuffer: 64 << 20,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number | null; signal: string | null; stdout: string; stderr: string };
    if (e.signal === 'SIGKILL') {
      throw new Error(
        `geoshelf ${args.join(' ')} did not exit within ${timeoutMs / 1000} s (killed)\n${e.stderr}`,
        { cause: error },
      );
    }
    return { code: e.code ?? -1, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Returns a fresh folder under `tmp` holding a copy of `from`'s data/ (`from` is a folder that holds data/). */
export function copyDataTree(from: string, tmp: string): string {
  mkdirSync(tmp, { recursive: true });
  const root = mkdtempSync(join(tmp, 'tree-'));
  cpSync(join(from, 'data'), join(root, 'data'), { recursive: true });
  return root;
}

/**
 * Returns a fresh folder under `tmp` holding a copy of the whole root `from`
 * (its data/, ledger and caches): for a tree made once in a file (released,
 * edited) that each test then changes on its own copy.
 */
export function copyRoot(from: string, tmp: string): string {
  mkdirSync(tmp, { recursive: true });
  const root = mkdtempSync(join(tmp, 'root-'));
  cpSync(from, root, { recursive: true });
  return root;
}

/**
 * Edits a level file under `root` (a string replacement, e.g. a unit renamed)
 * and does what a publisher does next (docs/manifests.md): `manifest ISO3`,
 * then `preview ISO3/LEVEL`, so that the tree validates and can be released.
 * `file`: e.g. "data/earth/CHL/CHL_ADM1.geojson".
 */
export async function editLevel(root: string, file: string, from: string, to: string): Promise<void> {
  const path = join(root, file);
  const text = readFileSync(path, 'utf8');
  if (!text.includes(from)) throw new Error(`${file} does not hold ${from}`);
  writeFileSync(path, text.replace(from, to));
  const [, , iso, name] = file.split('/'); // e.g. ["data", "earth", "CHL", "CHL_ADM1.geojson"]
  const level = /_(ADM[0-5]|QUAD)\.geojson$/.exec(name!)![1]!;
  for (const args of [
    ['manifest', iso!],
    ['preview', `${iso}/${level}`],
  ]) {
    const r = await cli(args[0]!, '--root', root, ...args.slice(1));
    if (r.code !== 0) throw new Error(`geoshelf ${args.join(' ')}: ${r.stderr}`);
  }
}
