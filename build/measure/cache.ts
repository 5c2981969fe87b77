// Measures each GeoJSON file at most once per run, and not at all when a cache
// file says it was measured before at the same size and modification time.
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CacheEntries } from '../core/cache.ts';
import { cacheDir, sameStamp, stampOf, type FileStamp } from '../core/files.ts';
import type { FileStats } from '../core/shared/manifest.ts';
import type { FileGeometry } from '../geometry/verdict.ts';
import { measureAndCheckGeoJSON, measureGeoJSONFile, type BboxMismatch } from './measure.ts';

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

/**
 * Measures files once per run (memo by resolved path) and across runs (a
 * cache file of entries by resolved path, each with the file's stamp:
 * build/core/cache.ts). Without `cacheFile` it only memoises in memory.
 * `identity`: the code's, which the cache file is kept with (codeIdentity).
 */
export class MeasurementCache {
  readonly stats = { filesMeasured: 0, bytesRead: 0, cacheHits: 0 };
  private readonly memo = new Map<string, Promise<Measured>>();
  private readonly entries: CacheEntries<CacheEntry>;

  constructor(options: { cacheFile?: string; identity?: string } = {}) {
    this.entries = new CacheEntries(options.cacheFile, isEntry, options.identity);
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
    const cached = await this.entries.get(key);
    if (!cached || !sameStamp(cached, info)) return undefined;
    if (!this.memo.has(key)) {
      this.stats.cacheHits++;
      this.memo.set(key, Promise.resolve({ stats: cached.stats, bboxes: cached.bboxes }));
    }
    return copyMeasured(await this.memo.get(key)!);
  }

  /** Writes the cache file atomically when something changed (CacheEntries.save). */
  save(): Promise<void> {
    return this.entries.save();
  }

  private async measureOnce(
    path: string,
    key: string,
    geometry: boolean,
    given: FileStamp | undefined,
  ): Promise<Measured> {
    // Stat before reading (or the caller did): if the file changes while it is read, its mtime
    // will differ from the one stored and the next run measures it again.
    const info = given ?? (await stat(path).catch(() => undefined));
    const cached = await this.entries.get(key);
    if (info && cached && sameStamp(cached, info)) {
      this.stats.cacheHits++;
      return { stats: cached.stats, bboxes: cached.bboxes };
    }
    const measured: Measured = geometry ? await measureAndCheckGeoJSON(path) : await measureGeoJSONFile(path);
    const { stats, bboxes } = measured;
    this.stats.filesMeasured++;
    this.stats.bytesRead += stats.bytes;
    if (info) await this.entries.set(key, { ...stampOf(info), stats, bboxes });
    return measured;
  }
}

function isEntry(value: unknown): value is CacheEntry {
  const entry = (value ?? {}) as Partial<CacheEntry>;
  const s = entry.stats;
  return (
    typeof entry.size === 'number' &&
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
