// Gives every unit of a country's levels its ID for a release: the ID of
// the same place in the previous release (build/identity/match.ts decides
// which that is), else the ID of a removed unit it is again
// (build/identity/restore.ts), else a new opaque one; merges and splits get
// new IDs linked by supersedes/superseded_by, exactly as their feed entries
// link them; then each unit's parent_id. Returns the registry entries and
// the changes, by ID (the feed), each naming its units' codes and names.
import { createHash } from 'node:crypto';
import type { ChangedUnit, RegistryUnit, UnitChange } from '../core/shared/api.ts';
import type { Level } from '../core/shared/manifest.ts';
import type { LevelUnit } from './level.ts';
import { matchUnits, type Change, type MatchResult } from './match.ts';
import { median } from './noise.ts';
import { findParents, parentLevels } from './parents.ts';
import { RetiredCandidates, restoredIds, type RetiredUnits } from './restore.ts';
import type { Thresholds } from './thresholds.ts';

export { retiredFromReleases } from './restore.ts';

/** Where a unit is in a release: its file and its index among that file's features. */
interface Place {
  file: string;
  feature: number;
}

/** One level of a country in one release: its units, in file order, and where each is. */
export interface LevelVintage {
  level: Level;
  units: LevelUnit[];
  places: Place[];
}

/** The previous release's side of one level: its units (in the same order) and their IDs. */
export interface PreviousLevel {
  units: LevelUnit[];
  ids: string[];
}

export interface IdentifyInput {
  country: string; // ISO3
  version: string; // the release being made
  levels: LevelVintage[]; // this release's levels of the country
  previous: Map<Level, PreviousLevel>; // empty for a country's first release
  registry: Map<string, RegistryUnit>; // every ID recorded so far (any country): entries are updated in place
  thresholds: Thresholds;
  perDegree: number; // metres per degree on the country's body (METRES_PER_DEGREE in build/core/shared/crs.ts)
  ignored: Set<string>; // properties left out of `attributes` changes (names, codes, identifiers)
  retired?: RetiredUnits; // the geometry of removed units, so that one that comes back gets its ID again
  // The country was in the previous release, so every unit it adds is reported, even when
  // none of its levels is kept (ADM0 removed, ADM2 added). Default: `previous` is not empty.
  released?: boolean;
}

/** IDs are 12 characters of this alphabet (Crockford's base 32, lower case): no i, l, o, u. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * Returns a new opaque ID, derived from where the unit first appeared (so a
 * release re-made from the same data gets the same IDs), distinct from every
 * ID in `taken`.
 */
function newId(
  version: string,
  country: string,
  level: string,
  index: number,
  taken: Map<string, unknown>,
): string {
  for (let attempt = 0; ; attempt++) {
    const digest = createHash('sha256')
      .update(`${version}\0${country}\0${level}\0${index}\0${attempt}`)
      .digest();
    let id = '';
    for (let i = 0; i < 12; i++) id += ALPHABET[digest[i]! & 31];
    if (!taken.has(id)) return id;
  }
}

/**
 * Matches every level that has a previous release, the largest first: a
 * level too small to judge its own re-digitisation noise (an ADM0) is
 * judged by the noise of the larger levels of the country, its lineage.
 */
function matchLevels(input: IdentifyInput): Map<Level, MatchResult> {
  const results = new Map<Level, MatchResult>();
  const noise: number[] = [];
  const order = input.levels
    .filter((v) => input.previous.has(v.level))
    .sort((a, b) => b.units.length - a.units.length);
  for (const v of order) {
    const previous = input.previous.get(v.level)!;
    const lineage = noise.length ? median(noise) : undefined;
    const r = matchUnits(previous.units, v.units, input.thresholds, input.perDegree, input.ignored, lineage);
    noise.push(...r.offsets);
    results.set(v.level, r);
  }
  return results;
}

/**
 * Returns the registry entries of the country's units in this release (in
 * level and file order) and every change since the previous release. Units
 * that left (removed, merged, split) are updated in `input.registry` with
 * their last_seen and superseded_by; the caller keeps them.
 */
export async function identifyCountry(
  input: IdentifyInput,
): Promise<{ units: RegistryUnit[]; changes: UnitChange[] }> {
  const { country, version, registry } = input;
  const units: RegistryUnit[] = [];
  const changes: UnitChange[] = [];
  const idsByLevel = new Map<Level, string[]>();
  const matched = matchLevels(input);
  const current = new Set([...input.previous.values()].flatMap((p) => p.ids));
  const retired = new RetiredCandidates(registry, country, version, current);
  for (const vintage of input.levels) {
    const { level } = vintage;
    const previous = input.previous.get(level);
    const ids: string[] = new Array<string>(vintage.units.length);
    const changed = new Set<number>(); // new positions with a change
    const fresh = (n: number) => {
      const id = newId(version, country, level, n, registry);
      const u = vintage.units[n]!;
      registry.set(id, {
        id,
        country,
        level,
        code: u.code,
        name: u.name,
        first_seen: version,
        last_seen: version,
        last_changed: version,
        parent_id: null,
      });
      ids[n] = id;
      return id;
    };
    const result = matched.get(level);
    // A level new in a later release: each unit is added. In a country's
    // first release there is nothing to compare with, hence no changes.
    const added: Change[] = result
      ? result.changes.filter((c) => c.type === 'added')
      : vintage.units.map((_, n) => ({ type: 'added', new: n }));
    const back = await restoredIds(
      added.length && input.retired ? retired.of(level) : [],
      added.map((c) => vintage.units[(c as { new: number }).new]!),
      input.retired,
      input.thresholds,
      input.perDegree,
    );
    const restored = new Map(added.map((c, k) => [(c as { new: number }).new, back[k]]));
    for (const [n, id] of restored) if (id) ids[n] = id;
    if (result && previous) {
      for (const [n, o] of result.identity) ids[n] = previous.ids[o]!;
      const x: FeedContext = { country, level, previous, ids, vintage, fresh, registry, restored };
      // Merged and split units first: their new units' IDs are needed by the links.
      for (const c of result.changes) if ('links' in c) changes.push(component(c, x));
      for (const c of result.changes) {
        const change = feedChange(c, x);
        if (change) changes.push(change);
        if ('new' in c && typeof c.new === 'number') changed.add(c.new);
      }
    } else {
      const x = { country, level, ids, vintage, fresh, registry, restored };
      for (const c of added) {
        const change = addedChange(c as { new: number }, x);
        if (input.released ?? input.previous.size > 0) changes.push(change);
        changed.add((c as { new: number }).new);
      }
    }
    vintage.units.forEach((u, n) => {
      const entry = registry.get(ids[n]!)!;
      entry.code = u.code;
      entry.name = u.name;
      entry.last_seen = version;
      if (changed.has(n)) entry.last_changed = version;
      entry.file = vintage.places[n]!.file;
      entry.feature = vintage.places[n]!.feature;
      units.push(entry);
    });
    idsByLevel.set(level, ids);
  }
  assignParents(input.levels, idsByLevel, registry);
  return { units, changes };
}

/** Marks an entry as no longer in the current release: it keeps its ID for good. */
export function retire(entry: RegistryUnit): void {
  delete entry.file;
  delete entry.feature;
}

interface AddContext {
  country: string;
  level: Level;
  ids: string[];
  vintage: LevelVintage;
  fresh: (n: number) => string;
  registry: Map<string, RegistryUnit>;
  restored: Map<number, string | undefined>; // new position → the retired ID it takes again
}

interface FeedContext extends AddContext {
  previous: PreviousLevel;
}

/** Returns a unit as a change names it (its code and name now, or as it last was for one that left). */
function named(id: string, registry: Map<string, RegistryUnit>): ChangedUnit {
  const e = registry.get(id)!;
  return { id, code: e.code, name: e.name };
}

/**
 * Returns the feed's entry of a merge, split or reorganisation, after giving
 * its new units new IDs and linking each [old, new] of `links` both ways:
 * the registry's supersedes and superseded_by hold exactly these links.
 */
function component(c: Extract<Change, { links: unknown }>, x: FeedContext): UnitChange {
  for (const n of c.new) x.fresh(n);
  const add = (list: string[] | undefined, id: string) => (list?.includes(id) ? list : [...(list ?? []), id]);
  for (const [o, n] of c.links) {
    const before = x.registry.get(x.previous.ids[o]!)!;
    const after = x.registry.get(x.ids[n]!)!;
    before.superseded_by = add(before.superseded_by, after.id);
    after.supersedes = add(after.supersedes, before.id);
  }
  const old = c.old.map((o) => x.previous.ids[o]!);
  const now = c.new.map((n) => x.ids[n]!);
  const oldUnits = old.map((id) => named(id, x.registry));
  for (const id of old) retire(x.registry.get(id)!);
  return {
    type: c.type,
    country: x.country,
    level: x.level,
    old,
    new: now,
    old_units: oldUnits,
    new_units: now.map((id) => named(id, x.registry)),
  };
}

/** Returns the feed's entry of an added unit: a new ID, or the ID of the removed unit it is again. */
function addedChange(
  c: { new: number; derived_from?: number[] },
  x: AddContext & { previous?: PreviousLevel },
): UnitChange {
  const back = x.restored.get(c.new);
  const id = back ?? x.fresh(c.new);
  const u = x.vintage.units[c.new]!;
  const from = x.previous && c.derived_from?.map((o) => x.previous!.ids[o]!);
  return {
    type: 'added',
    country: x.country,
    level: x.level,
    id,
    code: u.code,
    name: u.name,
    ...(from ? { derived_from: from } : {}),
    ...(back ? { restored: true as const } : {}),
  };
}

/** Returns the feed's form of one change between positions (merges and splits are done before). */
function feedChange(c: Change, x: FeedContext): UnitChange | undefined {
  const { country, level } = x;
  const unit = (n: number): ChangedUnit => {
    const u = x.vintage.units[n]!;
    return { id: x.ids[n]!, code: u.code, name: u.name };
  };
  switch (c.type) {
    case 'merged':
    case 'split':
    case 'reorganised':
      return undefined;
    case 'added':
      return addedChange(c, x);
    case 'removed': {
      const entry = x.registry.get(x.previous.ids[c.old]!)!;
      retire(entry);
      return { type: 'removed', country, level, id: entry.id, code: entry.code, name: entry.name };
    }
    case 'renamed':
      return {
        type: 'renamed',
        country,
        level,
        ...unit(c.new),
        from: c.from,
        to: c.to,
        spelling_only: c.spelling_only,
      };
    case 'recoded':
      return { type: 'recoded', country, level, ...unit(c.new), from: c.from, to: c.to, by: c.by };
    case 'attributes':
      return { type: 'attributes', country, level, ...unit(c.new), keys: c.keys };
    case 'geometry': {
      const { type, old, new: n, ...metrics } = c;
      void type;
      void old;
      return { type: 'geometry', country, level, ...unit(n), ...metrics };
    }
  }
}

/**
 * Sets each unit's parent_id: the unit of the nearest level before its own
 * that build/identity/parents.ts finds (by parentISO, else by largest
 * overlap; none: null).
 */
function assignParents(
  levels: LevelVintage[],
  idsByLevel: Map<Level, string[]>,
  registry: Map<string, RegistryUnit>,
): void {
  const above = parentLevels(levels.map((v) => v.level));
  for (const vintage of levels) {
    const ids = idsByLevel.get(vintage.level)!;
    const parentLevel = above.get(vintage.level);
    if (!parentLevel) {
      for (const id of ids) registry.get(id)!.parent_id = null;
      continue;
    }
    const parents = levels.find((v) => v.level === parentLevel)!;
    const parentIds = idsByLevel.get(parentLevel)!;
    findParents(vintage.units, parents.units).forEach(({ parent }, n) => {
      registry.get(ids[n]!)!.parent_id = parent >= 0 ? parentIds[parent]! : null;
    });
  }
}
