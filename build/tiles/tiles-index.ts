// The country tiles' cache index, <cache>/tiles/index.json: for each archive
// a build used, by key (country-tiles.ts's cacheKey, which names what the
// archive is made from, so its bytes never change), its size and its
// LevelTiles. A build where little changed then stats each archive (still
// there, still whole?) instead of reading it and its record: the archives
// are published as the cache's files, never read into memory. A level the
// index lacks is found by its record (<key>.json) as before and added. The
// archives and records no build used are removed when the index is saved
// (before, every cut stayed forever). A cache kept as build/core/cache.ts
// keeps every cache, never a source of truth: a missing, damaged, hostile
// or other code's index reads as empty.
import { readdirSync, rmSync } from 'node:fs';
import { hash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { readCacheFileSync, saveCacheFileSync, type CacheFile } from '../core/cache.ts';
import { isCount, isObject } from '../core/json-value.ts';
import type { LevelTiles } from './level-tiles.ts';

const INDEX = 'index.json';
/** The files the index speaks for: a country level's archive or record (world-*.pmtiles are world-tiles.ts's). */
const LEVEL_FILE = /^([0-9a-f]{32})\.(pmtiles|json)$/;

/** A cached archive: its path, size, sha256 and what the page needs of it. */
export interface CachedLevel {
  archive: string; // e.g. "<root>/.cache/geoshelf/tiles/<key>.pmtiles"
  bytes: number;
  sha256: string;
  tiles: LevelTiles;
}

type Listed = Omit<CachedLevel, 'archive'>;

export class TilesIndex {
  private readonly file: CacheFile<Record<string, unknown>>;
  private readonly listed: Map<string, Listed>;
  private readonly used = new Map<string, Listed>();
  private changed = false;

  /** Reads the index of the tiles cache folder `dir`. */
  constructor(private readonly dir: string) {
    this.file = readCacheFileSync(join(dir, INDEX), {}, isObject);
    this.listed = listedIn(this.file.data);
  }

  /** Returns the archive of `key` when the cache holds it whole, else undefined (cut it, then `add`). */
  async find(key: string): Promise<CachedLevel | undefined> {
    const archive = join(this.dir, `${key}.pmtiles`);
    const size = (await stat(archive).catch(() => undefined))?.size;
    if (size === undefined) return undefined;
    const listed = this.listed.get(key);
    if (listed?.bytes === size) return this.use(key, listed);
    try {
      const tiles = JSON.parse(await readFile(join(this.dir, `${key}.json`), 'utf8')) as unknown;
      if (!isLevelTiles(tiles) || tiles.bytes !== size) return undefined;
      this.changed = true;
      const sha256 = hash('sha256', await readFile(archive), 'hex');
      return this.use(key, { bytes: size, sha256, tiles });
    } catch {
      return undefined; // no record, or a damaged one: cut again
    }
  }

  /** Lists the archive of `key`, just cut with `tiles` as its record. */
  async add(key: string, tiles: LevelTiles): Promise<CachedLevel> {
    const bytes = await readFile(join(this.dir, `${key}.pmtiles`));
    this.changed = true;
    return this.use(key, { bytes: bytes.length, sha256: hash('sha256', bytes, 'hex'), tiles });
  }

  /**
   * Writes the index (what this build used) when it changed, and removes the
   * archives and records of keys it did not use. Synchronous: a few small
   * calls that the thread pool would make wait behind other reads.
   */
  save(): void {
    if (this.changed || this.used.size !== this.listed.size) {
      saveCacheFileSync({ ...this.file, data: Object.fromEntries(this.used) });
    }
    for (const name of readdirSync(this.dir)) {
      const key = LEVEL_FILE.exec(name)?.[1];
      if (key && !this.used.has(key)) rmSync(join(this.dir, name), { force: true });
    }
  }

  private use(key: string, listed: Listed): CachedLevel {
    this.used.set(key, listed);
    return { archive: join(this.dir, `${key}.pmtiles`), ...listed };
  }
}

/** Returns the index's entries (archive key → what it lists) that are well formed. */
function listedIn(levels: Record<string, unknown>): Map<string, Listed> {
  const listed = new Map<string, Listed>();
  for (const [key, entry] of Object.entries(levels)) {
    if (!/^[0-9a-f]{32}$/.test(key) || !isObject(entry)) continue;
    const { bytes, sha256, tiles } = entry;
    if (isCount(bytes) && typeof sha256 === 'string' && /^[0-9a-f]{64}$/.test(sha256) && isLevelTiles(tiles))
      listed.set(key, { bytes, sha256, tiles });
  }
  return listed;
}

/** Whether `value` is an archive's record as levelArchive() makes it (read back from the cache). */
export function isLevelTiles(value: unknown): value is LevelTiles {
  if (!isObject(value)) return false;
  const root = value.root;
  return (
    Array.isArray(root) &&
    root.length === 3 &&
    root.every((n) => typeof n === 'number' && Number.isFinite(n)) &&
    isCount(value.levels) &&
    isCount(value.units) &&
    isCount(value.tiles) &&
    isCount(value.bytes)
  );
}
