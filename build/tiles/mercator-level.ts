// A level read for its Web Mercator tiles (mercator.ts): its rings, and each
// unit's feature properties: its release ID, code and name, taken from the
// feature's properties by the same keys as the units list takes them
// (build/identity/keys.ts; build/site/units.ts).
import { CODE_KEYS, KEY_KEYS, NAME_KEYS, textValues as text } from '../identity/keys.ts';
import { readLevelRings, type LevelRings } from './level-rings.ts';
import { MERCATOR_KEYS } from './mercator.ts';
import type { UnitProperties } from './mvt.ts';

/** The release IDs of a level's files' features (by file, then feature index), when it has them. */
export interface MercatorSource {
  ids?: (string[] | undefined)[];
}

/** Returns the rings of `paths` (one level's files, in order) and each unit's properties. */
export async function readMercatorLevel(
  paths: string[],
  source: MercatorSource,
): Promise<{ rings: LevelRings; properties: UnitProperties }> {
  const values: (string | undefined)[][] = [];
  const features = paths.map(() => 0); // features read so far, by file
  const rings = await readLevelRings(paths, (feature, file, unit) => {
    const index = features[file]++;
    if (!unit) return;
    const p = feature.properties ?? {};
    const code = text(p, CODE_KEYS)[0] ?? text(p, KEY_KEYS)[0];
    values.push([source.ids?.[file]?.[index] || undefined, code, text(p, NAME_KEYS)[0]]);
  });
  return { rings, properties: { keys: MERCATOR_KEYS, values } };
}
