// Shared by tests that run the real CLI on temp copies of fixture trees.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** The CLI entry point, run as `node BIN …`. */
export const BIN = new URL('../../bin/geoshelf.js', import.meta.url).pathname;

/** Runs `geoshelf ARGS…` and returns its exit code, stdout and stderr. */
export async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)('node', [BIN, ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Returns a fresh folder under `tmp` holding a copy of `from`'s data/ (`from` is a folder that holds data/). */
export function copyDataTree(from: string, tmp: string): string {
  mkdirSync(tmp, { recursive: true });
  const root = mkdtempSync(join(tmp, 'tree-'));
  cpSync(join(from, 'data'), join(root, 'data'), { recursive: true });
  return root;
}
