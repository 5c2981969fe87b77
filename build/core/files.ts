// Where the tool's own files and a root's cache live, and how folders are
// listed: one place for each path the stages share.
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository folder holding package.json, src/client/, public/ and lib/
 * (the tool's own files, not the data): the nearest folder above this module
 * with a package.json, both for this source file and for the compiled chunk
 * in lib/ that holds it.
 */
export const PACKAGE_DIR = packageDirAbove(dirname(fileURLToPath(import.meta.url)));

function packageDirAbove(dir: string): string {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, 'package.json'))) return at;
    if (dirname(at) === at) throw new Error(`no package.json above ${dir}`);
  }
}

/** A file's identity to a cache: if size and mtime are unchanged, so are its bytes (as the measurer assumes). */
export interface FileStamp {
  size: number;
  mtimeMs: number;
}

/** Whether two stamps say the same file: the same size and modification time. */
export function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/** Returns the cache folder of a run under `root`: `<root>/.cache/geoshelf`. */
export function cacheDir(root: string): string {
  return join(root, '.cache', 'geoshelf');
}

/** Returns every file under `dir` (recursive), as paths relative to it with "/" separators. */
export async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .sort();
}
