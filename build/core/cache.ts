// The one cache design. Whatever a command keeps under <root>/.cache/geoshelf/
// to save work next time is kept with a stamp: the identity of the code that
// worked it out (the compiled code's own hash, with the data files the
// package ships) and of the packages it ran with (the lockfile's hash), so a new geoshelf or an upgraded dependency
// (polygon-clipping, flatgeobuf…) trusts nothing an older one kept. Reading
// checks the stamp once: a file of another stamp, or absent, damaged,
// truncated or hostile, is a miss and the work is done again (never a crash,
// never a wrong answer). Saving is atomic (a temporary file renamed over the
// old one): a command killed mid-save leaves the old file or the new, whole.
// Each cache keeps only what is its own: where it lives, its entries' shape
// and key.
import { hash, randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { writeFileAtomic, writeFileAtomicSync } from './atomic-write.ts';
import { PACKAGE_DIR } from './files.ts';
import { isObject } from './json-value.ts';

/** The folders of data the package ships beside its code, read at run time (the schema, subdivision names). */
const SHIPPED = ['public', 'vendor'];

/**
 * Where the installed packages are recorded, looked for in this order beside
 * the package: its lockfile (a clone), else npm's record of the node_modules
 * that holds it (an installed package, whose tarball has no lockfile), else
 * of its own node_modules.
 */
function lockfiles(packageDir: string): string[] {
  const enclosing = basename(dirname(packageDir)) === 'node_modules' ? [dirname(packageDir)] : [];
  return [
    join(packageDir, 'package-lock.json'),
    ...enclosing.map((dir) => join(dir, '.package-lock.json')),
    join(packageDir, 'node_modules', '.package-lock.json'),
  ];
}

/**
 * Returns the identity of the code in `packageDir`: a hash of its compiled
 * code (every output's sha256 in lib/sources.json, the compile step's record;
 * not the inputs' times, which a checkout moves), of the data it ships
 * (public/, vendor/) and of its lockfile. Without a compiled record it is
 * new in every call: nothing another run kept is trusted. Without a
 * lockfile, the code's alone.
 */
export function readIdentity(packageDir: string): string {
  let code: string;
  try {
    const record = JSON.parse(readFileSync(join(packageDir, 'lib', 'sources.json'), 'utf8')) as unknown;
    const outputs = isObject(record) && isObject(record.outputs) ? record.outputs : undefined;
    if (!outputs) throw new Error('no outputs');
    const lines = Object.entries(outputs).map(([file, o]) => `${file}\t${isObject(o) ? o.sha256 : ''}`);
    code = hash('sha256', lines.sort().join('\n'), 'hex');
  } catch {
    code = `unknown ${randomUUID()}`; // not compiled (or damaged): this run's alone
  }
  const shipped = SHIPPED.flatMap((dir) => filesUnder(join(packageDir, dir))).map(
    (file) => `${relative(packageDir, file)}\t${hash('sha256', readFileSync(file), 'hex')}`,
  );
  let lock = 'no lockfile';
  for (const file of lockfiles(packageDir)) {
    try {
      lock = hash('sha256', readFileSync(file), 'hex');
      break;
    } catch {
      // not there: the next place
    }
  }
  return hash('sha256', [`code ${code}`, ...shipped, `lock ${lock}`].join('\n'), 'hex');
}

/** Returns every file under `dir`, sorted; none when it is not there. */
function filesUnder(dir: string): string[] {
  try {
    const entries = readdirSync(dir, { recursive: true, withFileTypes: true });
    return entries
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name))
      .sort();
  } catch {
    return [];
  }
}

let running: string | undefined;

/** Returns the identity of the running code (readIdentity of this package), read once per process. */
export function codeIdentity(): string {
  running ??= readIdentity(PACKAGE_DIR);
  return running;
}

/** A stamped cache file as read: its data (the empty value on a miss) and the text it came from. */
export interface CacheFile<T> {
  file: string; // e.g. "<root>/.cache/geoshelf/build.json"
  stamp: string; // what it is read and saved with: codeIdentity(), unless a test says otherwise
  data: T;
  text?: string; // as read: an unchanged cache is not written again
}

/** Returns the data of `text` when it is a cache file saved with `stamp` and `accept` takes its data. */
function stamped<T>(text: string, stamp: string, accept: (data: unknown) => data is T): T | undefined {
  try {
    const saved = JSON.parse(text) as unknown;
    // The one stamp check: {"stamp":…,"data":…}, as saveCacheFile writes it.
    if (isObject(saved) && saved.stamp === stamp && accept(saved.data)) return saved.data;
  } catch {
    // damaged or cut short: a miss
  }
  return undefined;
}

/**
 * Returns the cache file `file` when it was saved with `stamp` and `accept`
 * takes its data (untrusted JSON: check every field that is used); else
 * `empty`, as when it is absent, damaged or hostile.
 */
export async function readCacheFile<T>(
  file: string,
  empty: T,
  accept: (data: unknown) => data is T,
  stamp = codeIdentity(),
): Promise<CacheFile<T>> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  const data = text === undefined ? undefined : stamped(text, stamp, accept);
  return data === undefined ? { file, stamp, data: empty } : { file, stamp, data, text };
}

/** readCacheFile, synchronously: for a cache read while nothing else waits on the thread pool. */
export function readCacheFileSync<T>(
  file: string,
  empty: T,
  accept: (data: unknown) => data is T,
  stamp = codeIdentity(),
): CacheFile<T> {
  let text: string | undefined;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // absent, or not a file: a miss
  }
  const data = text === undefined ? undefined : stamped(text, stamp, accept);
  return data === undefined ? { file, stamp, data: empty } : { file, stamp, data, text };
}

/** Returns the text a cache file is saved as. */
function textOf(cache: CacheFile<unknown>): string {
  return `${JSON.stringify({ stamp: cache.stamp, data: cache.data })}\n`;
}

/**
 * Writes the cache file atomically with its stamp (its folder made first),
 * unless it is unchanged since it was read or saved. Throws when it cannot
 * be written (e.g. EACCES): the caller says whether that matters.
 */
export async function saveCacheFile(cache: CacheFile<unknown>): Promise<void> {
  const text = textOf(cache);
  if (text === cache.text) return;
  await mkdir(dirname(cache.file), { recursive: true });
  await writeFileAtomic(cache.file, text);
  cache.text = text;
}

/** saveCacheFile, synchronously. */
export function saveCacheFileSync(cache: CacheFile<unknown>): void {
  const text = textOf(cache);
  if (text === cache.text) return;
  mkdirSync(dirname(cache.file), { recursive: true });
  writeFileAtomicSync(cache.file, text);
  cache.text = text;
}

/**
 * A cache of entries by key in one stamped file, e.g. measurements.json
 * (each data file's stats, by path): read on first use, entries `isEntry`
 * rejects dropped, saved when something changed. Without a file it keeps
 * nothing (`--no-cache`): every `get` misses.
 */
export class CacheEntries<E> {
  private entries?: Promise<Map<string, E>>;
  private changed = false;

  // stamp: codeIdentity() unless given, worked out on first read (never, without a file: --no-cache).
  constructor(
    private readonly file: string | undefined,
    private readonly isEntry: (entry: unknown) => entry is E,
    private readonly stamp?: string,
  ) {}

  /** Whether entries are kept across runs (there is a file). */
  get kept(): boolean {
    return this.file !== undefined;
  }

  /** Returns the entry of `key` the file holds (or this run set), or undefined. */
  async get(key: string): Promise<E | undefined> {
    return (await this.load()).get(key);
  }

  /** Records `entry` under `key`, for `save` (nothing, without a file). */
  async set(key: string, entry: E): Promise<void> {
    if (!this.file) return;
    (await this.load()).set(key, entry);
    this.changed = true;
  }

  /**
   * Writes the file atomically when something changed. One that cannot be
   * written (a read-only folder) is skipped: the next run works it out again,
   * slower but never wrong.
   */
  async save(): Promise<void> {
    if (!this.file || !this.entries || !this.changed) return;
    const data = Object.fromEntries(await this.entries);
    try {
      await saveCacheFile({ file: this.file, stamp: this.stamp ?? codeIdentity(), data });
      this.changed = false;
    } catch {
      // e.g. EACCES or EROFS on a read-only data folder
    }
  }

  private load(): Promise<Map<string, E>> {
    this.entries ??= this.read();
    return this.entries;
  }

  private async read(): Promise<Map<string, E>> {
    if (!this.file) return new Map();
    const { data } = await readCacheFile(this.file, {}, isObject, this.stamp ?? codeIdentity());
    return new Map(Object.entries(data).filter((pair): pair is [string, E] => this.isEntry(pair[1])));
  }
}
