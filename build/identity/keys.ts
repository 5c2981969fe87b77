// Which properties name a unit, code it and name its parent: one list for
// the atlas (build/site/units.ts) and for identity matching.

/** Properties that hold a unit's name, the first non-empty one is its name. */
export const NAME_KEYS = ['shapeName', 'name', 'NAME', 'name_en', 'NAME_EN', 'name_local', 'NAME_LOCAL'];
/** Properties that hold a unit's code (ISO 3166-2 and the like). */
export const CODE_KEYS = ['shapeISO', 'iso_3166_2', 'code', 'ISO', 'iso'];
/** Keys of units that have no ISO code (US counties): shown and searched as their code, never their id. */
export const KEY_KEYS = ['FIPS', 'fips', 'GEOID', 'geoid', 'src_shape_id'];
/** Properties that hold the code of a unit's parent. */
export const PARENT_KEYS = ['parentISO', 'adm1ISO'];

/** Returns the non-empty text values of `keys` in `p`, in key order, each once. */
export function textValues(p: Record<string, unknown>, keys: string[]): string[] {
  const out: string[] = [];
  for (const key of keys) {
    const v = Object.hasOwn(p, key) ? p[key] : undefined;
    if ((typeof v === 'string' && v.trim()) || typeof v === 'number') out.push(String(v).trim());
  }
  return [...new Set(out)];
}
