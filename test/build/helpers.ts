// Shared by the build tests: a scratch copy of the fixture tree (builds write
// a .cache/ into their root, which must not land in the repository), file
// snapshots, and sha256.
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURE = fileURLToPath(new URL('../fixtures/build/', import.meta.url));

/** Returns a new temporary folder holding a copy of the fixture's data/ (and nothing else). */
export function fixtureCopy(): string {
  const root = mkdtempSync(join(tmpdir(), 'geoshelf-build-'));
  cpSync(join(FIXTURE, 'data'), join(root, 'data'), { recursive: true });
  return root;
}

/** Returns every file under `dir`, relative with "/" separators, sorted. */
export function filesUnder(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split('\\').join('/'))
    .sort();
}

export function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Returns path → "sha256 size mtimeMs ino" of every file under `dir`: equal snapshots mean untouched files. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const file of filesUnder(dir)) {
    const info = statSync(join(dir, file));
    out[file] = `${sha256(readFileSync(join(dir, file)))} ${info.size} ${info.mtimeMs} ${info.ino}`;
  }
  return out;
}
