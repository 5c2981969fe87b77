// What a build remembers between runs, under <root>/.cache/geoshelf/, so a
// rebuild with unchanged input reads no GeoJSON: build.json (the fingerprint
// of the last build, the state of each published file), atlas/ (the units
// and map SVGs read from each file, one cache file per country:
// build/site/atlas.ts) and planes.json (each country's map plane). All are
// caches kept as build/core/cache.ts keeps every cache: missing, damaged or
// of other code means empty.
import { join } from 'node:path';
import { readCacheFile, type CacheFile } from '../core/cache.ts';
import { cacheDir, type FileStamp } from '../core/files.ts';
import { isCount, isObject } from '../core/json-value.ts';

export interface BuildCache {
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

/** Returns the cache files of a build under `root`. */
export function cacheFiles(root: string): { build: string; atlas: string; planes: string } {
  const dir = cacheDir(root);
  return { build: join(dir, 'build.json'), atlas: join(dir, 'atlas'), planes: join(dir, 'planes.json') };
}

/** Returns the build cache of `root` (empty when missing, damaged or kept by other code). */
export function loadBuildCache(root: string): Promise<CacheFile<BuildCache>> {
  return readCacheFile<BuildCache>(
    cacheFiles(root).build,
    { files: {}, sources: {}, links: {} },
    isBuildCache,
  );
}

/** Whether `value` is a build cache whose every record is used as it stands (distUnchanged, writeDist). */
function isBuildCache(value: unknown): value is BuildCache {
  if (!isObject(value)) return false;
  const { fingerprint, summary, files, sources, links } = value;
  const records = (o: unknown) => isObject(o) && Object.values(o).every(isRecord);
  return (
    (fingerprint === undefined || typeof fingerprint === 'string') &&
    (summary === undefined ||
      (isObject(summary) && ['manifests', 'datasets', 'files', 'bytes'].every((k) => isCount(summary[k])))) &&
    records(files) &&
    records(sources) &&
    isObject(links) &&
    Object.values(links).every((to) => typeof to === 'string')
  );
}

function isRecord(value: unknown): boolean {
  return (
    isObject(value) &&
    typeof value.sha256 === 'string' &&
    ['ino', 'size', 'mtimeMs', 'ctimeMs'].every((key) => typeof value[key] === 'number')
  );
}
