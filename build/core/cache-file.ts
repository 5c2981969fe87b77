// The reading side shared by the checks' answer caches (geometry, previews,
// nesting, coverage): one JSON file under .cache/geoshelf/ holding a format
// version and one object of entries by key. A file that is absent, corrupt
// or of another version reads as empty, and an entry of the wrong shape is
// dropped: each costs a check again, never a wrong answer.
import { readFile } from 'node:fs/promises';

/**
 * Returns the entries under `member` of the cache file `file` written at
 * format `version`, keeping those `isEntry` accepts; none when the file is
 * absent, corrupt or of another version.
 */
export async function readCacheEntries<E>(
  file: string,
  version: number,
  member: string,
  isEntry: (entry: E) => boolean,
): Promise<Map<string, E>> {
  try {
    const data = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown> | null;
    const entries = data?.[member];
    if (data?.version !== version || typeof entries !== 'object' || entries === null) return new Map();
    return new Map(Object.entries(entries as Record<string, E>).filter(([, entry]) => isEntry(entry)));
  } catch {
    return new Map(); // absent or corrupt: check everything again
  }
}
