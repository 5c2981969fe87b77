// The no-op fast path of `geoshelf build`: when the tool's code, the options
// and every manifest's text are those of the last successful build into the
// same folder, and every data file and output still has the size, mtime and
// inode recorded then, the previous dist/ is already the result. Nothing is
// validated, read or written again (the measurer cache makes the same
// size-and-mtime assumption about data files).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { linkTarget } from './write-dist.ts';
import type { BuildCache } from './build-cache.ts';
import { codeVersion, LIB_DIR } from '../core/compiled.ts';
import { listFiles, PACKAGE_DIR, sameStamp, type FileStamp } from '../core/files.ts';

/**
 * Returns a hash of everything a build's output depends on, except the data
 * files' bytes: the compiled code (lib/'s record of its sources), public/,
 * world-countries' version, the options, and the path and text of every
 * manifest under `root` (`manifests`, as validation finds them: dot-folders
 * skipped, linked folders followed).
 */
export async function inputFingerprint(
  root: string,
  manifests: readonly string[],
  options: object,
): Promise<string> {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(options));
  const code = codeVersion(); // the compiled code's own record of its sources
  if (code === undefined) throw new Error(`${join(LIB_DIR, 'sources.json')} is missing: run npm run compile`);
  hash.update(code);
  // world-countries: the search index's country names come from it.
  for (const dir of ['public', 'node_modules/world-countries/package.json']) {
    const path = join(PACKAGE_DIR, dir);
    if (!existsSync(path)) continue;
    const files = statSync(path).isDirectory() ? (await listFiles(path)).map((f) => join(path, f)) : [path];
    for (const file of files) hash.update(`\n${file}\n`).update(readFileSync(file));
  }
  for (const file of manifests) {
    const text = await readFile(join(root, file)).catch(() => Buffer.alloc(0));
    hash.update(`\n${file}\n`).update(text);
  }
  return hash.digest('hex');
}

/**
 * Returns whether `out` holds exactly the files the cache recorded, each with
 * its recorded stamp, and every data file is as it was when the last build
 * validated it (its stamp then).
 */
export function distUnchanged(root: string, out: string, cache: BuildCache): boolean {
  // Synchronous stats: thousands of them are several times faster than through the thread pool.
  const same = (path: string, record: FileStamp) => {
    const now = statSync(path, { throwIfNoEntry: false });
    return now !== undefined && sameStamp(now, record);
  };
  for (const [path, record] of Object.entries(cache.sources))
    if (!same(join(root, path), record)) return false;
  for (const [path, record] of Object.entries(cache.files)) if (!same(join(out, path), record)) return false;
  for (const [path, to] of Object.entries(cache.links)) {
    if (linkTarget(join(out, path)) !== relative(dirname(path), to)) return false;
  }
  const files = readdirSync(out, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
  return files === Object.keys(cache.files).length;
}
