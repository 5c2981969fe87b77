// Measures each GeoJSON file at most once per run, and not at all when a cache
// file says it was measured before at the same size and modification time.
import { mkdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { writeFileAtomic } from '../core/atomic-write.ts';
import { cacheDir, sameStamp, stampOf, type FileStamp } from '../core/files.ts';
import type { FileStats } from '../core/shared/manifest.ts';
import type { FileGeometry } from '../geometry/verdict.ts';
import { measureAndCheckGeoJSON, measureGeoJSONFile, type BboxMismatch } from './measure.ts';

const CACHE_VERSION = 2; // 2: with the file's wrong bbox members

interface CacheEntry extends FileStamp {
  stats: FileStats;
  bboxes: BboxMismatch[];
}

/** What a measurement gives: the stats, the wrong bbox members, and the geometry verdict when checked in the same pass. */
export interface Measured {
  stats: FileStats;
  bboxes: BboxMismatch[];
  geometry?: FileGeometry;
}

// The cache file, e.g. {"version":1,"files":{"/abs/data/earth/CHL/CHL_ADM1.geojson":{"size":…,"mtimeMs":…,"stats":{…}}}}
interface CacheFile {
  version: number;
  files: Record<string, CacheEntry>;
}

/**
 * Measures files once per run (memo by resolved path) and across runs (a
 * JSON cache file keyed by path, size and mtimeMs). Without `cacheFile` it
 * only memoises in memory. A missing or unreadable cache file is treated as
 * empty: it is a cache, never a source of truth.
 */
export class MeasurementCache {
  readonly stats = { filesMeasured: 0, bytesRead: 0, cacheHits: 0 };
  private readonly cacheFile?: string;
  private readonly memo = new Map<string, Promise<Measured>>();
  private entries?: Promise<Map<string, CacheEntry>>;
  private changed = false;

  constructor(options: { cacheFile?: string } = {}) {
    this.cacheFile = options.cacheFile;
  }

  /**
   * Returns the measurement cache of a run under `root`, caching in
   * `<root>/.cache/geoshelf/measurements.json` unless `noCache`.
   */
  static forRoot(root: string, options: { noCache?: boolean } = {}): MeasurementCache {
    return new MeasurementCache(
      options.noCache ? {} : { cacheFile: join(cacheDir(root), 'measurements.json') },
    );
  }

  /** Returns the stats of `path`; concurrent calls for the same file share one pass. */
  async measure(path: string): Promise<FileStats> {
    return (await this.measureChecked(path, false)).stats;
  }

  /**
   * Returns the stats of `path`, its bbox members that do not hold their
   * extent and, when it is measured now (not found in the cache) and
   * `geometry` is asked for, the geometry verdict on its features from the
   * same pass (build/geometry/feature-sink.ts).
   */
  async measureChecked(path: string, geometry = true, info?: FileStamp): Promise<Measured> {
    const key = resolve(path);
    let pending = this.memo.get(key);
    if (!pending) {
      pending = this.measureOnce(path, key, geometry, info);
      this.memo.set(key, pending);
    }
    return copyMeasured(await pending);
  }

  /**
   * Returns the measurement of `path` when it costs no read: measured in this
   * run, or recorded in the cache file at the size and mtime of `info` (the
   * file's stat, taken by the caller); else undefined. Lets a caller that
   * bounds how many files are measured at once not queue the files it need
   * not measure.
   */
  async known(path: string, info: FileStamp): Promise<Measured | undefined> {
    const key = resolve(path);
    const pending = this.memo.get(key);
    if (pending) return copyMeasured(await pending);
    const cached = (await this.loadEntries()).get(key);
    if (!cached || !sameStamp(cached, info)) return undefined;
    if (!this.memo.has(key)) {
      this.stats.cacheHits++;
      this.memo.set(key, Promise.resolve({ stats: cached.stats, bboxes: cached.bboxes }));
    }
    return copyMeasured(await this.memo.get(key)!);
  }

  /**
   * Writes the cache file atomically (no-op without one, or when nothing
   * changed). A cache that can't be written (read-only folder) is skipped:
   * the next run measures again, which is slower but never wrong.
   */
  async save(): Promise<void> {
    if (!this.cacheFile || !this.entries || !this.changed) return;
    const entries = await this.entries;
    const data: CacheFile = { version: CACHE_VERSION, files: Object.fromEntries(entries) };
    try {
      await mkdir(dirname(this.cacheFile), { recursive: true });
      await writeFileAtomic(this.cacheFile, `${JSON.stringify(data)}\n`);
      this.changed = false;
    } catch {
      // e.g. EACCES or EROFS on a read-only data folder
    }
  }

  private async measureOnce(
    path: string,
    key: string,
    geometry: boolean,
    given: FileStamp | undefined,
  ): Promise<Measured> {
    const entries = await this.loadEntries();
    // Stat before reading (or the caller did): if the file changes while it is read, its mtime
    // will differ from the one stored and the next run measures it again.
    const info = given ?? (await stat(path).catch(() => undefined));
    const cached = entries.get(key);
    if (info && cached && sameStamp(cached, info)) {
      this.stats.cacheHits++;
      return { stats: cached.stats, bboxes: cached.bboxes };
    }
    const measured: Measured = geometry ? await measureAndCheckGeoJSON(path) : await measureGeoJSONFile(path);
    const { stats, bboxes } = measured;
    this.stats.filesMeasured++;
    this.stats.bytesRead += stats.bytes;
    if (info) {
      entries.set(key, { ...stampOf(info), stats, bboxes });
      this.changed = true;
    }
    return measured;
  }

  private loadEntries(): Promise<Map<string, CacheEntry>> {
    this.entries ??= readCache(this.cacheFile);
    return this.entries;
  }
}

async function readCache(cacheFile: string | undefined): Promise<Map<string, CacheEntry>> {
  if (!cacheFile) return new Map();
  try {
    const data = JSON.parse(await readFile(cacheFile, 'utf8')) as CacheFile;
    if (data.version !== CACHE_VERSION || typeof data.files !== 'object' || data.files === null)
      return new Map();
    return new Map(Object.entries(data.files).filter(([, entry]) => isEntry(entry)));
  } catch {
    return new Map(); // absent or corrupt: measure everything again
  }
}

function isEntry(entry: CacheEntry): boolean {
  const s = entry?.stats;
  return (
    typeof entry?.size === 'number' &&
    typeof entry.mtimeMs === 'number' &&
    typeof entry.ino === 'number' &&
    typeof entry.ctimeMs === 'number' &&
    typeof s?.sha256 === 'string' &&
    typeof s.bytes === 'number' &&
    typeof s.features === 'number' &&
    Array.isArray(s.bbox) &&
    s.bbox.length === 4 &&
    s.bbox.every((n) => typeof n === 'number') && // an empty collection's Infinity became null: measure again
    typeof s.geometry_types === 'object' &&
    Array.isArray(s.properties) &&
    Array.isArray(entry.bboxes)
  );
}

/** Returns a copy of a measurement, its stats copied (copyStats). */
function copyMeasured(found: Measured): Measured {
  return { stats: copyStats(found.stats), bboxes: found.bboxes, geometry: found.geometry };
}

/** Returns a copy, so a caller that edits its stats cannot change another caller's. */
function copyStats(stats: FileStats): FileStats {
  return {
    ...stats,
    bbox: [...stats.bbox],
    geometry_types: { ...stats.geometry_types },
    properties: [...stats.properties],
  };
}
