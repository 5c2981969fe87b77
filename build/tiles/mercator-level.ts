// A level read for its Web Mercator tiles (mercator.ts): its rings, and each
// unit's feature properties, computed as the units list computes them
// (build/site/units.ts: the same id, code and name) with its release ID.
import type { Dataset } from '../core/shared/manifest.ts';
import { dedupeIds, unitRow, unitsOfRows, type Unit, type UnitRow } from '../site/units.ts';
import { readLevelRings, type LevelRings } from './level-rings.ts';
import { MERCATOR_KEYS } from './mercator.ts';
import type { UnitProperties } from './mvt.ts';

/** Which dataset a level is, and the release IDs of its files' features (by file, then feature index). */
export interface MercatorSource {
  dataset: Pick<Dataset, 'level' | 'parts'>;
  ids?: (string[] | undefined)[];
}

/** Returns the rings of `paths` (one level's files, in order) and each unit's properties. */
export async function readMercatorLevel(
  paths: string[],
  source: MercatorSource,
): Promise<{ rings: LevelRings; properties: UnitProperties }> {
  const rows: UnitRow[][] = paths.map(() => []);
  const drawn: [file: number, feature: number][] = []; // per ring unit: where its feature is
  const rings = await readLevelRings(paths, (feature, file, unit) => {
    if (unit) drawn.push([file, rows[file].length]);
    rows[file].push(unitRow(feature));
  });
  const dataset = source.dataset as Dataset;
  const perFile = rows.map((r) => unitsOfRows(r, dataset));
  if (paths.length > 1) dedupeIds(perFile.flat()); // as the units list does for parts
  const byFeature = perFile.map((units) => new Map<number, Unit>(units.map((u) => [u.feature, u])));
  const values = drawn.map(([file, feature]) => {
    const u = byFeature[file].get(feature);
    const row = rows[file][feature];
    const unitId = source.ids?.[file]?.[feature] || undefined;
    return [u?.id, unitId, row.code || undefined, row.name || undefined];
  });
  return { rings, properties: { keys: MERCATOR_KEYS, values } };
}
