// What a build remembers between runs (<root>/.cache/geoshelf/build.json), so
// a rebuild with unchanged input reads no GeoJSON: the maps drawn from each
// file and the state of each data file when it was last published.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { writeFileAtomic } from './atomic-write.ts';

/** A source file's identity: if size and mtime are unchanged, so are its bytes (as the measurer assumes). */
export interface FileStamp {
  size: number;
  mtimeMs: number;
}

export interface BuildCache {
  version: 1;
  /** Map SVG per drawn file, e.g. "data/earth/CHL/preview/CHL_ADM1.preview.geojson". */
  maps: Record<string, FileStamp & { title: string; svg: string | null }>;
  /** Per published data file: the source's stamp when copied, and the copy's inode in dist/. */
  published: Record<string, FileStamp & { ino: number }>;
}

/** Returns the cache file of a build under `root`. */
export function buildCacheFile(root: string): string {
  return join(root, '.cache', 'geoshelf', 'build.json');
}

/** Returns the cache read from `file`, or an empty one when it is missing or unreadable. */
export async function loadBuildCache(file: string): Promise<BuildCache> {
  try {
    const cache = JSON.parse(await readFile(file, 'utf8')) as BuildCache;
    if (cache.version === 1 && cache.maps && cache.published) return cache;
  } catch {
    // missing or corrupt: start afresh, the cache only saves time
  }
  return { version: 1, maps: {}, published: {} };
}

/** Writes the cache atomically. */
export async function saveBuildCache(file: string, cache: BuildCache): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFileAtomic(file, JSON.stringify(cache));
}
