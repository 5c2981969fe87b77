// The simplified copies among a country's downloads (issue 29 §3): where a
// country's copies lie in the formats cache, by a key of everything they are
// made from, and making them when the cache lacks them. build/simplify/ does
// the simplifying; this decides what to make and caches it.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { UserError } from '../core/errors.ts';
import type { Problem } from '../core/problem.ts';
import { BODY_RADIUS_M } from '../core/shared/crs.ts';
import type { Manifest } from '../core/shared/manifest.ts';
import type { UnitIds } from '../identity/unit-ids.ts';
import type { MeasurementCache } from '../measure/cache.ts';
import {
  simplifiedName,
  TOLERANCES_M,
  writeSimplifiedCopies,
  type LevelSource,
  type SimplifiedFile,
} from '../simplify/copies.ts';
import type { FormatsCache } from './formats-cache.ts';

/** Where a country's simplified copies lie in the cache, and what they are made from. */
export interface SimplifiedPlace {
  key: string; // a hash of the tolerances, the body and every level's files and IDs (the code: the cache's folder)
  names: string[]; // the files, level by level, finest tolerance first
  levels: LevelSource[];
  radiusM: number;
}

/** A country's copies in the cache: their folder and files (none when they could not be made). */
export interface SimplifiedCopies {
  dir: string;
  files: SimplifiedFile[];
  converted: boolean; // made in this run
  warnings: Problem[]; // why none were made, e.g. a level too large to read whole
}

/** Returns the levels of `m` to simplify: each with a path or parts, its unit IDs when every file has them. */
function levelSources(m: Manifest, sha256: Map<string, string>, unitIds?: UnitIds): LevelSource[] {
  return m.datasets.flatMap((d) => {
    const sources = d.path ? [d.path] : (d.parts ?? []).map((p) => p.path);
    if (sources.length === 0) return [];
    const given = sources.map((s) => unitIds?.files.get(s));
    const ids = given.every((g, i) => g && g.sha256 === sha256.get(sources[i]))
      ? given.flatMap((g) => g!.ids)
      : undefined;
    return [{ level: d.level, stem: `${m.iso_a3}_${d.level}`, sources, unitIds: ids }];
  });
}

/** Returns where the simplified copies of `m` lie in `cache`, by a hash of all they are made from. */
export async function simplifiedPlace(
  cache: FormatsCache,
  root: string,
  m: Manifest,
  measurer: MeasurementCache,
  unitIds?: UnitIds,
): Promise<SimplifiedPlace> {
  const paths = m.datasets.flatMap((d) => (d.path ? [d.path] : (d.parts ?? []).map((p) => p.path)));
  const sums = await Promise.all(paths.map(async (p) => (await measurer.measure(join(root, p))).sha256));
  const sha256 = new Map(paths.map((p, i) => [p, sums[i]]));
  const levels = levelSources(m, sha256, unitIds);
  const radiusM = BODY_RADIUS_M[m.body];
  const hash = createHash('sha256').update(`${TOLERANCES_M.join(',')}\n${radiusM}`);
  for (const l of levels) {
    hash.update(`\n${l.level} ${l.stem}`);
    for (const s of l.sources) hash.update(`\n${s}\n${sha256.get(s)}`);
    if (l.unitIds) hash.update(`\n${createHash('sha256').update(l.unitIds.join('\n')).digest('hex')}`);
  }
  const names = levels.flatMap((l) => TOLERANCES_M.map((t) => simplifiedName(l.stem, t)));
  return { key: hash.digest('hex'), names, levels, radiusM };
}

/** Returns the copies at `place` when the cache's index lists them whole (no I/O but a statSync). */
export function indexedSimplified(cache: FormatsCache, place: SimplifiedPlace): SimplifiedCopies | undefined {
  const files = cache.indexedSimplified(place.key, place.names);
  return files && { dir: cache.simplifiedDir(place.key), files, converted: false, warnings: [] };
}

/** Returns the copies at `place` from the cache, or undefined when they are not there whole. */
export async function findSimplified(
  cache: FormatsCache,
  place: SimplifiedPlace,
): Promise<SimplifiedCopies | undefined> {
  const files = await cache.findSimplified(place.key, place.names);
  return files && { dir: cache.simplifiedDir(place.key), files, converted: false, warnings: [] };
}

/**
 * Returns the copies at `place`, made into the cache first. A level that
 * cannot be read (readLevelFeatures' UserError) leaves the country without
 * copies and a warning naming it, not a failed build.
 */
export async function makeSimplified(
  cache: FormatsCache,
  root: string,
  place: SimplifiedPlace,
): Promise<SimplifiedCopies> {
  const dir = cache.simplifiedDir(place.key);
  try {
    const files = await writeSimplifiedCopies(root, place.levels, dir, place.radiusM);
    await cache.recordSimplified(place.key, files);
    return { dir, files, converted: true, warnings: [] };
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    const warnings = error.problems.map((p) => ({
      ...p,
      severity: 'warning' as const,
      message: `${p.message} (so the country has no simplified copies)`,
    }));
    return { dir, files: [], converted: true, warnings };
  }
}
