// The world files' cache under <root>/.cache/geoshelf/world/{identity}/ (the
// code's identity, build/core/cache.ts: other code's folders are removed): a
// folder per world file set ({key}/, the key a hash of everything the files
// are made of, world-files.ts) holding {LEVEL}.geojson, .gpkg, .parquet and
// their record world.json (a stamped cache file, build/core/cache.ts). A
// lookup reads the record and checks the files' sizes: a few levels per
// body, so no index is needed.
import { readdirSync, rmSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { codeIdentity, readCacheFile, saveCacheFile } from '../core/cache.ts';
import { cacheDir } from '../core/files.ts';
import { isCount, isObject } from '../core/json-value.ts';

export type WorldFormat = 'geojson' | 'gpkg' | 'parquet';

/** Each world format's file name ending, in the order they are listed: e.g. "ADM1" → "ADM1.gpkg". */
export const WORLD_SUFFIX: Record<WorldFormat, string> = {
  geojson: '.geojson',
  gpkg: '.gpkg',
  parquet: '.parquet',
};

/** The files of one world level as written, e.g. [{format: "geojson", file: "ADM1.geojson", bytes, sha256}, …]. */
export type WorldRecord = { format: WorldFormat; file: string; bytes: number; sha256: string }[];

const RECORD = 'world.json';

/** Finds and records world file sets; on `finish` removes those this build did not use. */
export class WorldCache {
  private readonly used = new Set<string>();

  private constructor(private readonly root: string) {}

  /** Returns the world cache of `root` for the running code. */
  static open(root: string): WorldCache {
    return new WorldCache(join(cacheDir(root), 'world', codeIdentity()));
  }

  /** Returns the folder of the set with cache key `key` (a hex hash). */
  dir(key: string): string {
    return join(this.root, key);
  }

  /**
   * Returns the set with cache key `key` of level `level` when its record
   * and files are there whole, else undefined (made again).
   */
  async find(key: string, level: string): Promise<{ dir: string; record: WorldRecord } | undefined> {
    const dir = this.dir(key);
    const accept = (value: unknown): value is WorldRecord | undefined => isWorldRecord(value, level);
    const { data: record } = await readCacheFile(join(dir, RECORD), undefined, accept);
    if (!record) return undefined; // absent, damaged or another code's
    const sizes = await Promise.all(record.map((f) => stat(join(dir, f.file)).catch(() => undefined)));
    if (!sizes.every((s, i) => s?.size === record[i].bytes)) return undefined;
    this.used.add(key);
    return { dir, record };
  }

  /** Notes that the set with cache key `key` was just made, so `finish` keeps it. */
  record(key: string): void {
    this.used.add(key);
  }

  /** Writes a set's record into its (staging) folder. */
  static async writeRecord(dir: string, record: WorldRecord): Promise<void> {
    await saveCacheFile({ file: join(dir, RECORD), stamp: codeIdentity(), data: record });
  }

  /** Removes other code's world caches and the sets this build did not use. */
  finish(): void {
    const parent = join(this.root, '..');
    const remove = (path: string) => rmSync(path, { recursive: true, force: true });
    for (const name of names(parent)) if (join(parent, name) !== this.root) remove(join(parent, name));
    for (const name of names(this.root)) if (!this.used.has(name)) remove(join(this.root, name));
  }
}

/** Returns the names in the folder `path`; none when it is not there. */
function names(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}

/** Whether `value` is the record of level `level` as written: every format, in order, named after the level (never a path elsewhere). */
function isWorldRecord(value: unknown, level: string): value is WorldRecord {
  const formats = Object.keys(WORLD_SUFFIX) as WorldFormat[];
  return (
    Array.isArray(value) &&
    value.length === formats.length &&
    value.every(
      (f, i) =>
        isObject(f) &&
        f.format === formats[i] &&
        f.file === level + WORLD_SUFFIX[formats[i]] &&
        isCount(f.bytes) &&
        typeof f.sha256 === 'string' &&
        /^[0-9a-f]{64}$/.test(f.sha256),
    )
  );
}
