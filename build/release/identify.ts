// The identity step of `geoshelf release`: gives every unit of the checked
// manifests its ID (the ID of the same place in the previous release, else a
// new one: build/identity/) and writes the feed since the previous release.
// The feed is complete by construction: it compares the two releases at
// every grain, so whatever differs appears: countries added and removed,
// levels added and removed, and within the levels both have, every unit
// added, removed, renamed, re-coded, changed, merged or split. A country
// whose files are all unchanged keeps its units as they were, unread.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RegistryUnit, ReleaseChange } from '../core/shared/api.ts';
import type { Level } from '../core/shared/manifest.ts';
import { CODE_KEYS, NAME_KEYS, PARENT_KEYS } from '../identity/keys.ts';
import { readLevelUnits, type LevelUnit } from '../identity/level.ts';
import {
  identifyCountry,
  retire,
  retiredFromReleases,
  type LevelVintage,
  type PreviousLevel,
} from '../identity/registry.ts';
import type { RetiredUnits } from '../identity/restore.ts';
import type { Thresholds } from '../identity/thresholds.ts';
import type { CheckedManifestFile } from '../manifest/validate.ts';
import type { Ledger, LedgerRelease, ReleasedFile, ReleasedLevel, ReleaseRecord } from './ledger.ts';
import { LEDGER_VERSION, readRegistry } from './ledger.ts';
import { copyObjectTo } from './object-store.ts';
import { countryDetailsChange, previousManifest } from './country-details.ts';
import { isObject } from '../core/json-value.ts';
import { METRES_PER_DEGREE } from '../core/shared/crs.ts';

/** Properties that never count as an `attributes` change: names, codes, parents and per-build identifiers. */
const IDENTIFYING = ['shapeID', 'parentID', 'id'];

/** What identification makes: the release's record, the whole registry (by ID) and the feed. */
export interface Made {
  record: ReleaseRecord;
  registry: RegistryUnit[];
  changes: ReleaseChange[];
}

export interface IdentifyInput {
  root: string;
  version: string;
  date: string; // e.g. "2026-11-27"
  manifests: CheckedManifestFile[]; // sorted by file
  files: ReleasedFile[]; // every file of the release, sorted by path
  ledger: Ledger;
  thresholds: Thresholds;
  codeKey?: string;
}

/** The files of one level, in feature order: its file, or its parts one after the other. */
function levelFiles(m: CheckedManifestFile, index: number): { path: string; sha256: string }[] {
  const d = m.manifest.datasets[index]!;
  if (d.path !== undefined) return [{ path: d.path, sha256: d.sha256 }];
  return (d.parts ?? []).map((p) => ({ path: p.path, sha256: p.sha256 }));
}

const sameLevelFiles = (a: { path: string; sha256: string }[], b: { path: string; sha256: string }[]) =>
  a.length === b.length && a.every((f, i) => f.path === b[i]!.path && f.sha256 === b[i]!.sha256);

/** What every country's identification shares: the previous release and the registry it updates. */
interface Context {
  input: IdentifyInput;
  previous: LedgerRelease | undefined;
  registry: Map<string, RegistryUnit>; // by ID, updated in place
  ignored: Set<string>; // properties that never count as an `attributes` change
  retired: RetiredUnits;
}

/** One level of a country in this release, e.g. {level: "ADM1", files: [{path: "data/earth/CHL/CHL_ADM1.geojson", sha256}]}. */
interface LevelNow {
  level: Level;
  files: { path: string; sha256: string }[];
}

/** Gives every unit its ID and finds every change since the previous release. */
export async function identify(input: IdentifyInput): Promise<Made> {
  const { root, ledger, codeKey } = input;
  const previous: LedgerRelease | undefined = ledger.releases.at(-1);
  // Copies: the ledger's units are shared by the releases that name the same chunk. Shallow:
  // identification sets a unit's fields, and replaces its lists (build/identity/registry.ts).
  const registry = new Map<string, RegistryUnit>(
    (previous ? readRegistry(previous) : []).map((u) => [u.id, { ...u }]),
  );
  const before = levelsByCountry(previous);
  const ignored = new Set([
    ...NAME_KEYS,
    ...CODE_KEYS,
    ...PARENT_KEYS,
    ...IDENTIFYING,
    ...(codeKey ? [codeKey] : []),
  ]);
  // A removed unit's last units are in the release it was last seen in: read from the ledger when a
  // level has a new unit that might be it.
  const retired = retiredFromReleases(async (v, country, level) => {
    const release = ledger.releases.find((r) => r.record.version === v);
    const recorded = release?.record.levels.find((l) => l.country === country && l.level === level);
    if (!recorded) return undefined;
    return { ids: recorded.ids, units: await storedLevelUnits(root, ledger, recorded, codeKey) };
  });
  const context: Context = { input, previous, registry, ignored, retired };
  const levels: ReleasedLevel[] = [];
  const changes: ReleaseChange[] = [];
  for (const m of input.manifests) {
    const country = await releaseCountry(context, m, before.get(countryKey(m)) ?? []);
    levels.push(...country.levels);
    changes.push(...country.changes);
  }
  const seen = new Set(input.manifests.map(countryKey)); // countries of this release
  for (const [key, old] of before) {
    if (!seen.has(key)) changes.push(...(await removeCountry(context, key, old)));
  }
  return made(input, previous, levels, changes, registry);
}

/** Returns a country's key, e.g. "earth/CHL". */
function countryKey({ manifest }: CheckedManifestFile): string {
  return `${manifest.body}/${manifest.iso_a3}`;
}

/** Returns the previous release's levels by country key (e.g. "earth/CHL"), in their recorded order. */
function levelsByCountry(previous: LedgerRelease | undefined): Map<string, ReleasedLevel[]> {
  const before = new Map<string, ReleasedLevel[]>();
  for (const level of previous?.record.levels ?? []) {
    const key = `${level.body}/${level.country}`;
    before.set(key, [...(before.get(key) ?? []), level]);
  }
  return before;
}

/**
 * Returns one country's levels in this release and its changes since the
 * previous one (`old`: its levels there), giving each unit its ID.
 */
async function releaseCountry(
  context: Context,
  m: CheckedManifestFile,
  old: ReleasedLevel[],
): Promise<{ levels: ReleasedLevel[]; changes: ReleaseChange[] }> {
  const { input, previous, registry } = context;
  const { manifest } = m;
  const now: LevelNow[] = manifest.datasets.flatMap((d, i) =>
    d.level === 'QUAD' ? [] : [{ level: d.level, files: levelFiles(m, i) }],
  );
  // Its described fields (country-details.ts) are compared first, even when its levels are unchanged.
  const details = old.length
    ? await countryDetailsChange(input.root, input.ledger, previous!, m, input.files)
    : undefined;
  const unchanged =
    previous?.record.code_key === (input.codeKey ?? null) &&
    old.length === now.length &&
    now.every((n, i) => old[i]!.level === n.level && sameLevelFiles(old[i]!.files, n.files));
  if (unchanged) {
    // Nothing to read: the same units, seen once more.
    for (const level of old) for (const id of level.ids) registry.get(id)!.last_seen = input.version;
    return { levels: old, changes: details ? [details] : [] };
  }
  const found = await identifyCountry({
    country: manifest.iso_a3,
    version: input.version,
    levels: await readVintages(input.root, now, input.codeKey),
    previous: await previousLevels(input, old, now),
    registry,
    thresholds: input.thresholds,
    perDegree: METRES_PER_DEGREE[manifest.body],
    ignored: context.ignored,
    retired: context.retired, // units removed before, which may come back with their IDs
    released: old.length > 0, // its added units are reported, though no level of it is kept
  });
  const changes = [
    ...(details ? [details] : []),
    ...addedChanges(context, m, old, now, found.units),
    ...found.changes,
  ];
  for (const level of old) {
    if (!now.some((n) => n.level === level.level)) changes.push(...removeLevel(level, registry));
  }
  const levels = now.map((n) => ({
    body: manifest.body,
    country: manifest.iso_a3,
    level: n.level,
    files: n.files,
    ids: found.units.filter((u) => u.level === n.level).map((u) => u.id),
  }));
  return { levels, changes };
}

/** Returns this release's units of each level, read from its files, with where each is. */
async function readVintages(
  root: string,
  now: LevelNow[],
  codeKey: string | undefined,
): Promise<LevelVintage[]> {
  const vintages: LevelVintage[] = [];
  for (const n of now) {
    const units: LevelUnit[] = [];
    const places = [];
    for (const file of n.files) {
      const read = await readLevelUnits([join(root, file.path)], codeKey);
      units.push(...read);
      places.push(...read.map((_, feature) => ({ file: file.path, feature })));
    }
    vintages.push({ level: n.level, units, places });
  }
  return vintages;
}

/** Returns the previous release's units and IDs of each level the country still has. */
async function previousLevels(
  input: IdentifyInput,
  old: ReleasedLevel[],
  now: LevelNow[],
): Promise<Map<Level, PreviousLevel>> {
  const previous = new Map<Level, PreviousLevel>();
  for (const level of old) {
    if (!now.some((n) => n.level === level.level)) continue;
    previous.set(level.level, {
      units: await storedLevelUnits(input.root, input.ledger, level, input.codeKey),
      ids: level.ids,
    });
  }
  return previous;
}

/**
 * Returns a country's `country-added` entry (when it is new since the
 * previous release) and a `level-added` entry per level it did not have,
 * with a new country's units each `added`.
 */
function addedChanges(
  { input, previous }: Context,
  { manifest }: CheckedManifestFile,
  old: ReleasedLevel[],
  now: LevelNow[],
  units: RegistryUnit[],
): ReleaseChange[] {
  const changes: ReleaseChange[] = [];
  const isNew = previous !== undefined && old.length === 0;
  if (isNew) {
    const { iso_a3: country, body } = manifest;
    changes.push({
      type: 'country-added',
      country,
      body,
      name: manifest.name.en,
      levels: now.map((n) => n.level),
    });
  }
  for (const n of now) {
    if (!previous || old.some((l) => l.level === n.level)) continue;
    const ids = units.filter((u) => u.level === n.level);
    changes.push({ type: 'level-added', country: manifest.iso_a3, level: n.level, units: ids.length });
    // A country's first release names no unit (identifyCountry compares with nothing): each is added.
    if (isNew) changes.push(...ids.map((u) => added(u, input.version)));
  }
  return changes;
}

/** Retires every unit of a country no longer released, and returns its `country-removed` and levels' entries. */
async function removeCountry(context: Context, key: string, old: ReleasedLevel[]): Promise<ReleaseChange[]> {
  const { input, previous, registry } = context;
  const [body, country] = key.split('/') as [string, string];
  const name = await countryName(input.root, input.ledger, previous!, body, country);
  const changes: ReleaseChange[] = [
    { type: 'country-removed', country, body, name, levels: old.map((l) => l.level) },
  ];
  for (const level of old) changes.push(...removeLevel(level, registry));
  return changes;
}

/** Returns the record of the release made of `levels` and `changes`, and the registry sorted by ID. */
function made(
  input: IdentifyInput,
  previous: LedgerRelease | undefined,
  levels: ReleasedLevel[],
  changes: ReleaseChange[],
  registry: Map<string, RegistryUnit>,
): Made {
  const counts: ReleaseRecord['counts'] = {
    units: levels.reduce((n, l) => n + l.ids.length, 0),
    changes: {},
  };
  for (const c of changes) counts.changes[c.type] = (counts.changes[c.type] ?? 0) + 1;
  const record: ReleaseRecord = {
    ledger_version: LEDGER_VERSION,
    version: input.version,
    sequence: (previous?.record.sequence ?? 0) + 1,
    previous: previous?.record.version ?? null,
    date: input.date,
    code_key: input.codeKey ?? null,
    thresholds: input.thresholds,
    files: input.files,
    levels,
    counts,
  };
  const sorted = [...registry.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
  return { record, registry: sorted, changes };
}

/** The `added` entry of a unit of a new country; `restored` when it is a unit removed before, back with its ID. */
function added(u: RegistryUnit, version: string): ReleaseChange {
  const restored = u.first_seen !== version ? { restored: true as const } : {};
  return {
    type: 'added',
    country: u.country,
    level: u.level,
    id: u.id,
    code: u.code,
    name: u.name,
    ...restored,
  };
}

/** Retires every unit of a level that is no longer released, and returns its `level-removed` and units' `removed` entries. */
function removeLevel(level: ReleasedLevel, registry: Map<string, RegistryUnit>): ReleaseChange[] {
  const units = level.ids.map((id): ReleaseChange => {
    const entry = registry.get(id)!;
    retire(entry);
    return {
      type: 'removed',
      country: level.country,
      level: level.level,
      id,
      code: entry.code,
      name: entry.name,
    };
  });
  return [
    { type: 'level-removed', country: level.country, level: level.level, units: units.length },
    ...units,
  ];
}

/**
 * Returns the units of a level as the previous release stored it: each of
 * its files unpacked from the ledger (checked against its sha256) into a
 * scratch folder and read by the one reader.
 */
async function storedLevelUnits(
  root: string,
  ledger: Ledger,
  level: ReleasedLevel,
  codeKey: string | undefined,
): Promise<LevelUnit[]> {
  const scratch = await mkdtemp(join(tmpdir(), 'geoshelf-level-'));
  try {
    const paths: string[] = [];
    for (const [i, file] of level.files.entries()) {
      const path = join(scratch, `${i}.geojson`);
      await copyObjectTo(root, file.sha256, ledger.objects.get(file.sha256)!, path);
      paths.push(path);
    }
    return await readLevelUnits(paths, codeKey);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Returns the English name of a country as release `previous` recorded it, else its ISO3 code. */
async function countryName(
  root: string,
  ledger: Ledger,
  previous: LedgerRelease,
  body: string,
  country: string,
): Promise<string> {
  const name = (await previousManifest(root, ledger, previous, body, country))?.name;
  const en = isObject(name) ? name.en : undefined;
  return typeof en === 'string' && en !== '' ? en : country;
}
