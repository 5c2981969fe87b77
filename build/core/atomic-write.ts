import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Returns a temporary path beside `path` (same folder, so a rename onto `path`
 * is atomic), e.g. ".manifest.json.1a2b3c4d.tmp" beside data/earth/CHL/manifest.json.
 */
export function tempPathBeside(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.tmp`);
}

/**
 * Writes `data` to `path` atomically: readers see the old file or the whole
 * new one, never a half-written file, even if the process dies midway.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const temp = tempPathBeside(path);
  try {
    await writeFile(temp, data);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** writeFileAtomic, synchronously: for a module that makes a file while it loads. */
export function writeFileAtomicSync(path: string, data: string | Uint8Array): void {
  const temp = tempPathBeside(path);
  try {
    writeFileSync(temp, data);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
