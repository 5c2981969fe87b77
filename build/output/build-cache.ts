// What a build remembers between runs, under <root>/.cache/geoshelf/, so a
// rebuild with unchanged input reads no GeoJSON: build.json (the fingerprint
// of the last build, the state of each published file), atlas/ (the units
// and map SVGs read from each file, one cache file per country:
// build/site/atlas.ts) and planes.json (each country's map plane). All are
// caches: missing or corrupt means empty.
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../core/atomic-write.ts';
import { cacheDir, type FileStamp } from '../core/files.ts';

export interface BuildCache {
  version: 3;
  /** inputFingerprint() of the last successful build, and what it built. */
  fingerprint?: string;
  summary?: { manifests: number; datasets: number; files: number; bytes: number };
  /** Every file of dist/ after the last build: the sha256 of its content, and its stamp once the build was done. */
  files: Record<string, FileStamp & { sha256: string }>;
  /** Every data file the last build published, by path: its source's stamp, when it was measured as `sha256`. */
  sources: Record<string, FileStamp & { sha256: string }>;
  /** Every folder of a release that is a link to an earlier release's same folder: path → that folder. */
  links: Record<string, string>;
}

/** A cache as loaded, with the text it came from (an unchanged cache is not rewritten). */
export interface Loaded<T> {
  file: string;
  data: T;
  text?: string;
}

/** Returns the cache files of a build under `root`. */
export function cacheFiles(root: string): { build: string; atlas: string; planes: string } {
  const dir = cacheDir(root);
  return { build: join(dir, 'build.json'), atlas: join(dir, 'atlas'), planes: join(dir, 'planes.json') };
}

/** Returns the JSON cache in `file` when `accept` approves it, else `empty`. */
export async function loadCache<T>(file: string, empty: T, accept: (data: T) => boolean): Promise<Loaded<T>> {
  try {
    const text = await readFile(file, 'utf8');
    const data = JSON.parse(text) as T;
    if (accept(data)) return { file, data, text };
  } catch {
    // missing or corrupt: start afresh, the cache only saves time
  }
  return { file, data: empty };
}

/** Returns the build cache of `root` (empty when missing or of another version). */
export function loadBuildCache(root: string): Promise<Loaded<BuildCache>> {
  return loadCache<BuildCache>(
    cacheFiles(root).build,
    { version: 3, files: {}, sources: {}, links: {} },
    (c) =>
      c.version === 3 &&
      typeof c.files === 'object' &&
      typeof c.sources === 'object' &&
      typeof c.links === 'object',
  );
}

/** Writes the cache atomically, unless it is unchanged since it was loaded. */
export async function saveCache<T>(cache: Loaded<T>): Promise<void> {
  const text = JSON.stringify(cache.data);
  if (text === cache.text) return;
  await mkdir(dirname(cache.file), { recursive: true });
  await writeFileAtomic(cache.file, text);
  cache.text = text;
}
