// The release ledger under `data/releases/` (committed beside the
// manifests): one folder per release. VERSION/ holds release.json (every
// file with its sha256, each level's unit IDs in feature order), the unit
// registry (every unit ID ever given), changes.json (the feed since the
// previous release), and site/ (the catalogue as the release publishes it,
// each file stored once across all releases by sha256; level files are among
// them, and are what the next release compares with).
//
// Record formats: ledger_version 2 (now) keeps release.json small: its lists
// (files, levels, registry, published files) are chunks in records/, each
// stored once across releases (build/release/record-chunks.ts). Version 1
// wrote them whole each time: files and levels in release.json, registry.json
// and site.json; its first layout also kept objects/ (the level files again,
// gzipped). Both are read as they are.
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { RegistryUnit, ReleaseChange } from '../../src/shared/api.ts';
import type { Level } from '../../src/shared/manifest.ts';
import { problem, type Problem } from '../core/problem.ts';
import type { Thresholds } from '../identity/thresholds.ts';
import { CHUNK_FILE, chunkName, sha256Bytes, type RecordChunk } from './record-chunks.ts';

/** The ledger's folder, relative to the root. */
export const LEDGER_DIR = 'data/releases';

/** A file of the data tree as a release holds it. */
export interface ReleasedFile {
  path: string; // e.g. "data/earth/CHL/CHL_ADM1.geojson"
  sha256: string;
  bytes: number;
}

/** One level of one country in a release: its files in order, and its units' IDs in feature order. */
export interface ReleasedLevel {
  body: string;
  country: string; // ISO3
  level: Level;
  files: { path: string; sha256: string }[];
  ids: string[];
}

/** A release's record (release.json of ledger_version 1; assembled from its chunks in version 2). */
export interface ReleaseRecord {
  ledger_version: 1 | 2;
  version: string;
  sequence: number; // 1 for the first release, then one more each
  previous: string | null;
  code_key: string | null; // the property read as each unit's code, when not the usual ones
  thresholds: Thresholds;
  files: ReleasedFile[]; // sorted by path
  levels: ReleasedLevel[];
  counts: { units: number; changes: Partial<Record<ReleaseChange['type'], number>> };
}

/** The chunks of a release's lists, by sha256 (record-chunks.ts), in order. */
export interface ReleaseChunks {
  files: string[];
  levels: string[];
  registry: string[]; // RegistryUnit[] by country, level and ID; a unit of this release has no last_seen: it is this release
  site: string[];
}

/** release.json of ledger_version 2. */
export interface StoredReleaseIndex extends Omit<ReleaseRecord, 'ledger_version' | 'files' | 'levels'> {
  ledger_version: 2;
  chunks: ReleaseChunks;
}

/** A release read from the ledger. */
export interface LedgerRelease {
  record: ReleaseRecord;
  site: ReleaseSite;
  dir: string; // e.g. "data/releases/2026.11"
  /**
   * ledger_version 2: the registry as its chunks keep it (by country, level
   * and ID, this release's units without last_seen), checked with the rest;
   * readRegistry gives it its last_seen and order when asked, since most
   * readers want one release's at most. Version 1 reads registry.json when asked.
   */
  storedRegistry: readonly RegistryUnit[] | undefined;
  /** ledger_version 2: each list's chunks, as read (the next release compares its own with them). */
  chunks?: Record<keyof ReleaseChunks, readonly RecordChunk[]>;
}

export interface Ledger {
  releases: LedgerRelease[]; // by sequence
  objects: Map<string, string>; // sha256 → level file (gzipped, layout 1), relative to the root
  siteObjects: Map<string, string>; // sha256 → published file, relative to the root
  records: Map<string, string>; // sha256 → record chunk (ledger_version 2), relative to the root
  problems: Problem[];
}

/**
 * site.json: every file the release publishes (its dist/, under
 * releases/VERSION/), each stored in site/ by sha256.
 *
 * Layout 1 (the first ledgers): the files as built for one URL path, `base`,
 * published as they are. Layout 2: the same bytes under any base, so that a
 * release stores again only what changed: pages link relatively, and the
 * few files that must name their own URL (JSON links, the sitemap, the 404
 * page, which is served at any path) are `template`s holding BASE_MARK,
 * where `build` writes BASE/releases/VERSION/.
 */
export type ReleaseSite =
  | { base: string; layout?: undefined; files: ReleasedFile[] } // e.g. base "/releases/2026.11/"
  | { layout: 2; files: SiteFile[] }; // paths inside the release's folder of dist/, sorted

export interface SiteFile extends ReleasedFile {
  template?: true; // holds BASE_MARK or VERSION_MARK
}

/**
 * The base a layout-2 release is built for, replaced when it is published.
 * Path-shaped, so every page treats it as the usual "/sub/" base; `release`
 * refuses data holding it (build/release/release.ts).
 */
export const BASE_MARK = '/geoshelf-release-base-8c1e0f/';

/**
 * The version a release's catalogue is built with, replaced by the real one
 * when it is published: the front page names its release, and would
 * otherwise be stored again by every release. Text that HTML, JSON and URLs
 * leave as it is; `release` refuses data holding it.
 */
export const VERSION_MARK = 'geoshelf-release-version-8c1e0f';

/**
 * A version names a folder and a URL path segment on every host: 1 to 32
 * characters, lower-case letters, digits, "." and "-", starting with a digit
 * and ending with a letter or digit, e.g. "2026.11", "1.2.0", "1.0.0-rc.1".
 */
export const VERSION_RULE = /^[0-9](?:[0-9a-z.-]{0,30}[0-9a-z])?$/;

/** Returns why `version` is not a valid release version, or undefined when it is. */
export function versionProblem(version: string): string | undefined {
  if (!VERSION_RULE.test(version) || version.includes('..')) {
    return `"${version}" is not a release version: 1 to 32 lower-case letters, digits, "." and "-", starting with a digit and ending with a letter or digit, e.g. 2026.11 or 1.2.0`;
  }
  return undefined;
}

/** Returns the layout-1 object file of a level file's bytes, relative to its release folder. */
export function objectName(sha256: string): string {
  return `objects/${sha256}.geojson.gz`;
}

/**
 * Reads every release under `<root>/data/releases/` and checks that each
 * holds its records and that every level file it compares with is stored; a
 * missing or unreadable file is a problem naming it (a release against a
 * damaged ledger would lose the IDs it cannot read).
 */
export function readLedger(root: string): Ledger {
  const problems: Problem[] = [];
  const objects = new Map<string, string>();
  const siteObjects = new Map<string, string>();
  const records = new Map<string, string>();
  let names: string[];
  try {
    names = readdirSync(join(root, LEDGER_DIR), { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
      .map((e) => e.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { releases: [], objects, siteObjects, records, problems };
    throw error;
  }
  // First what every folder stores: a release names what earlier ones wrote. Listed and read
  // synchronously, like the chunks: a few hundred small reads, several times faster so.
  const stores = [
    { sub: 'objects', name: /^[0-9a-f]{64}\.geojson\.gz$/, into: objects },
    { sub: 'site', name: /^[0-9a-f]{64}$/, into: siteObjects },
    { sub: 'records', name: CHUNK_FILE, into: records },
  ];
  for (const name of names) {
    for (const { sub, name: pattern, into } of stores) {
      // In folder order: a sha256 stored twice is known by its last folder's file.
      for (const file of listing(join(root, LEDGER_DIR, name, sub))) {
        if (pattern.test(file)) into.set(file.slice(0, 64), `${LEDGER_DIR}/${name}/${sub}/${file}`);
      }
    }
  }
  const chunks = new ChunkReader(root, records);
  const chunked = new Map<LedgerRelease, ChunkedLists>(); // ledger_version 2's
  const releases: LedgerRelease[] = [];
  for (const name of names) {
    const dir = `${LEDGER_DIR}/${name}`;
    const release = readRelease(root, dir, chunks, chunked, problems);
    if (!release) continue;
    if (release.record.version !== name) {
      problems.push(
        ledgerProblem(`${dir}/release.json`, `says version "${release.record.version}", in folder "${name}"`),
      );
      continue;
    }
    releases.push(release);
  }
  releases.sort((a, b) => a.record.sequence - b.record.sequence);
  checkReleases(releases, objects, siteObjects, chunked, problems);
  return { releases, objects, siteObjects, records, problems };
}

/** The chunks of a ledger_version 2 release's lists that checkReleases looks into. */
interface ChunkedLists {
  levels: Chunk[];
  site: Chunk[];
}

/** Reads one release folder in either record format; undefined (with problems) when it cannot be read. */
function readRelease(
  root: string,
  dir: string,
  chunks: ChunkReader,
  chunked: Map<LedgerRelease, ChunkedLists>,
  problems: Problem[],
): LedgerRelease | undefined {
  const stored = readJson<(ReleaseRecord & { ledger_version: 1 }) | StoredReleaseIndex>(
    root,
    `${dir}/release.json`,
    problems,
  );
  if (!existsSync(join(root, dir, 'changes.json'))) {
    problems.push(ledgerProblem(`${dir}/changes.json`, 'missing from the ledger'));
  }
  if (stored !== undefined && (typeof stored !== 'object' || stored === null || Array.isArray(stored))) {
    problems.push(ledgerProblem(`${dir}/release.json`, 'expected a JSON object, a release record'));
    return undefined;
  }
  if (stored?.ledger_version === 2) {
    const file = `${dir}/release.json`;
    const { chunks: given, ...rest } = stored;
    // Hostile or damaged: each list is checked by chunks.list, the object that holds them here.
    const lists: Partial<Record<keyof ReleaseChunks, unknown>> =
      typeof given === 'object' && given !== null ? given : {};
    const files = chunks.list(file, '/chunks/files', lists.files, problems);
    const levels = chunks.list(file, '/chunks/levels', lists.levels, problems);
    const registry = chunks.list(file, '/chunks/registry', lists.registry, problems);
    const site = chunks.list(file, '/chunks/site', lists.site, problems);
    if (!files || !levels || !registry || !site) return undefined;
    // Each list joined from its chunks when first read: most releases' are never read by `release`.
    const record: ReleaseRecord = { ...rest, files: [], levels: [] };
    joinedWhenRead(record, 'files', files);
    joinedWhenRead(record, 'levels', levels);
    const release: LedgerRelease = { record, site: { layout: 2, files: [] }, dir, storedRegistry: [] };
    joinedWhenRead(release.site, 'files', site);
    joinedWhenRead(release, 'storedRegistry', registry);
    release.chunks = { files, levels, registry, site };
    chunked.set(release, { levels, site });
    return release;
  }
  const version: unknown = stored?.ledger_version;
  if (stored && version !== 1) {
    const message = `ledger_version ${String(version)} is not one this geoshelf reads; use a newer geoshelf`;
    problems.push(ledgerProblem(`${dir}/release.json`, message));
    return undefined;
  }
  const site = readJson<ReleaseSite>(root, `${dir}/site.json`, problems);
  if (!existsSync(join(root, dir, 'registry.json'))) {
    problems.push(ledgerProblem(`${dir}/registry.json`, 'missing from the ledger'));
  }
  return stored && site ? { record: stored, site, dir, storedRegistry: undefined } : undefined;
}

/**
 * Gives the units of release `version` its version as last_seen, which the
 * chunks leave out (it changes every release), in the key order release
 * writes; returns them sorted by ID. A unit the chunks give a last_seen (a
 * retired one) is returned as it is.
 */
function withLastSeen(version: string, stored: readonly RegistryUnit[]): RegistryUnit[] {
  const units = stored.map((u): RegistryUnit => {
    if (u.last_seen !== undefined) return u;
    const { id, country, level, code, name, first_seen } = u;
    const unit: Record<string, unknown> = { id, country, level, code, name, first_seen, last_seen: version };
    for (const key in u) if (!(key in unit)) unit[key] = u[key as keyof RegistryUnit];
    return unit as unknown as RegistryUnit;
  });
  return units.sort((a, b) => (a.id < b.id ? -1 : 1));
}

/**
 * Checks the releases' numbering, and that every file they record is stored
 * somewhere in the ledger. A chunk's files are looked up once, however many
 * releases name it (`chunked`: the lists of ledger_version 2's releases).
 */
function checkReleases(
  releases: LedgerRelease[],
  objects: Map<string, string>,
  siteObjects: Map<string, string>,
  chunked: Map<LedgerRelease, ChunkedLists>,
  problems: Problem[],
): void {
  const lostLevels = (levels: readonly ReleasedLevel[]) =>
    levels.flatMap((level, l) =>
      level.files.flatMap((file, f) =>
        objects.has(file.sha256) || siteObjects.has(file.sha256) ? [] : [{ file, l, f }],
      ),
    );
  const lostSite = (files: readonly ReleasedFile[]) =>
    files.flatMap((file, f) => (siteObjects.has(file.sha256) ? [] : [{ file, f }]));
  releases.forEach((r, i) => {
    if (r.record.sequence !== i + 1) {
      problems.push(
        ledgerProblem(`${r.dir}/release.json`, `is release number ${r.record.sequence}, expected ${i + 1}`),
      );
    }
    const lists = chunked.get(r);
    const lost = lists
      ? lists.levels.flatMap((chunk) => chunk.derive('lost levels', lostLevels))
      : lostLevels(r.record.levels);
    for (const { file, l, f } of lost) {
      const problem = ledgerProblem(
        `${r.dir}/release.json`,
        `the ledger lost ${file.path} as released (neither site/${file.sha256} nor ${objectName(file.sha256)} is in a release folder)`,
      );
      // Version 2 keeps the levels in chunks, where no pointer into release.json reaches; the path says which.
      problems.push(lists ? problem : { ...problem, pointer: `/levels/${l}/files/${f}` });
    }
  });
  for (const r of releases) {
    const lists = chunked.get(r);
    const lost = lists
      ? lists.site.flatMap((chunk) => chunk.derive('lost site', lostSite))
      : lostSite(r.site.files);
    for (const { file, f } of lost) {
      const problem = ledgerProblem(
        `${r.dir}/${lists ? 'release.json' : 'site.json'}`,
        `the ledger lost releases/${r.record.version}/${file.path} (site/${file.sha256} is in no release folder)`,
      );
      problems.push(lists ? problem : { ...problem, pointer: `/files/${f}` });
    }
  }
}

/** Returns the names in the folder `path`, none when it cannot be listed (a release that stored nothing of that kind). */
function listing(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}

/**
 * Gives `object` its property `key` as the items of `chunks` one after the
 * other, joined when first read and from then on a plain property.
 */
function joinedWhenRead<O extends object>(object: O, key: keyof O & string, chunks: readonly Chunk[]): void {
  const plain = (value: unknown) =>
    Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  Object.defineProperty(object, key, {
    enumerable: true,
    configurable: true,
    get: () => {
      const items = ([] as unknown[]).concat(...chunks.map((c) => c.items));
      plain(items);
      return items;
    },
    set: plain,
  });
}

/** A record chunk as read: its items, and what checks derived from them, each once however many releases name it. */
class Chunk implements RecordChunk {
  private derived = new Map<string, unknown>(); // what → its value

  constructor(
    readonly sha256: string,
    readonly items: readonly unknown[],
  ) {}

  /** Returns `derive` of the items, derived once; `what` names the derivation. */
  derive<T, R>(what: string, derive: (items: readonly T[]) => R): R {
    if (!this.derived.has(what)) this.derived.set(what, derive(this.items as readonly T[]));
    return this.derived.get(what) as R;
  }
}

/**
 * Reads record chunks, each once however many releases name it (most name
 * the same ones), checking each against its sha256. Synchronously: a ledger
 * holds about a thousand small chunks, read several times faster so than
 * through the thread pool.
 */
class ChunkReader {
  private read = new Map<string, Chunk | string>(); // sha256 → the chunk, or what is wrong with it

  constructor(
    private root: string,
    private stored: Map<string, string>,
  ) {}

  /**
   * Returns the chunks of `shas` in order, or undefined
   * (with a problem at `file`, `pointer`, into `problems`) when `shas` is not
   * a list of sha256s or a chunk is lost or damaged (the first, by index).
   */
  list(file: string, pointer: string, shas: unknown, problems: Problem[]): Chunk[] | undefined {
    const chunks: Chunk[] = [];
    let lost: Problem | undefined;
    let listed = Array.isArray(shas);
    for (const [i, sha] of (listed ? (shas as unknown[]) : []).entries()) {
      if (typeof sha !== 'string') {
        listed = false;
        break;
      }
      let got = this.read.get(sha);
      if (got === undefined) {
        // Not read yet: whether or not the ledger holds a chunk of that name (CHUNK_FILE), it must be a sha256.
        if (!/^[0-9a-f]{64}$/.test(sha)) {
          listed = false;
          break;
        }
        got = this.load(sha);
        this.read.set(sha, got);
      }
      if (typeof got === 'string') lost ??= { ...ledgerProblem(file, got), pointer: `${pointer}/${i}` };
      else chunks.push(got);
    }
    if (!listed) {
      problems.push({ ...ledgerProblem(file, 'expected a list of sha256s'), pointer });
      return undefined;
    }
    if (lost) {
      problems.push(lost);
      return undefined;
    }
    return chunks;
  }

  private load(sha: string): Chunk | string {
    const path = this.stored.get(sha);
    if (!path) return `the ledger lost ${chunkName(sha)} (in no release folder)`;
    const bytes = this.bytes(join(this.root, path));
    if (sha256Bytes(bytes) !== sha) return `${path} is damaged: its sha256 is not its name`;
    try {
      const items = JSON.parse(bytes.toString('utf8')) as unknown;
      return Array.isArray(items) ? new Chunk(sha, items) : `${path} is not a JSON array`;
    } catch (error) {
      return `${path} is not JSON: ${(error as Error).message}`;
    }
  }

  private scratch = Buffer.allocUnsafe(1 << 16);

  /** Returns the bytes of the file `path`, read into a buffer kept from one chunk to the next (valid until the next read). */
  private bytes(path: string): Buffer {
    const fd = openSync(path, 'r');
    try {
      let n = 0;
      for (let got; (got = readSync(fd, this.scratch, n, this.scratch.length - n, null)) > 0;) {
        n += got;
        if (n === this.scratch.length) {
          const larger = Buffer.allocUnsafe(2 * n);
          this.scratch.copy(larger);
          this.scratch = larger;
        }
      }
      return this.scratch.subarray(0, n);
    } finally {
      closeSync(fd);
    }
  }
}

const registries = new WeakMap<LedgerRelease, RegistryUnit[]>(); // ledger_version 2's, once assembled

/** Returns the unit registry of a release, sorted by ID. */
export function readRegistry(root: string, release: LedgerRelease): RegistryUnit[] {
  if (!release.storedRegistry) {
    return readJson<RegistryUnit[]>(root, `${release.dir}/registry.json`, []) ?? [];
  }
  let registry = registries.get(release);
  if (!registry) {
    registry = withLastSeen(release.record.version, release.storedRegistry);
    registries.set(release, registry);
  }
  return registry;
}

/** The registry as a release publishes it (api/releases/VERSION/units.json): version 1's file as it is. */
export function registryText(root: string, release: LedgerRelease): string {
  if (!release.storedRegistry) return readFileSync(join(root, release.dir, 'registry.json'), 'utf8'); // read as the rest of the ledger is
  return `${JSON.stringify(readRegistry(root, release), null, 1)}\n`;
}

function readJson<T>(root: string, file: string, problems: Problem[]): T | undefined {
  let text: string;
  try {
    text = readFileSync(join(root, file), 'utf8');
  } catch {
    problems.push(ledgerProblem(file, 'missing from the ledger'));
    return undefined;
  }
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    problems.push(ledgerProblem(file, `not JSON: ${(error as Error).message}`));
    return undefined;
  }
}

function ledgerProblem(file: string, message: string): Problem {
  return problem(file, message, { rule: 'ledger' });
}
