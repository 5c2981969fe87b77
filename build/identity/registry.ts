// Gives every unit of a country's levels its ID for a release: the ID of
// the same place in the previous release (build/identity/match.ts decides
// which that is), else a new opaque one; merges and splits get new IDs
// linked by supersedes/superseded_by; then each unit's parent_id. Returns
// the registry entries and the changes, by ID (the feed).
import { createHash } from 'node:crypto';
import type { RegistryUnit, ReleaseChange } from '../core/shared/api.ts';
import type { Level } from '../core/shared/manifest.ts';
import type { LevelUnit } from './level.ts';
import { matchUnits, type Change } from './match.ts';
import { findParents, parentLevels } from './parents.ts';
import type { Thresholds } from './thresholds.ts';

/** Where a unit is in a release: its file and its index among that file's features. */
export interface Place {
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
  ignored: Set<string>; // properties left out of `attributes` changes (names, codes, identifiers)
}

/** IDs are 12 characters of this alphabet (Crockford's base 32, lower case): no i, l, o, u. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * Returns a new opaque ID, derived from where the unit first appeared (so a
 * release re-made from the same data gets the same IDs), distinct from every
 * ID in `taken`.
 */
export function newId(
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
 * Returns the registry entries of the country's units in this release (in
 * level and file order) and every change since the previous release. Units
 * that left (removed, merged, split) are updated in `input.registry` with
 * their last_seen and superseded_by; the caller keeps them.
 */
export function identifyCountry(input: IdentifyInput): { units: RegistryUnit[]; changes: ReleaseChange[] } {
  const { country, version, registry } = input;
  const units: RegistryUnit[] = [];
  const changes: ReleaseChange[] = [];
  const idsByLevel = new Map<Level, string[]>();
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
    if (!previous) {
      vintage.units.forEach((_, n) => fresh(n));
      // A level new in a later release: each unit is added. In a country's
      // first release there is nothing to compare with, hence no changes.
      if (input.previous.size > 0) {
        for (const [n, id] of ids.entries()) {
          const u = vintage.units[n]!;
          changes.push({ type: 'added', country, level, id, code: u.code, name: u.name });
        }
      }
    } else {
      const result = matchUnits(previous.units, vintage.units, input.thresholds, input.ignored);
      for (const [n, o] of result.identity) ids[n] = previous.ids[o]!;
      // Merged and split units first: their new units' IDs are needed by the links.
      for (const c of result.changes) {
        if (c.type !== 'merged' && c.type !== 'split' && c.type !== 'reorganised') continue;
        for (const n of c.new) fresh(n);
        for (const [o, n] of c.links) {
          const before = registry.get(previous.ids[o]!)!;
          const after = registry.get(ids[n]!)!;
          before.superseded_by = [...(before.superseded_by ?? []), after.id];
          after.supersedes = [...(after.supersedes ?? []), before.id];
        }
        for (const o of c.old) retire(registry.get(previous.ids[o]!)!);
        changes.push({
          type: c.type,
          country,
          level,
          old: c.old.map((o) => previous.ids[o]!),
          new: c.new.map((n) => ids[n]!),
        });
      }
      for (const c of result.changes) {
        const change = feedChange(c, { country, level, previous, ids, vintage, fresh, registry });
        if (change) changes.push(change);
        if ('new' in c && typeof c.new === 'number') changed.add(c.new);
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

interface FeedContext {
  country: string;
  level: Level;
  previous: PreviousLevel;
  ids: string[];
  vintage: LevelVintage;
  fresh: (n: number) => string;
  registry: Map<string, RegistryUnit>;
}

/** Returns the feed's form of one change between positions (merges and splits are done before). */
function feedChange(c: Change, x: FeedContext): ReleaseChange | undefined {
  const { country, level } = x;
  switch (c.type) {
    case 'merged':
    case 'split':
    case 'reorganised':
      return undefined;
    case 'added': {
      const id = x.fresh(c.new);
      const u = x.vintage.units[c.new]!;
      const from = c.derived_from?.map((o) => x.previous.ids[o]!);
      return {
        type: 'added',
        country,
        level,
        id,
        code: u.code,
        name: u.name,
        ...(from ? { derived_from: from } : {}),
      };
    }
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
        id: x.ids[c.new]!,
        from: c.from,
        to: c.to,
        spelling_only: c.spelling_only,
      };
    case 'recoded':
      return { type: 'recoded', country, level, id: x.ids[c.new]!, from: c.from, to: c.to, by: c.by };
    case 'attributes':
      return { type: 'attributes', country, level, id: x.ids[c.new]!, keys: c.keys };
    case 'geometry': {
      const { type, old, new: n, ...metrics } = c;
      void type;
      void old;
      return { type: 'geometry', country, level, id: x.ids[n]!, ...metrics };
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
