// Shared by the manifest tests: temp copies of fixture trees and running the CLI.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const FIXTURES = new URL('../fixtures/manifests/', import.meta.url).pathname;
const BIN = new URL('../../bin/geoshelf.js', import.meta.url).pathname;
const TMP = '/tmp/geoshelf-manifests-tests';

/** Returns a fresh temp folder holding a copy of `from` (a folder that holds data/). */
export function tempCopy(from: string): string {
  mkdirSync(TMP, { recursive: true });
  const root = mkdtempSync(join(TMP, 'tree-'));
  cpSync(join(from, 'data'), join(root, 'data'), { recursive: true });
  return root;
}

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

/** Returns the non-empty lines of `text`. */
export function lines(text: string): string[] {
  return text.split('\n').filter(Boolean);
}
