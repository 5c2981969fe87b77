// Where the tool's own files and a root's cache live, and how folders are
// listed: one place for each path the stages share.
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository folder holding src/client/ and public/ (the tool's own files, not the data). */
export const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));

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
