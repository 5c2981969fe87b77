// Units that come back: a new unit of a release (one that matched nothing
// in the previous release) that is a unit removed in an earlier release
// gets that unit's ID again. The candidates are the country's retired units
// of the same level that left by removal (a merged or split unit has
// successors instead); they are matched to the new units by the same rules
// as two consecutive releases (build/identity/match.ts), their geometry as
// they were last released, which the caller looks up (the release stage
// from its ledger).
import type { RegistryUnit } from '../core/shared/api.ts';
import type { Level } from '../core/shared/manifest.ts';
import type { LevelUnit } from './level.ts';
import { matchUnits } from './match.ts';
import type { Thresholds } from './thresholds.ts';

/**
 * Returns the units of retired registry entries as they were last released
 * (geometry and properties), in the order of `entries`; undefined for one
 * that cannot be found. The release stage answers from its ledger: an
 * entry's `last_seen` names the release that last had it, and that
 * release's level lists the entry's ID in `ids` at its feature's position.
 */
export type RetiredUnits = (entries: RegistryUnit[]) => Promise<(LevelUnit | undefined)[]>;

/** One level of a country as a past release recorded it: its unit IDs and units, in the same order. */
export interface ReleasedLevelUnits {
  ids: string[];
  units: LevelUnit[];
}

/**
 * Returns a RetiredUnits lookup over past releases: `read(version, country,
 * level)` gives a level as release `version` recorded it (undefined when it
 * has none), read once per release and level asked for.
 */
export function retiredFromReleases(
  read: (version: string, country: string, level: Level) => Promise<ReleasedLevelUnits | undefined>,
): RetiredUnits {
  return (entries) => {
    const levels = new Map<string, Promise<Map<string, LevelUnit | undefined> | undefined>>();
    const unitsOf = (e: RegistryUnit) => {
      const key = `${e.last_seen}\0${e.country}\0${e.level}`;
      let found = levels.get(key);
      if (!found) {
        found = read(e.last_seen, e.country, e.level).then(
          (l) => l && new Map(l.ids.map((id, i) => [id, l.units[i]] as const)),
        );
        levels.set(key, found);
      }
      return found;
    };
    return Promise.all(entries.map(async (e) => (await unitsOf(e))?.get(e.id)));
  };
}

/** The retired units of one country, by level, found once per release of the country. */
export class RetiredCandidates {
  private byLevel?: Map<Level, RegistryUnit[]>;

  constructor(
    private readonly registry: Map<string, RegistryUnit>,
    private readonly country: string,
    private readonly version: string,
    private readonly current: Set<string>, // IDs of the country's previous release: they are not back, they stayed
  ) {}

  /** Returns the entries of `level` that left by removal before this release. */
  of(level: Level): RegistryUnit[] {
    if (!this.byLevel) {
      this.byLevel = new Map();
      for (const e of this.registry.values()) {
        if (e.country !== this.country || e.file !== undefined || e.last_seen === this.version) continue;
        if (e.superseded_by?.length || this.current.has(e.id)) continue;
        this.byLevel.set(e.level, [...(this.byLevel.get(e.level) ?? []), e]);
      }
    }
    return this.byLevel.get(level) ?? [];
  }
}

/**
 * Returns, for each of `added` (new units that matched nothing in the
 * previous release), the ID of the retired unit it is, or undefined.
 */
export async function restoredIds(
  candidates: RegistryUnit[],
  added: LevelUnit[],
  lookup: RetiredUnits | undefined,
  t: Thresholds,
  perDegree: number, // metres per degree on the body (METRES_PER_DEGREE)
): Promise<(string | undefined)[]> {
  const out = new Array<string | undefined>(added.length);
  if (!lookup || candidates.length === 0 || added.length === 0) return out;
  const found = await lookup(candidates);
  const ids: string[] = [];
  const units: LevelUnit[] = [];
  found.forEach((u, i) => {
    if (!u) return;
    ids.push(candidates[i]!.id);
    units.push(u);
  });
  for (const [n, o] of matchUnits(units, added, t, perDegree).identity) out[n] = ids[o];
  return out;
}
