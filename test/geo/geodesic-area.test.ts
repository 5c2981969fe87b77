// The geodesic area of a unit (build/geo/geodesic-area.ts) against the
// closed form of a latitude/longitude box's area on the WGS 84 ellipsoid and
// on the Moon's and Mars's spheres: within 0.1 % (in fact within 1e-6), for
// boxes anywhere, across the antimeridian, round a pole, with holes and as
// parts of a multipolygon. GeographicLib (pyproj) checks real units in
// test/geo/unit-facts-oracle.test.ts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { geometryAreaM2, WGS84_AUTHALIC_RADIUS_M } from '../../build/geo/geodesic-area.ts';
import { BODY_RADIUS_M } from '../../build/core/shared/crs.ts';

const RAD = Math.PI / 180;
const A = 6_378_137;
const F = 1 / 298.257223563;
const E2 = F * (2 - F);
const E = Math.sqrt(E2);
const B2 = A * A * (1 - E2);

/** The area between the equator and latitude `lat` per radian of longitude on the ellipsoid: (b²/2)·[sinφ/(1−e²sin²φ) + atanh(e·sinφ)/e]. */
function zone(lat: number): number {
  const s = Math.sin(lat * RAD);
  return (B2 / 2) * (s / (1 - E2 * s * s) + Math.atanh(E * s) / E);
}

/** The closed-form area of the box [west, south, east, north] on the WGS 84 ellipsoid, in m² (east may pass 180). */
function ellipsoidBox([w, s, e, n]: number[]): number {
  return (e - w) * RAD * (zone(n) - zone(s));
}

/** The same box on a sphere of radius r. */
function sphereBox([w, s, e, n]: number[], r: number): number {
  return (e - w) * RAD * r * r * (Math.sin(n * RAD) - Math.sin(s * RAD));
}

/** A box ring, counter-clockwise, with its parallels drawn every 0.01° (a great circle between two far points leaves the parallel); longitudes wrapped into −180…180. */
function boxRing([w, s, e, n]: number[], clockwise = false): number[][] {
  const wrap = (lon: number) => (lon > 180 ? lon - 360 : lon);
  const steps = Math.max(1, Math.ceil((e - w) / 0.01));
  const ring: number[][] = [];
  for (let i = 0; i <= steps; i++) ring.push([wrap(w + ((e - w) * i) / steps), s]);
  for (let i = steps; i >= 0; i--) ring.push([wrap(w + ((e - w) * i) / steps), n]);
  ring.push(ring[0]!);
  return clockwise ? ring.reverse() : ring;
}

const polygon = (...rings: number[][][]) => ({ type: 'Polygon', coordinates: rings });

describe('geodesic area: boxes against the closed form', () => {
  const boxes: [string, number[]][] = [
    ['a 1° box on the equator', [10, -0.5, 11, 0.5]],
    ['a 1° box at 45° N', [-3, 44.5, -2, 45.5]],
    ['a 0.01° box at 60° S (a small unit)', [20, -60.01, 20.01, -60]],
    ['a 10° × 20° box at high latitude', [100, 60, 110, 80]],
    ['a box across the antimeridian (170° E to 170° W)', [170, -20, 190, -10]],
  ];
  for (const [name, box] of boxes) {
    it(`${name} on the WGS 84 ellipsoid: within 0.1 % (1e-6)`, () => {
      const area = geometryAreaM2(polygon(boxRing(box)), 'earth');
      expect(Math.abs(area / ellipsoidBox(box) - 1)).toBeLessThan(1e-6);
    });
  }

  it('a box is the same area however its ring winds', () => {
    const box = [-3, 44.5, -2, 45.5];
    const ccw = geometryAreaM2(polygon(boxRing(box)), 'earth');
    expect(geometryAreaM2(polygon(boxRing(box, true)), 'earth')).toBeCloseTo(ccw, 0);
  });

  it('a cap round the south pole (a ring along 80° S, Antarctica-like): the cap, not the rest of the globe', () => {
    const ring = Array.from({ length: 36_001 }, (_, i) => [-180 + i / 100, -80]);
    const area = geometryAreaM2(polygon(ring), 'earth');
    const cap = 2 * Math.PI * (zone(-80) - zone(-90));
    expect(Math.abs(area / cap - 1)).toBeLessThan(1e-6);
  });

  it('a hole subtracts and the parts of a multipolygon add', () => {
    const outer = [0, 0, 2, 2];
    const hole = [0.5, 0.5, 1.5, 1.5];
    const other = [10, 40, 11, 41];
    const expected = ellipsoidBox(outer) - ellipsoidBox(hole) + ellipsoidBox(other);
    const multi = {
      type: 'MultiPolygon',
      coordinates: [[boxRing(outer), boxRing(hole, true)], [boxRing(other)]],
    };
    expect(Math.abs(geometryAreaM2(multi, 'earth') / expected - 1)).toBeLessThan(1e-6);
  });

  it('a unit split at ±180 measures as the whole box', () => {
    const halves = {
      type: 'MultiPolygon',
      coordinates: [[boxRing([170, -20, 180, -10])], [boxRing([-180, -20, -170, -10])]],
    };
    expect(Math.abs(geometryAreaM2(halves, 'earth') / ellipsoidBox([170, -20, 190, -10]) - 1)).toBeLessThan(
      1e-6,
    );
  });

  for (const body of ['moon', 'mars'] as const) {
    it(`a quadrangle-sized box on the ${body}'s sphere (radius ${BODY_RADIUS_M[body]} m)`, () => {
      const box = [-30, 30, 30, 65];
      const area = geometryAreaM2(polygon(boxRing(box)), body);
      expect(Math.abs(area / sphereBox(box, BODY_RADIUS_M[body]) - 1)).toBeLessThan(1e-6);
    });
  }

  it("the authalic sphere's radius is R_q = 6,371,007.181 m", () => {
    expect(WGS84_AUTHALIC_RADIUS_M).toBeCloseTo(6_371_007.181, 3);
  });

  it('a point, a line or no geometry has no area', () => {
    expect(geometryAreaM2({ type: 'Point', coordinates: [0, 0] }, 'earth')).toBe(0);
    expect(
      geometryAreaM2(
        {
          type: 'LineString',
          coordinates: [
            [0, 0],
            [1, 1],
          ],
        },
        'earth',
      ),
    ).toBe(0);
    expect(geometryAreaM2(null, 'earth')).toBe(0);
  });
});

describe('the sample quadrangles of Mars and the Moon (data/mars/MCQ, data/moon/LQS)', () => {
  it.each([
    ['mars', 'data/mars/MCQ/MCQ_QUAD.geojson'],
    ['moon', 'data/moon/LQS/LQS_QUAD.geojson'],
  ] as const)(
    '%s: each chart’s area is its latitude/longitude box’s on the body’s sphere, within 0.1 %%',
    (body, file) => {
      const path = new URL(`../../${file}`, import.meta.url).pathname;
      const { features } = JSON.parse(readFileSync(path, 'utf8')) as {
        features: { geometry: { coordinates: number[][][] } }[];
      };
      expect(features).toHaveLength(30);
      let total = 0;
      for (const f of features) {
        const points = f.geometry.coordinates.flat();
        const box = [0, 1, 0, 1].map((axis, i) =>
          (i < 2 ? Math.min : Math.max)(...points.map((p) => p[axis]!)),
        );
        const area = geometryAreaM2(f.geometry, body);
        expect(Math.abs(area / sphereBox(box, BODY_RADIUS_M[body]) - 1)).toBeLessThan(1e-3);
        total += area;
      }
      // The 30 charts cover the sphere once.
      expect(Math.abs(total / (4 * Math.PI * BODY_RADIUS_M[body] ** 2) - 1)).toBeLessThan(1e-3);
    },
  );
});
