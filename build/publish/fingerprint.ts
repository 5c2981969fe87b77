// The no-op fast path of `geoshelf build`: when the tool's code, the options
// and every manifest's text are those of the last successful build into the
// same folder, and every data file and output still has the size, mtime and
// inode recorded then, the previous dist/ is already the result. Nothing is
// validated, read or written again (the measurer cache makes the same
// size-and-mtime assumption about data files).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { findManifests } from '../manifest/load.ts';
import { join } from 'node:path';
import type { BuildCache } from './build-cache.ts';
import { codeVersion, LIB_DIR } from '../core/compiled.ts';
import { listFiles, PACKAGE_DIR } from '../core/files.ts';

/**
 * Returns a hash of everything a build's output depends on, except the data
 * files' bytes: the compiled code (lib/'s record of its sources), public/,
 * world-countries' version, the options, and the path and text of every
 * manifest under `root`.
 */
export async function inputFingerprint(root: string, options: object): Promise<string> {
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
  // Every manifest, as validation finds them (dot-folders skipped, linked folders followed).
  const files = await findManifests(root).catch(() => [] as string[]);
  for (const file of files) {
    const text = await readFile(join(root, file)).catch(() => Buffer.alloc(0));
    hash.update(`\n${file}\n`).update(text);
  }
  return hash.digest('hex');
}

/**
 * Returns whether `out` holds exactly the files the cache recorded, each with
 * its recorded inode, size and mtime, and every data source is unchanged.
 */
export function distUnchanged(root: string, out: string, cache: BuildCache): boolean {
  // Synchronous stats: thousands of them are several times faster than through the thread pool.
  const stamp = (path: string) => statSync(path, { throwIfNoEntry: false });
  for (const [path, record] of Object.entries(cache.published)) {
    const source = stamp(record.from ?? join(root, path));
    const copy = stamp(join(out, path));
    if (source?.size !== record.size || source.mtimeMs !== record.mtimeMs) return false;
    if (copy?.ino !== record.ino || copy.size !== record.size) return false;
  }
  for (const [path, record] of Object.entries(cache.outputs)) {
    const copy = stamp(join(out, path));
    if (copy?.ino !== record.ino || copy.size !== record.size || copy.mtimeMs !== record.mtimeMs)
      return false;
  }
  const files = readdirSync(out, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
  return files === Object.keys(cache.published).length + Object.keys(cache.outputs).length;
}
