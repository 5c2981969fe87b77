// The release ledger under `data/releases/` (committed beside the
// manifests): one folder per release, named by its version. VERSION/ holds
// release.json (the release's number, previous release, counts, and the
// record chunks holding its lists), records/ (chunks new in this release),
// and objects/ (the bytes this release publishes that no earlier release
// stored: each distinct content once across the ledger, by sha256,
// compressed where that pays: build/release/object-store.ts).
//
// Record formats, all read as they are: ledger_version 4 (now) keeps every
// list in chunks, the feed too, brotli-compressed, and release.json names
// each list's index chunks (lists of its chunks' sha256s), so that it does
// not restate the whole catalogue's chunks each release; 3 named the chunks
// themselves in release.json; 2 kept chunks raw, the
// feed in changes.json and the bytes raw in site/; 1 wrote the lists whole
// (release.json, registry.json, site.json), its first layout also objects/
// (level files gzipped). A ledger is untrusted input: every record's shape
// is checked as it is read (build/release/ledger-shapes.ts), every stored
// byte against its sha256 when it is used.
import { closeSync, lstatSync, openSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { LevelCoverageFigures, RegistryUnit, ReleaseChange } from '../core/shared/api.ts';
import type { Level } from '../core/shared/manifest.ts';
import type { Problem } from '../core/problem.ts';
import type { Thresholds } from '../identity/thresholds.ts';
import { Chunk, ChunkReader, joinedWhenRead, ledgerProblem } from './ledger-chunks.ts';
import {
  checkList,
  registryUnit,
  releaseChange,
  releasedFile,
  releasedLevel,
  releaseHead,
  siteFile,
  type Check,
} from './ledger-shapes.ts';
import {
  LEDGER_OPEN,
  OBJECT_FILES,
  PACK_INDEX,
  packMembers,
  unreadable,
  type StoredObject,
} from './object-store.ts';
import { readChangesFile, readRecordJson } from './ledger-json.ts';
import { isVersion } from './versions.ts';

/** The ledger's folder, relative to the root. */
export const LEDGER_DIR = 'data/releases';

/** The record format `release` writes now. */
export const LEDGER_VERSION = 4;

/** A file of the data tree as a release holds it. */
export interface ReleasedFile {
  path: string; // e.g. "data/earth/CHL/CHL_ADM1.geojson"
  sha256: string;
  bytes: number;
}

/**
 * One level of one country in a release: its files in order, its units' IDs
 * in feature order, and how its units fitted together when it was recorded
 * (absent in releases made before the coverage check, or for a level it did
 * not check: one unit, or a file that is not GeoJSON).
 */
export interface ReleasedLevel {
  body: string;
  country: string; // ISO3
  level: Level;
  files: { path: string; sha256: string }[];
  ids: string[];
  coverage?: LevelCoverageFigures;
}

/** A release's record (release.json of ledger_version 1; assembled from its chunks in 2 and 3). */
export interface ReleaseRecord {
  ledger_version: 1 | 2 | 3 | 4;
  version: string;
  sequence: number; // 1 for the first release, then one more each
  previous: string | null;
  date?: string; // e.g. "2026-11-27", the day it was recorded (ledger_version 3)
  code_key: string | null; // the property read as each unit's code, when not the usual ones
  thresholds: Thresholds;
  files: ReleasedFile[]; // sorted by path
  levels: ReleasedLevel[];
  counts: { units: number; changes: Partial<Record<ReleaseChange['type'], number>> };
}

/** The chunks of a release's lists, by sha256 (record-chunks.ts), in order; in ledger_version 4 the index chunks naming them. */
export interface ReleaseChunks {
  files: string[];
  levels: string[];
  registry: string[]; // RegistryUnit[] by country, level and ID; a unit of this release has no last_seen: it is this release
  site: string[];
  changes: string[]; // ledger_version 3: the feed, in order
}

/** release.json of ledger_version 2, 3 and 4. */
export interface StoredReleaseIndex extends Omit<ReleaseRecord, 'ledger_version' | 'files' | 'levels'> {
  ledger_version: 2 | 3 | 4;
  chunks: ReleaseChunks;
}

/**
 * What a release publishes (its dist/, under releases/VERSION/), each file
 * stored by sha256. Layout 1 (the first ledgers): the files as built for one
 * URL path, `base`, published as they are. Layout 2: the same bytes under any
 * base, so that a release stores again only what changed: pages link
 * relatively, and the few files that must name their own URL or version are
 * `template`s holding BASE_MARK or VERSION_MARK, which `build` replaces.
 */
export type ReleaseSite =
  | { base: string; layout?: undefined; files: ReleasedFile[] } // e.g. base "/releases/2026.11/"
  | { layout: 2; files: SiteFile[] }; // paths inside the release's folder of dist/, sorted

export interface SiteFile extends ReleasedFile {
  template?: true; // holds BASE_MARK or VERSION_MARK
}

/** A release read from the ledger. */
export interface LedgerRelease {
  record: ReleaseRecord;
  site: ReleaseSite;
  dir: string; // e.g. "data/releases/2026.11"
  /** The feed since the previous release, in order (empty for the first). */
  changes: ReleaseChange[];
  /**
   * The registry as the ledger keeps it: in ledger_version 2 and 3 by
   * country, level and ID, this release's units without last_seen (it is
   * this release); readRegistry gives it its last_seen and order when asked.
   */
  storedRegistry: readonly RegistryUnit[];
  /** ledger_version 2 and 3: each list's chunks, as read (the next release compares its own with them). */
  chunks?: Partial<Record<keyof ReleaseChunks, readonly Chunk[]>>;
}

export interface Ledger {
  releases: LedgerRelease[]; // by sequence
  objects: Map<string, StoredObject>; // sha256 → a stored content (any layout)
  records: Map<string, StoredObject>; // sha256 → a record chunk (ledger_version 2 and 3)
  problems: Problem[]; // what makes the ledger unusable: nothing may be recorded or published on it
  warnings: Problem[]; // what is ignored, e.g. a folder that is not a release
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

/** The record lists of ledger_version 2 and 3, with the shape of their items. */
const LISTS: [keyof ReleaseChunks, Check][] = [
  ['files', releasedFile],
  ['levels', releasedLevel],
  ['registry', registryUnit],
  ['site', siteFile],
  ['changes', releaseChange],
];

/**
 * Reads every release under `<root>/data/releases/` and checks each: its
 * folder is a version, its records are there, of their shape and intact,
 * the releases are numbered 1, 2, 3… each naming the one before, and every
 * file they record is stored somewhere in the ledger. A problem names the
 * file and place (a release on a damaged ledger would lose what it cannot
 * read); a folder that is not a release is a warning, and ignored.
 */
export function readLedger(root: string): Ledger {
  const ledger: Ledger = { releases: [], objects: new Map(), records: new Map(), problems: [], warnings: [] };
  const names = releaseFolders(root, ledger);
  // First what every folder stores: a release names what earlier ones wrote.
  for (const name of names) {
    for (const { sub, name: pattern, encoding } of OBJECT_FILES) {
      for (const file of listing(join(root, LEDGER_DIR, name, sub))) {
        if (pattern.test(file))
          ledger.objects.set(file.slice(0, 64), { path: `${LEDGER_DIR}/${name}/${sub}/${file}`, encoding });
      }
    }
    readPacks(root, name, ledger);
    for (const file of listing(join(root, LEDGER_DIR, name, 'records'))) {
      const found = /^([0-9a-f]{64})\.json(\.br)?$/.exec(file);
      if (found) {
        const encoding = found[2] ? 'br' : 'raw';
        ledger.records.set(found[1]!, { path: `${LEDGER_DIR}/${name}/records/${file}`, encoding });
      }
    }
  }
  // What the stores lack follows from a damaged pack: said once, by the pack.
  const storesWhole = ledger.problems.length === 0;
  const chunks = new ChunkReader(root, ledger.records);
  for (const name of names) {
    const release = readRelease(root, `${LEDGER_DIR}/${name}`, chunks, ledger.problems);
    if (!release) continue;
    if (release.record.version !== name) {
      const message = `says version "${release.record.version}", in folder "${name}"`;
      ledger.problems.push(ledgerProblem(`${release.dir}/release.json`, message, '/version'));
      continue;
    }
    ledger.releases.push(release);
  }
  ledger.releases.sort((a, b) => a.record.sequence - b.record.sequence);
  // With a release unread, the others' numbers cannot be checked: the one problem is that release's.
  if (ledger.releases.length === names.length) checkOrder(ledger.releases, ledger.problems);
  if (storesWhole) checkStored(ledger);
  return ledger;
}

/** Adds the members of every pack a release folder holds to the ledger's objects; a damaged index is a problem. */
function readPacks(root: string, name: string, ledger: Ledger): void {
  for (const file of listing(join(root, LEDGER_DIR, name, 'objects'))) {
    const id = PACK_INDEX.exec(file)?.[1];
    if (!id) continue;
    const index = `${LEDGER_DIR}/${name}/objects/${file}`;
    let members: ReturnType<typeof packMembers>;
    try {
      const fd = openSync(join(root, index), LEDGER_OPEN);
      try {
        members = packMembers(readFileSync(fd, 'utf8'));
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      ledger.problems.push(ledgerProblem(index, unreadable(error)));
      continue;
    }
    if (typeof members === 'string') {
      ledger.problems.push(ledgerProblem(index, members));
      continue;
    }
    const path = `${LEDGER_DIR}/${name}/objects/pack-${id}.br`;
    if (!lstatSync(join(root, path), { throwIfNoEntry: false })?.isFile()) {
      ledger.problems.push(ledgerProblem(index, `names pack-${id}.br, which is missing from the ledger`));
      continue;
    }
    for (const [sha256, offset, bytes] of members)
      ledger.objects.set(sha256, { path, encoding: 'pack', offset, bytes });
  }
}

/** Returns the release folders' names; a folder that is not a version is a warning, a ledger that is not a folder a problem. */
function releaseFolders(root: string, ledger: Ledger): string[] {
  const info = statSync(join(root, LEDGER_DIR), { throwIfNoEntry: false });
  if (!info) return [];
  if (!info.isDirectory()) {
    ledger.problems.push(
      ledgerProblem(LEDGER_DIR, 'is not a folder: the ledger holds one folder per release'),
    );
    return [];
  }
  const names: string[] = [];
  const ignored = (name: string, message: string) =>
    ledger.warnings.push({ ...ledgerProblem(`${LEDGER_DIR}/${name}`, message), severity: 'warning' });
  for (const entry of readdirSync(join(root, LEDGER_DIR), { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    if (entry.isSymbolicLink()) ignored(entry.name, 'is a symbolic link, not a release folder: ignored');
    else if (!entry.isDirectory()) continue;
    else if (isVersion(entry.name)) names.push(entry.name);
    else ignored(entry.name, 'is not a release (its name is not a version, e.g. 2026.11): ignored');
  }
  return names.sort();
}

/** Reads one release folder in any record format; undefined (with problems) when it cannot be read. */
function readRelease(
  root: string,
  dir: string,
  chunks: ChunkReader,
  problems: Problem[],
): LedgerRelease | undefined {
  const file = `${dir}/release.json`;
  const stored = readRecordJson(root, file, problems);
  if (stored === undefined) return undefined;
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) {
    problems.push(ledgerProblem(file, 'expected a JSON object, a release record'));
    return undefined;
  }
  const record = stored as Record<string, unknown>;
  const format = record.ledger_version;
  if (format !== 1 && format !== 2 && format !== 3 && format !== 4) {
    const message = `ledger_version ${JSON.stringify(format)} is not one this geoshelf reads; use a newer geoshelf`;
    problems.push(ledgerProblem(file, message, '/ledger_version'));
    return undefined;
  }
  const wrong = releaseHead(record);
  if (wrong) {
    const at = wrong.indexOf(': '); // "sequence: expected a whole number ≥ 1"
    problems.push(ledgerProblem(file, wrong.slice(at + 2), `/${wrong.slice(0, at)}`));
    return undefined;
  }
  return format === 1
    ? readVersion1(root, dir, record, problems)
    : readChunked(root, dir, record, chunks, problems);
}

/** ledger_version 2 and 3: release.json names the chunks of each list; 4: their index chunks. */
function readChunked(
  root: string,
  dir: string,
  stored: Record<string, unknown>,
  chunks: ChunkReader,
  problems: Problem[],
): LedgerRelease | undefined {
  const file = `${dir}/release.json`;
  const { chunks: given, ...head } = stored;
  const lists = (typeof given === 'object' && given !== null ? given : {}) as Record<string, unknown>;
  const read: Partial<Record<keyof ReleaseChunks, Chunk[]>> = {};
  let whole = true; // every list is read, so that each damaged one is named
  const named = head.ledger_version === 4 ? chunks.indexed.bind(chunks) : chunks.list.bind(chunks);
  for (const [list, item] of LISTS) {
    if (list === 'changes' && head.ledger_version === 2) continue; // changes.json, below
    const got = named(file, `/chunks/${list}`, lists[list], [list, item], problems);
    if (got) read[list] = got;
    else whole = false;
  }
  if (!whole) return undefined;
  const record = { ...head, files: [], levels: [] } as unknown as ReleaseRecord;
  joinedWhenRead(record, 'files', read.files!);
  joinedWhenRead(record, 'levels', read.levels!);
  const release: LedgerRelease = {
    record,
    site: { layout: 2, files: [] },
    dir,
    changes: [],
    storedRegistry: [],
    chunks: read,
  };
  joinedWhenRead(release.site, 'files', read.site!);
  joinedWhenRead(release, 'storedRegistry', read.registry!);
  if (read.changes) joinedWhenRead(release, 'changes', read.changes);
  else {
    const changes = readChangesFile(root, dir, problems);
    if (!changes) return undefined;
    release.changes = changes;
  }
  return release;
}

/** ledger_version 1: the lists whole, in release.json, site.json and registry.json. */
function readVersion1(
  root: string,
  dir: string,
  record: Record<string, unknown>,
  problems: Problem[],
): LedgerRelease | undefined {
  const file = `${dir}/release.json`;
  for (const [list, item] of [
    ['files', releasedFile],
    ['levels', releasedLevel],
  ] as const) {
    const wrong = checkList(record[list], item);
    if (wrong) {
      problems.push(ledgerProblem(file, wrong, `/${list}`));
      return undefined;
    }
  }
  const site = readRecordJson(root, `${dir}/site.json`, problems) as ReleaseSite | undefined;
  if (site === undefined) return undefined;
  const siteWrong =
    typeof site !== 'object' || site === null
      ? 'expected an object'
      : (checkList(site.files, siteFile) ??
        (site.layout === 2 || typeof site.base === 'string' ? undefined : 'base: expected a URL path'));
  if (siteWrong) {
    problems.push(ledgerProblem(`${dir}/site.json`, siteWrong));
    return undefined;
  }
  const changes = readChangesFile(root, dir, problems);
  if (!changes) return undefined;
  const registry = readRecordJson(root, `${dir}/registry.json`, problems);
  if (registry === undefined) return undefined;
  const registryWrong = checkList(registry, registryUnit);
  if (registryWrong) {
    problems.push(ledgerProblem(`${dir}/registry.json`, registryWrong));
    return undefined;
  }
  const storedRegistry = registry as RegistryUnit[];
  return { record: record as unknown as ReleaseRecord, site, dir, changes, storedRegistry };
}

/** Checks the numbering: 1, 2, 3… in sequence order, each release naming the one before as `previous`. */
function checkOrder(releases: LedgerRelease[], problems: Problem[]): void {
  releases.forEach((r, i) => {
    const file = `${r.dir}/release.json`;
    if (r.record.sequence !== i + 1) {
      const message = `is release number ${r.record.sequence}, but the ledger's releases before it number ${i}: each release must be one more than the one before`;
      problems.push(ledgerProblem(file, message, '/sequence'));
    }
    const before = i === 0 ? null : releases[i - 1]!.record.version;
    if (r.record.previous !== before) {
      const says = r.record.previous === null ? 'none' : `"${r.record.previous}"`;
      const message = `names ${says} as its previous release, but the release before it is ${before === null ? 'none' : `"${before}"`}`;
      problems.push(ledgerProblem(file, message, '/previous'));
    }
  });
}

/**
 * Checks that every file the releases record (their levels, which the next
 * release compares with, and every file they publish) is stored somewhere
 * in the ledger. A chunk's files are looked up once, however many releases
 * name it.
 */
function checkStored(ledger: Ledger): void {
  const { objects } = ledger;
  const lostLevels = (levels: readonly ReleasedLevel[]) =>
    levels.flatMap((level) => level.files.filter((file) => !objects.has(file.sha256)));
  const lostSite = (files: readonly ReleasedFile[]) => files.filter((file) => !objects.has(file.sha256));
  for (const r of ledger.releases) {
    const levels = r.chunks?.levels;
    const site = r.chunks?.site;
    const lost = [
      ...(levels ? levels.flatMap((c) => c.derive('lost levels', lostLevels)) : lostLevels(r.record.levels)),
      ...(site ? site.flatMap((c) => c.derive('lost site', lostSite)) : lostSite(r.site.files)),
    ];
    const first = lost[0];
    if (first) {
      const more = lost.length > 1 ? ` (and ${lost.length - 1} more)` : '';
      const message = `the ledger lost ${first.path} as released (its bytes, sha256 ${first.sha256}, are in no release folder)${more}`;
      ledger.problems.push(ledgerProblem(`${r.dir}/release.json`, message));
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

const registries = new WeakMap<LedgerRelease, RegistryUnit[]>(); // assembled once

/** Returns the unit registry of a release (every unit ID ever given, up to it), sorted by ID. */
export function readRegistry(release: LedgerRelease): RegistryUnit[] {
  let registry = registries.get(release);
  if (!registry) {
    registry = withLastSeen(release.record.version, release.storedRegistry);
    registries.set(release, registry);
  }
  return registry;
}
