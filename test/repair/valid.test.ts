// Making a unit valid (build/repair/valid.ts), as GEOS's MakeValid with
// method "structure" does, on the invalid shapes boundary files hold, one
// feature each in fixtures/invalid-units.geojson with the area and polygon
// count expected (GEOS's make_valid gives the same: oracle.test.ts, long).
import { readFileSync } from 'node:fs';
import type { MultiPolygon, Ring } from 'polygon-clipping';
import { describe, expect, it } from 'vitest';
import { isValidUnit, makeValid } from '../../build/repair/valid.ts';

interface Case {
  properties: { case: string; area: number; polygons: number };
  geometry: { type: 'Polygon' | 'MultiPolygon'; coordinates: unknown };
}

const FIXTURES = new URL('fixtures/invalid-units.geojson', import.meta.url).pathname;
const cases = (JSON.parse(readFileSync(FIXTURES, 'utf8')) as { features: Case[] }).features;

/** Returns a feature's geometry as a multipolygon. */
const unit = ({ geometry }: Case): MultiPolygon =>
  (geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates) as MultiPolygon;

/** Returns the planar area of a multipolygon: outer rings less holes. */
function area(mp: MultiPolygon): number {
  const ring = (r: Ring) =>
    Math.abs(r.reduce((s, [x, y], i) => s + (i > 0 ? r[i - 1]![0] * y - x * r[i - 1]![1] : 0), 0) / 2);
  return mp.reduce(
    (sum, polygon) => sum + polygon.reduce((s, r, i) => s + (i === 0 ? 1 : -1) * ring(r), 0),
    0,
  );
}

describe('makeValid: an invalid unit becomes valid by GEOS rules, keeping what its rings enclose', () => {
  it('every fixture is invalid to start with', () => {
    expect(cases.filter((c) => isValidUnit(unit(c))).map((c) => c.properties.case)).toEqual([]);
  });

  for (const c of cases.filter((c) => c.properties.area > 0)) {
    it(`${c.properties.case}: area ${c.properties.area}, ${c.properties.polygons} polygon(s), valid`, () => {
      const fixed = makeValid(unit(c))!;
      expect(isValidUnit(fixed)).toBe(true);
      expect(area(fixed)).toBeCloseTo(c.properties.area, 12);
      expect(fixed).toHaveLength(c.properties.polygons);
    });
  }

  it('a ring drawn as a line has no area to keep: undefined (the unit is left as it was)', () => {
    for (const c of cases.filter((c) => c.properties.area === 0)) expect(makeValid(unit(c))).toBeUndefined();
  });

  it('a valid unit is returned as it is, the same object', () => {
    const square: MultiPolygon = [
      [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 1],
          [0, 0],
        ],
      ],
    ];
    expect(makeValid(square)).toBe(square);
  });
});
