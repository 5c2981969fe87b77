// The U.S. counties of the two Census vintages (test/support/vintages.ts)
// one state at a time, as features whose geometry a test can edit, and as
// the units matching reads.
import { readFileSync } from 'node:fs';
import { levelUnit, type LevelUnit } from '../../build/identity/level.ts';
import type { MP } from '../release/model/geometry.ts';
import { vintages } from '../support/vintages.ts';

export interface Feature {
  properties: Record<string, unknown>;
  geometry: MP;
}

const parsed = new Map<string, Feature[]>();

/** Returns every feature of a vintage file, its geometry as MultiPolygon coordinates. */
function features(file: string): Feature[] {
  let list = parsed.get(file);
  if (!list) {
    const doc = JSON.parse(readFileSync(file, 'utf8')) as {
      features: { properties: Record<string, unknown>; geometry: { type: string; coordinates: unknown } }[];
    };
    list = doc.features.map((f) => ({
      properties: f.properties,
      geometry: (f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates) as MP,
    }));
    parsed.set(file, list);
  }
  return list;
}

/** Returns the counties of `state` (e.g. "US-VT") in the 2015 or 2017 edition, in file order. */
export function counties(year: 2015 | 2017, state: string): Feature[] {
  const v = vintages();
  return features(year === 2015 ? v.counties2015 : v.counties2017).filter(
    (f) => f.properties.parentISO === state,
  );
}

/** Returns the state `code` (e.g. "US-VT") of the 2015 or 2017 edition. */
export function state(year: 2015 | 2017, code: string): Feature {
  const v = vintages();
  return features(year === 2015 ? v.states2015 : v.states2017).find((f) => f.properties.shapeISO === code)!;
}

/** Returns the unit matching reads from a feature (its code is its FIPS code), with `geometry` if given. */
export function unit(f: Feature, geometry: MP = f.geometry): LevelUnit {
  return levelUnit(
    { properties: f.properties, geometry: { type: 'MultiPolygon', coordinates: geometry } },
    'src_shape_id',
  );
}

/** Returns the position of the county with FIPS code `fips` in `list`. */
export function at(list: Feature[], fips: string): number {
  const i = list.findIndex((f) => f.properties.src_shape_id === fips);
  if (i < 0) throw new Error(`no county ${fips}`);
  return i;
}
