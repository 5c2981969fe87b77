// Checks each GeoJSON file's geometry at most once per run, and not at all
// when the cache file says it was checked before at the same size, mtime and
// sha256 (the measurer's, so an unchanged file costs nothing).
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CacheEntries } from '../core/cache.ts';
import { cacheDir, sameStamp, stampOf, type FileStamp } from '../core/files.ts';
import { checkGeometryFile } from './check-file.ts';
import type { FileGeometry } from './verdict.ts';

interface CacheEntry extends FileStamp {
  sha256: string;
  result: FileGeometry;
}

/**
 * Checks files once per run (memo by resolved path) and across runs (a cache
 * file of verdicts by resolved path, each with the file's stamp and sha256:
 * build/core/cache.ts). Without `cacheFile` it only memoises. `identity`:
 * the code's, which the cache file is kept with (codeIdentity).
 */
export class GeometryChecker {
  readonly stats = { filesChecked: 0, cacheHits: 0 };
  private readonly memo = new Map<string, Promise<FileGeometry | undefined>>();
  private readonly entries: CacheEntries<CacheEntry>;

  constructor(options: { cacheFile?: string; identity?: string } = {}) {
    this.entries = new CacheEntries(options.cacheFile, isEntry, options.identity);
  }

  /** Returns the checker a run under `root` uses: its cache is `<root>/.cache/geoshelf/geometry.json` unless `noCache`. */
  static forRoot(root: string, options: { noCache?: boolean } = {}): GeometryChecker {
    return new GeometryChecker(options.noCache ? {} : { cacheFile: join(cacheDir(root), 'geometry.json') });
  }

  /**
   * Returns the verdict on every feature of `path`, or undefined when the
   * measurer found it is not GeoJSON: `sha256` is the measurer's answer
   * (undefined then). `checked`: the verdict of the measurer's own pass, if
   * it checked the file (validate does). Without either, and without a cache
   * file, the check starts at once, beside the measurement, rather than after it.
   */
  check(
    path: string,
    sha256: Promise<string | undefined>,
    checked?: Promise<FileGeometry | undefined>,
  ): Promise<FileGeometry | undefined> {
    const key = resolve(path);
    let pending = this.memo.get(key);
    if (!pending) {
      pending = this.entries.kept
        ? this.checkCached(path, key, sha256, checked)
        : checked
          ? this.checkAfter(path, sha256, checked)
          : this.checkBeside(path, sha256);
      this.memo.set(key, pending);
    }
    return pending;
  }

  /**
   * Returns the verdict on `path` when it costs no check: found in this run,
   * or recorded in the cache file for its sha256 at the size and mtime of
   * `info` (the file's stat, taken by the caller); else undefined. Lets a
   * caller that bounds how many files are checked at once not queue the
   * files it need not check.
   */
  async known(path: string, sha256: string, info: FileStamp): Promise<FileGeometry | undefined> {
    const key = resolve(path);
    const pending = this.memo.get(key);
    if (pending) return pending;
    const cached = await this.entries.get(key);
    if (!cached || !sameStamp(cached, info) || cached.sha256 !== sha256) return undefined;
    if (!this.memo.has(key)) {
      this.stats.cacheHits++;
      this.memo.set(key, Promise.resolve(cached.result));
    }
    return this.memo.get(key)!;
  }

  /** Writes the cache file atomically when something changed (CacheEntries.save). */
  save(): Promise<void> {
    return this.entries.save();
  }

  /** Takes the verdict of the measurer's pass when it checked the file, else checks it now. */
  private async checkAfter(
    path: string,
    sha256: Promise<string | undefined>,
    checked: Promise<FileGeometry | undefined>,
  ): Promise<FileGeometry | undefined> {
    if ((await sha256) === undefined) return undefined;
    const result = (await checked) ?? (await checkGeometryFile(path));
    this.stats.filesChecked++;
    return result;
  }

  /** Checks while the measurer reads the same file; a malformed file's failure is the measurer's to report. */
  private async checkBeside(
    path: string,
    sha256: Promise<string | undefined>,
  ): Promise<FileGeometry | undefined> {
    const checking = checkGeometryFile(path);
    checking.catch(() => {}); // awaited below unless the measurer refuses the file
    if ((await sha256) === undefined) return undefined;
    const result = await checking;
    this.stats.filesChecked++;
    return result;
  }

  private async checkCached(
    path: string,
    key: string,
    measured: Promise<string | undefined>,
    checked?: Promise<FileGeometry | undefined>,
  ): Promise<FileGeometry | undefined> {
    const sha256 = await measured;
    if (sha256 === undefined) return undefined;
    const info = await stat(path).catch(() => undefined);
    const cached = await this.entries.get(key);
    if (info && cached && sameStamp(cached, info) && cached.sha256 === sha256) {
      this.stats.cacheHits++;
      return cached.result;
    }
    const result = (await checked) ?? (await checkGeometryFile(path));
    this.stats.filesChecked++;
    if (info) await this.entries.set(key, { ...stampOf(info), sha256, result });
    return result;
  }
}

function isEntry(value: unknown): value is CacheEntry {
  const entry = (value ?? {}) as Partial<CacheEntry>;
  return (
    typeof entry.size === 'number' &&
    typeof entry.mtimeMs === 'number' &&
    typeof entry.ino === 'number' &&
    typeof entry.ctimeMs === 'number' &&
    typeof entry.sha256 === 'string' &&
    typeof entry.result?.checked === 'number' &&
    Array.isArray(entry.result.issues)
  );
}
