// Stores a release's catalogue (its build in the cache) into the ledger's
// staged folder: each file in its stored form (build/release/site-files.ts),
// under its sha256, once across releases. Build hard-links the files that did
// not change from one release's build to the next, so a file whose inode,
// size and mtime are those recorded last time is known without reading it.
import { createHash } from 'node:crypto';
import { readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { listFiles } from '../core/files.ts';
import { runAll } from '../core/slots.ts';
import type { SiteFile } from './ledger.ts';
import { storedSiteFile } from './site-files.ts';

interface Stamp {
  ino: number;
  size: number;
  mtimeMs: number;
  file: SiteFile; // its stored form
}

/**
 * Returns every file of the built catalogue `built`, sorted, in its stored
 * form; writes each content that `stored` (the sha256s the ledger and this
 * release already hold, updated) lacks into `into`. `stamps` is the record of
 * the last call, rewritten.
 */
export async function storeSite(
  built: string,
  into: string,
  stored: Set<string>,
  stampsFile: string,
): Promise<SiteFile[]> {
  const before = await readStamps(stampsFile);
  const after: Record<string, Stamp> = {};
  const files = await runAll(await listFiles(built), 8, async (path): Promise<SiteFile> => {
    const info = await stat(join(built, path));
    const was = before[path];
    const stamp = { ino: info.ino, size: info.size, mtimeMs: info.mtimeMs };
    if (was && was.ino === info.ino && was.size === info.size && was.mtimeMs === info.mtimeMs) {
      if (stored.has(was.file.sha256)) {
        after[path] = was;
        return was.file;
      }
    }
    const { bytes, template } = storedSiteFile(path, await readFile(join(built, path)));
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    // Each new content once: two paths of this release may hold the same bytes.
    if (!stored.has(sha256)) {
      stored.add(sha256);
      await writeFile(join(into, sha256), bytes);
    }
    const file: SiteFile = { path, sha256, bytes: bytes.length, ...(template ? { template } : {}) };
    after[path] = { ...stamp, file };
    return file;
  });
  await writeFile(`${stampsFile}.tmp`, JSON.stringify(after));
  await rename(`${stampsFile}.tmp`, stampsFile);
  return files;
}

async function readStamps(file: string): Promise<Record<string, Stamp>> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as Record<string, Stamp>;
  } catch {
    return {}; // none yet, or unreadable: every file is read
  }
}
