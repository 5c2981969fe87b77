// Checks the nesting of each pair of levels at most once per run, and not at
// all when the cache file says the same files (by sha256, the measurer's, so
// an unchanged tree reads no GeoJSON) were checked before: the answer depends
// on the bytes of both levels only.
import { join } from 'node:path';
import { CacheEntries } from '../core/cache.ts';
import { cacheDir } from '../core/files.ts';
import { Slots } from '../core/slots.ts';
import type { LevelReader } from './level.ts';
import {
  measureLevelNesting,
  NESTING_LIMIT,
  type LevelFile,
  type LevelNesting,
  type NestingIssue,
} from './nesting.ts';

/** A level file as the check is asked about it: with the sha256 of its bytes. */
export interface HashedFile extends LevelFile {
  sha256: string;
}

interface CacheEntry {
  code_key?: string; // the property read as each unit's code, when not the usual ones
  files: string[]; // sha256 of the level's files, in order
  parents: string[]; // sha256 of the parent level's files, in order
  limit: number;
  nesting: LevelNesting;
}

/**
 * Checks pairs of levels once per run (memo) and across runs (a cache file
 * of answers by the level's file paths, holding the sha256s of both levels:
 * build/core/cache.ts). Without `cacheFile` it only memoises. `identity`: the
 * code's, which the cache file is kept with (codeIdentity).
 */
export class NestingChecker {
  readonly stats = { levelsChecked: 0, cacheHits: 0 };
  private readonly memo = new Map<string, Promise<LevelNesting>>();
  private readonly entries: CacheEntries<CacheEntry>;
  // One pair of levels at a time: each holds its level above in memory, and the work is all on this thread.
  private readonly slots = new Slots(1);

  constructor(
    private readonly options: {
      cacheFile?: string;
      codeKey?: string;
      reader?: LevelReader;
      identity?: string;
    } = {},
  ) {
    this.entries = new CacheEntries(options.cacheFile, isEntry, options.identity);
  }

  /**
   * Returns the checker a run under `root` uses: its cache is
   * `<root>/.cache/geoshelf/nesting.json` unless `noCache`. `codeKey`: the
   * property holding each unit's code (`release --code-key`), which parent
   * codes name.
   */
  static forRoot(
    root: string,
    options: { noCache?: boolean; codeKey?: string; reader?: LevelReader } = {},
  ): NestingChecker {
    const cacheFile = options.noCache ? undefined : join(cacheDir(root), 'nesting.json');
    return new NestingChecker({ cacheFile, codeKey: options.codeKey, reader: options.reader });
  }

  /** Returns the units of `files` that do not lie in their parent in `parents` (build/identity/nesting.ts). */
  async check(files: HashedFile[], parents: HashedFile[]): Promise<NestingIssue[]> {
    return (await this.checkLevel(files, parents)).issues;
  }

  /** Returns what `check` does, and the level's summary (measureLevelNesting). */
  checkLevel(files: HashedFile[], parents: HashedFile[]): Promise<LevelNesting> {
    const key = files.map((f) => f.path).join('\n');
    const sums = (list: HashedFile[]) => list.map((f) => f.sha256);
    const memoKey = `${key}\0${sums(files).join()}\0${sums(parents).join()}`;
    let pending = this.memo.get(memoKey);
    if (!pending) {
      pending = this.checkCached(key, files, parents);
      this.memo.set(memoKey, pending);
    }
    return pending;
  }

  /** Writes the cache file atomically when something changed (CacheEntries.save). */
  save(): Promise<void> {
    return this.entries.save();
  }

  private async checkCached(key: string, files: HashedFile[], parents: HashedFile[]): Promise<LevelNesting> {
    const same = (a: string[], b: HashedFile[]) =>
      a.length === b.length && a.every((s, i) => s === b[i]!.sha256);
    const cached = await this.entries.get(key);
    if (
      cached &&
      cached.limit === NESTING_LIMIT &&
      cached.code_key === this.options.codeKey &&
      same(cached.files, files) &&
      same(cached.parents, parents)
    ) {
      this.stats.cacheHits++;
      return cached.nesting;
    }
    const nesting = await this.slots.run(() =>
      measureLevelNesting(files, parents, this.options.codeKey, this.options.reader),
    );
    this.stats.levelsChecked++;
    await this.entries.set(key, {
      files: files.map((f) => f.sha256),
      parents: parents.map((f) => f.sha256),
      limit: NESTING_LIMIT,
      ...(this.options.codeKey !== undefined ? { code_key: this.options.codeKey } : {}),
      nesting,
    });
    return nesting;
  }
}

function isEntry(value: unknown): value is CacheEntry {
  const entry = (value ?? {}) as Partial<CacheEntry>;
  const strings = (a: unknown) => Array.isArray(a) && a.every((s) => typeof s === 'string');
  const issue = (i: NestingIssue) =>
    typeof i?.unit?.file === 'string' && typeof i.unit.feature === 'number' && typeof i.outside === 'number';
  return (
    strings(entry.files) &&
    strings(entry.parents) &&
    typeof entry.limit === 'number' &&
    typeof entry.nesting?.summary?.parentArea === 'number' &&
    Array.isArray(entry.nesting.issues) &&
    entry.nesting.issues.every(issue)
  );
}
