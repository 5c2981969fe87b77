// What a release records of each level's coverage (issue 29 §5): validate's
// figures, kept in the ledger's record of every level, and what the releases
// API says of them: how many levels were clean, and which became clean in
// that release (clean now, not in the release before).
import { isCleanCoverage as clean } from '../core/shared/api.ts';
import type { ApiReleaseCoverage, LevelCoverageFigures } from '../core/shared/api.ts';
import type { ReleasedLevel, ReleaseRecord } from './ledger.ts';

/**
 * Returns `levels` with the figures validate measured this time, by key
 * "body/ISO3/LEVEL" (a level taken unchanged from the previous release gets
 * today's figures too, or none: figures are never carried over unchecked).
 */
export function withCoverage(
  levels: readonly ReleasedLevel[],
  figures: ReadonlyMap<string, LevelCoverageFigures>,
): ReleasedLevel[] {
  return levels.map((l) => {
    const level: ReleasedLevel = { ...l }; // a copy: the previous record's levels stay as read
    delete level.coverage;
    const found = figures.get(levelKey(l));
    return found ? { ...level, coverage: found } : level;
  });
}

function levelKey(l: Pick<ReleasedLevel, 'body' | 'country' | 'level'>): string {
  return `${l.body}/${l.country}/${l.level}`;
}

/**
 * Returns the releases API's coverage summary of `record`: the levels it
 * checked, the clean ones, and those that became clean since `previous`
 * (checked and not clean there); undefined for a release recorded before
 * the coverage check (no level has figures).
 */
export function releaseCoverage(
  record: ReleaseRecord,
  previous: ReleaseRecord | undefined,
): ApiReleaseCoverage | undefined {
  const checked = record.levels.filter((l) => l.coverage !== undefined);
  if (checked.length === 0) return undefined;
  const before = new Map((previous?.levels ?? []).map((l) => [levelKey(l), l.coverage]));
  const becameClean = checked
    .filter((l) => {
      const was = before.get(levelKey(l));
      return clean(l.coverage!) && was !== undefined && !clean(was);
    })
    .map(levelKey)
    .sort();
  return {
    levels: checked.length,
    clean: checked.filter((l) => clean(l.coverage!)).length,
    became_clean: becameClean,
  };
}
