// The no-op fast path of `geoshelf build`: when the options and every
// manifest's text are those of the last successful build into the same
// folder, and every data file and output still has the size, mtime and
// inode recorded then, the previous dist/ is already the result. Nothing is
// validated, read or written again (the measurer cache makes the same
// size-and-mtime assumption about data files). The tool's code, the data it
// ships and its dependencies are the build cache's stamp (build/core/cache.ts):
// a build cache kept by other code is empty, so has no fingerprint.
import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { linkTarget } from './write-dist.ts';
import type { BuildCache } from './build-cache.ts';
import { sameStamp, type FileStamp } from '../core/files.ts';

/**
 * Returns a hash of everything a build's output depends on besides the code
 * (the cache's stamp) and the data files' bytes: the options, and the path
 * and text of every manifest under `root` (`manifests`, as validation finds
 * them: dot-folders skipped, linked folders followed).
 */
export async function inputFingerprint(
  root: string,
  manifests: readonly string[],
  options: object,
): Promise<string> {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(options));
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
