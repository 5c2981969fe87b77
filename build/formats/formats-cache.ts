// The formats cache under <root>/.cache/geoshelf/formats/{identity}/ (the
// code's identity, build/core/cache.ts: another geoshelf or another
// dependency converts afresh, and the folders of others are removed): a
// folder per conversion ({key}/{layer}/, with its record conversion.json)
// and per country archive (country/{key}/{ISO3}.zip, with {ISO3}.zip.json)
// and simplified copies (simplified/{key}/, with its record simplified.json),
// and one index (index.json, a stamped cache file) listing every item with
// its folder's stamp, read once per build and written only when it changed. A lookup trusts the
// index while the item's stamp holds, else reads the item's own record and
// checks its files' sizes, as before the index: so a lost, stale or damaged
// index costs those reads once, never a conversion.
import { readdirSync, rmSync, statSync } from 'node:fs';
import { readFile, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { writeFileAtomic } from '../core/atomic-write.ts';
import { codeIdentity, readCacheFileSync, saveCacheFileSync, type CacheFile } from '../core/cache.ts';
import { fileChanged } from '../core/errors.ts';
import type { CrsDefinition } from '../core/shared/crs.ts';
import { isCount, isObject } from '../core/json-value.ts';
import { RULES } from '../core/rules.ts';
import type { SimplifiedFile } from '../simplify/copies.ts';
import {
  convertLevel,
  conversionKey,
  FORMAT_SUFFIX,
  sha256File,
  type Conversion,
  type FormatFile,
  type FormatName,
} from './formats.ts';

/**
 * The [ino, ctimeMs] of an item's folder when the item was made or checked
 * (a conversion's {key}/{layer}/, an archive's country/{key}/). One statSync
 * per item, where the files' sizes, stat by stat, were most of a build's
 * lookups: a file deleted, added or renamed in the folder changes its ctime,
 * and so does setting its mtime back (touch, rsync, cp -p); a folder made
 * again is another inode. Then the item is looked up by its record, found
 * incomplete and made again. Not the files' own stamps: publishing hard-links
 * them into dist/, which changes their ctime. Not seen: a file rewritten in
 * place (its folder unchanged).
 */
type Stamp = [number, number];

interface ConversionEntry {
  conversion: Conversion;
  stamp: Stamp;
}

interface ArchiveEntry {
  file: FormatFile;
  stamp: Stamp;
}

interface SimplifiedEntry {
  files: SimplifiedFile[];
  stamp: Stamp;
}

// The index's data, e.g. {"conversions":{"8ab2…/CHL_ADM1":{"conversion":{…},"stamp":[4194,1764…]}},
// "archives":{"1c3f…/CHL.zip":{"file":{"format":"zip","file":"CHL.zip",…},"stamp":[4197,1764…]}}}
interface IndexFile {
  conversions: Record<string, ConversionEntry>;
  archives: Record<string, ArchiveEntry>;
  simplified?: Record<string, SimplifiedEntry>;
}

/**
 * The formats cache of one build: finds and makes conversions and finds and
 * records country archives, remembers which it used, and on `finish` removes
 * the rest and writes the index.
 */
export class FormatsCache {
  /** The cache's folder, e.g. "/root/.cache/geoshelf/formats/3f9a…". */
  readonly dir: string;
  private readonly index: CacheFile<Record<string, unknown>>;
  private readonly conversions = new Map<string, ConversionEntry>();
  private readonly archives = new Map<string, ArchiveEntry>();
  private readonly simplified = new Map<string, SimplifiedEntry>();
  private readonly used = {
    conversions: new Map<string, ConversionEntry>(),
    archives: new Map<string, ArchiveEntry>(),
    simplified: new Map<string, SimplifiedEntry>(),
  };
  private changed = false;

  private constructor(formatsDir: string) {
    this.dir = formatsDir;
    this.index = readCacheFileSync(join(formatsDir, 'index.json'), {}, isObject);
    const index = this.index.data;
    // Entries are checked when looked up (isConversion, isFormatFile): only those are trusted.
    if (isObject(index.conversions))
      for (const [k, v] of Object.entries(index.conversions)) this.conversions.set(k, v as ConversionEntry);
    if (isObject(index.archives))
      for (const [k, v] of Object.entries(index.archives)) this.archives.set(k, v as ArchiveEntry);
    if (isObject(index.simplified))
      for (const [k, v] of Object.entries(index.simplified)) this.simplified.set(k, v as SimplifiedEntry);
  }

  /**
   * Returns the formats cache under `cacheDir` (e.g. "/root/.cache/geoshelf")
   * of the code `identity`, its index read; a missing, unreadable or hostile
   * index is empty (every item is looked up by its own record).
   */
  static open(cacheDir: string, identity = codeIdentity()): FormatsCache {
    return new FormatsCache(join(cacheDir, 'formats', identity));
  }

  /** Returns the folder of one conversion, e.g. ".cache/geoshelf/formats/3f9a…/8ab2…/CHL_ADM1". */
  conversionDir(key: string, layer: string): string {
    return `${this.dir}/${key}/${layer}`; // a hash and a file stem: no separator, nothing to normalise
  }

  /** Returns where the archive with cache key `key` lies, e.g. ".cache/geoshelf/formats/3f9a…/country/1c3f…/CHL.zip". */
  archivePath(key: string, name: string): string {
    return `${this.dir}/country/${key}/${name}`;
  }

  /**
   * Returns the conversion of a source whose sha256 is `sourceSha256` (with
   * `unitIds`, when given) when the index lists it and its stamp holds, else
   * undefined. No I/O but statSync.
   */
  indexedConversion(
    sourceSha256: string,
    layer: string,
    crs: CrsDefinition,
    unitIds?: string[],
  ): { dir: string; conversion: Conversion } | undefined {
    const id = `${conversionKey(sourceSha256, crs, unitIds)}/${layer}`; // e.g. "8ab2…-OGC-CRS84/CHL_ADM1"
    const entry = this.conversions.get(id);
    if (!entry || !isConversion(entry.conversion, layer)) return undefined;
    const dir = `${this.dir}/${id}`; // the layer is a file stem, e.g. "USA_ADM2_US-CA"
    if (!holds(dir, entry.stamp)) return undefined;
    this.used.conversions.set(id, entry);
    return { dir, conversion: entry.conversion };
  }

  /**
   * Returns the cached conversion of a source whose sha256 is `sourceSha256`
   * (with `unitIds`, when given), or undefined when it is absent or
   * incomplete: from the index when its stamp holds, else from its record.
   */
  async findConversion(
    sourceSha256: string,
    layer: string,
    crs: CrsDefinition,
    unitIds?: string[],
  ): Promise<{ dir: string; conversion: Conversion } | undefined> {
    const indexed = this.indexedConversion(sourceSha256, layer, crs, unitIds);
    if (indexed) return indexed;
    const id = `${conversionKey(sourceSha256, crs, unitIds)}/${layer}`;
    const dir = `${this.dir}/${id}`;
    // Stamped before the files are checked: a file deleted meanwhile changes the folder after its stamp.
    const stamp = folderStamp(dir);
    if (!stamp) return undefined; // not made yet: nothing to read
    try {
      const conversion: unknown = JSON.parse(await readFile(`${dir}/conversion.json`, 'utf8'));
      if (!isConversion(conversion, layer)) return undefined;
      const files = await Promise.all(
        conversion.files.map((f) => stat(`${dir}/${f.file}`).catch(() => undefined)),
      );
      if (!files.every((s, i) => s?.size === conversion.files[i].bytes)) return undefined;
      this.record(id, { conversion, stamp });
      return { dir, conversion };
    } catch {
      return undefined; // absent or unreadable: converted again
    }
  }

  /**
   * Returns the conversion of `source` (whose sha256 is `sourceSha256`, with
   * `unitIds` when given) from the cache, converting it first when absent or
   * incomplete. Throws a UserError (rule file-changed, naming `shown`) when
   * the source no longer hashes to `sourceSha256` once converted: what was
   * read is not what the key says, and is not kept.
   */
  async cachedConversion(
    source: string,
    sourceSha256: string,
    layer: string,
    crs: CrsDefinition,
    unitIds?: string[],
    shown = source, // the source as problems name it, e.g. "data/earth/CHL/CHL_ADM1.geojson"
  ): Promise<{ dir: string; conversion: Conversion; converted: boolean }> {
    const found = await this.findConversion(sourceSha256, layer, crs, unitIds);
    if (found) return { ...found, converted: false };
    const key = conversionKey(sourceSha256, crs, unitIds);
    const dir = this.conversionDir(key, layer);
    const conversion = await convertLevel(source, dir, layer, crs, unitIds);
    // Read again after: an edit during the conversion (its several passes) shows here.
    const now = await sha256File(source);
    if (now !== sourceSha256) {
      await rm(dir, { recursive: true, force: true });
      throw fileChanged(shown, now, sourceSha256);
    }
    const stamp = folderStamp(dir);
    if (stamp) this.record(`${key}/${layer}`, { conversion, stamp }); // else gone meanwhile: made again next time
    return { dir, conversion, converted: true };
  }

  /** Returns the record of the archive `name` with cache key `key` when the index lists it and its stamp holds, else undefined. No I/O but statSync. */
  indexedArchive(key: string, name: string): FormatFile | undefined {
    const id = `${key}/${name}`; // e.g. "1c3f…/CHL.zip"
    const entry = this.archives.get(id);
    if (!entry || !isFormatFile(entry.file, 'zip', name)) return undefined;
    if (!holds(`${this.dir}/country/${key}`, entry.stamp)) return undefined;
    this.used.archives.set(id, entry);
    return entry.file;
  }

  /**
   * Returns the record of the archive `name` with cache key `key` (e.g.
   * {format: "zip", file: "CHL.zip", bytes, sha256}), or undefined when it is
   * not there whole: from the index when its stamp holds, else from the
   * record beside it ({path}.json).
   */
  async findArchive(key: string, name: string): Promise<FormatFile | undefined> {
    const indexed = this.indexedArchive(key, name);
    if (indexed) return indexed;
    const path = this.archivePath(key, name);
    const stamp = folderStamp(`${this.dir}/country/${key}`); // before the check, as in findConversion
    if (!stamp) return undefined;
    try {
      const recorded: unknown = JSON.parse(await readFile(`${path}.json`, 'utf8'));
      if (!isFormatFile(recorded, 'zip', name)) return undefined;
      if ((await stat(path)).size !== recorded.bytes) return undefined;
      this.listArchive(key, recorded, stamp);
      return recorded;
    } catch {
      return undefined; // absent or unreadable: written again
    }
  }

  /** Lists an archive just written (with its record beside it, {path}.json) in the index. */
  recordArchive(key: string, file: FormatFile): void {
    const stamp = folderStamp(`${this.dir}/country/${key}`);
    if (stamp) this.listArchive(key, file, stamp); // else gone meanwhile: written again next time
  }

  /** Returns the folder of a country's simplified copies, e.g. ".cache/geoshelf/formats/3f9a…/simplified/5d1e…". */
  simplifiedDir(key: string): string {
    return `${this.dir}/simplified/${key}`;
  }

  /**
   * Returns the simplified copies with cache key `key` when the index lists
   * them, named `names`, and their folder's stamp holds, else undefined. No
   * I/O but statSync.
   */
  indexedSimplified(key: string, names: string[]): SimplifiedFile[] | undefined {
    const entry = this.simplified.get(key);
    if (!entry || !isSimplifiedList(entry.files, names)) return undefined;
    if (!holds(this.simplifiedDir(key), entry.stamp)) return undefined;
    this.used.simplified.set(key, entry);
    return entry.files;
  }

  /**
   * Returns the simplified copies with cache key `key` (named `names`), or
   * undefined when they are not there whole: from the index when its stamp
   * holds, else from the record in their folder (simplified.json).
   */
  async findSimplified(key: string, names: string[]): Promise<SimplifiedFile[] | undefined> {
    const indexed = this.indexedSimplified(key, names);
    if (indexed) return indexed;
    const dir = this.simplifiedDir(key);
    const stamp = folderStamp(dir); // before the check, as in findConversion
    if (!stamp) return undefined;
    try {
      const files: unknown = JSON.parse(await readFile(`${dir}/simplified.json`, 'utf8'));
      if (!isSimplifiedList(files, names)) return undefined;
      const sizes = await Promise.all(files.map((f) => stat(`${dir}/${f.file}`).catch(() => undefined)));
      if (!sizes.every((s, i) => s?.size === files[i].bytes)) return undefined;
      this.listSimplified(key, files, stamp);
      return files;
    } catch {
      return undefined; // absent or unreadable: made again
    }
  }

  /** Records simplified copies just written into simplifiedDir(key): their record beside them, and the index. */
  async recordSimplified(key: string, files: SimplifiedFile[]): Promise<void> {
    const dir = this.simplifiedDir(key);
    await writeFileAtomic(`${dir}/simplified.json`, `${JSON.stringify(files)}\n`);
    const stamp = folderStamp(dir);
    if (stamp) this.listSimplified(key, files, stamp); // else gone meanwhile: made again next time
  }

  /**
   * Removes what this build did not use (other code's caches, conversions
   * and archives) and writes the index of what it used, when that changed.
   * An index that can't be written (read-only folder) is skipped: the next
   * build reads each item's record instead, slower but never wrong.
   * Synchronous: three small folders read and usually one small file
   * written, which through the thread pool would wait behind whatever else
   * the build has queued there (the tiles' cache reads run meanwhile).
   */
  finish(): void {
    const parent = join(this.dir, '..');
    const current = basename(this.dir);
    const remove = (path: string) => rmSync(path, { recursive: true, force: true });
    for (const name of names(parent)) if (name !== current) remove(join(parent, name));
    const keys = new Set([...this.used.conversions.keys()].map((id) => id.slice(0, id.indexOf('/'))));
    for (const name of names(this.dir))
      if (!FOLDERS.has(name) && !keys.has(name)) remove(join(this.dir, name));
    const archives = new Set([...this.used.archives.keys()].map((id) => id.slice(0, id.indexOf('/'))));
    for (const name of names(join(this.dir, 'country')))
      if (!archives.has(name)) remove(join(this.dir, 'country', name));
    for (const name of names(join(this.dir, 'simplified')))
      if (!this.used.simplified.has(name)) remove(join(this.dir, 'simplified', name));
    // Entries of this index that were not used (their folders just removed) are left out of the next.
    if (
      !this.changed &&
      this.used.conversions.size === this.conversions.size &&
      this.used.archives.size === this.archives.size &&
      this.used.simplified.size === this.simplified.size
    )
      return;
    const index: IndexFile = {
      conversions: Object.fromEntries(this.used.conversions),
      archives: Object.fromEntries(this.used.archives),
      simplified: Object.fromEntries(this.used.simplified),
    };
    try {
      saveCacheFileSync({ ...this.index, data: index });
      this.changed = false;
    } catch {
      // e.g. EACCES or EROFS
    }
  }

  private record(id: string, entry: ConversionEntry): void {
    this.conversions.set(id, entry);
    this.used.conversions.set(id, entry);
    this.changed = true;
  }

  private listSimplified(key: string, files: SimplifiedFile[], stamp: Stamp): void {
    const entry = { files, stamp };
    this.simplified.set(key, entry);
    this.used.simplified.set(key, entry);
    this.changed = true;
  }

  private listArchive(key: string, file: FormatFile, stamp: Stamp): void {
    const entry = { file, stamp };
    this.archives.set(`${key}/${file.file}`, entry);
    this.used.archives.set(`${key}/${file.file}`, entry);
    this.changed = true;
  }
}

/** Returns the stamp ([ino, ctimeMs]) of the folder `path`, or undefined when it is not there. */
function folderStamp(path: string): Stamp | undefined {
  const s = statSync(path, { throwIfNoEntry: false });
  return s && [s.ino, s.ctimeMs];
}

/** Returns the names in the folder `path`; none when it is not there (or not a folder). */
function names(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}

/** Whether `path` still has the `stamp` recorded (from the index: anything). */
function holds(path: string, stamp: unknown): boolean {
  if (!Array.isArray(stamp)) return false;
  const s = statSync(path, { throwIfNoEntry: false });
  return s !== undefined && s.ino === stamp[0] && s.ctimeMs === stamp[1];
}

const FORMATS = new Set(Object.keys(FORMAT_SUFFIX));
/** The cache's folders that are not a conversion's key (nor the index). */
const FOLDERS = new Set(['country', 'simplified', 'index.json']);

/** Whether `value` is a simplified copies' record as written, its files named `names` in order (never a path elsewhere). */
function isSimplifiedList(value: unknown, names: string[]): value is SimplifiedFile[] {
  return (
    Array.isArray(value) &&
    value.length === names.length &&
    value.every(
      (f, i) =>
        isObject(f) &&
        f.file === names[i] &&
        typeof f.level === 'string' &&
        typeof f.tolerance_m === 'number' &&
        isCount(f.bytes) &&
        typeof f.sha256 === 'string' &&
        /^[0-9a-f]{64}$/.test(f.sha256),
    )
  );
}
const KNOWN_RULES = new Set<string>(RULES);

/** Whether `value` is a cached file's record as written, named `file` (never a path elsewhere). */
function isFormatFile(value: unknown, format: FormatName | 'zip', file: string): value is FormatFile {
  return (
    isObject(value) &&
    value.format === format &&
    value.file === file &&
    isCount(value.bytes) &&
    typeof value.sha256 === 'string' &&
    /^[0-9a-f]{64}$/.test(value.sha256)
  );
}

/**
 * Whether `value` is a conversion record of `layer` as convertLevel writes
 * it: its files named after the layer, every format either written or
 * skipped (a record of an older writer, e.g. one without GeoParquet, is
 * incomplete and converted again).
 */
function isConversion(value: unknown, layer: string): value is Conversion {
  if (!isObject(value) || value.layer !== layer) return false;
  const { files, shapefileRenamed, topojson, skipped, warnings } = value;
  const strings = (o: unknown, keys: string[]) => isObject(o) && keys.every((k) => typeof o[k] === 'string');
  const listed = (format: string) =>
    [files, skipped].some(
      (list) => Array.isArray(list) && list.some((f) => isObject(f) && f.format === format),
    );
  return (
    [...FORMATS].every(listed) &&
    Array.isArray(files) &&
    files.every(
      (f) =>
        isObject(f) &&
        FORMATS.has(f.format as string) &&
        isFormatFile(f, f.format as FormatName, layer + FORMAT_SUFFIX[f.format as FormatName]),
    ) &&
    Array.isArray(shapefileRenamed) &&
    shapefileRenamed.every((r) => strings(r, ['property', 'field'])) &&
    (topojson === undefined ||
      (isObject(topojson) &&
        typeof topojson.quantization === 'number' &&
        [topojson.scale, topojson.translate].every(
          (pair) => Array.isArray(pair) && pair.length === 2 && pair.every((n) => typeof n === 'number'),
        ))) &&
    Array.isArray(skipped) &&
    skipped.every((s) => strings(s, ['reason']) && FORMATS.has((s as { format: string }).format)) &&
    Array.isArray(warnings) &&
    warnings.every(
      (w) =>
        strings(w, ['pointer', 'message', 'rule']) &&
        KNOWN_RULES.has((w as { rule: string }).rule) &&
        FORMATS.has((w as { format: string }).format),
    )
  );
}
