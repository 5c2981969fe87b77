// The identity kernel against GEOS (shapely 1.8): intersection areas of real
// county pairs across two independent vintages, of counties with their state
// and neighbours cut from one topology (shared vertices, collinear edges),
// of random polygons on a small integer grid (degenerate everywhere), and
// the discrete Hausdorff distance.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BoxIndex } from '../../build/identity/box-index.ts';
import { hausdorffAndOffset } from '../../build/identity/distance.ts';
import { intersectionArea } from '../../build/identity/overlap.ts';
import { shapeOf, type Shape } from '../../build/identity/shape.ts';
import { hasShapely, skipOracle } from '../geometry/oracle.ts';
import { seededRandom } from '../support/random.ts';
import { vintages } from '../support/vintages.ts';
import { geos, ORACLE_BOUND_MS } from './oracle.ts';

interface Feature {
  properties: Record<string, string>;
  geometry: unknown;
}
const read = (path: string) => (JSON.parse(readFileSync(path, 'utf8')) as { features: Feature[] }).features;

/** Returns the largest |ours − GEOS| divided by `scale` of each pair GEOS could compute, and how many. */
function worst(ours: number[], theirs: (number | null)[], scale: (i: number) => number) {
  let max = 0;
  let compared = 0;
  theirs.forEach((g, i) => {
    if (g === null) return;
    compared++;
    max = Math.max(max, Math.abs(ours[i] - g) / scale(i));
  });
  return { max, compared };
}

describe.skipIf(skipOracle)('overlap kernel against GEOS', () => {
  it('shapely is there (CI fails without it)', () => expect(hasShapely).toBe(true));

  const v = vintages();
  const f2015 = read(v.counties2015);
  const f2017 = read(v.counties2017);
  const states = read(v.states2017);
  const s2015 = f2015.map((f) => shapeOf(f.geometry));
  const s2017 = f2017.map((f) => shapeOf(f.geometry));
  const sStates = states.map((f) => shapeOf(f.geometry));
  const byCode = new Map(f2015.map((f, i) => [f.properties.src_shape_id, i]));

  it(
    'the same county in 2015 and 2017 (independent drawings): areas within 1e-9 of the smaller unit',
    () => {
      const pairs: [number, number][] = [];
      f2017.forEach((f, j) => {
        const i = byCode.get(f.properties.src_shape_id);
        if (i !== undefined && s2015[i] && s2017[j]) pairs.push([i, j]);
      });
      const ours = pairs.map(([i, j]) => intersectionArea(s2015[i]!, s2017[j]!));
      const answer = geos({
        files: [v.counties2015, v.counties2017],
        pairs: pairs.map(([i, j]) => [v.counties2015, i, v.counties2017, j]),
      });
      const min = (k: number) => Math.min(s2015[pairs[k][0]]!.area, s2017[pairs[k][1]]!.area);
      const { max, compared } = worst(ours, answer.pairs, min);
      expect(compared).toBeGreaterThan(3000);
      expect(max).toBeLessThan(1e-9);
      // The discrete Hausdorff distance (in degrees here) is GEOS's too.
      const distances = pairs.map(([i, j]) => hausdorffAndOffset(s2015[i]!, s2017[j]!).hausdorff);
      expect(worst(distances, answer.hausdorff, (k) => answer.hausdorff[k] || 1).max).toBeLessThan(1e-9);
    },
    ORACLE_BOUND_MS,
  );

  it(
    'counties with their state and their neighbours, cut from one topology: exact to 1e-9, touching ones 0',
    () => {
      const stateOf = new Map(states.map((s, i) => [s.properties.shapeISO, i]));
      const pairs: [Shape, Shape, number, number][] = [];
      const request: [string, number, string, number][] = [];
      f2017.forEach((f, j) => {
        const s = stateOf.get(f.properties.parentISO);
        if (s === undefined || !s2017[j]) return;
        pairs.push([s2017[j]!, sStates[s]!, j, s]);
        request.push([v.counties2017, j, v.states2017, s]);
      });
      const index = new BoxIndex(s2017);
      for (let j = 0; j < s2017.length && request.length < 6000; j += 2) {
        if (!s2017[j]) continue;
        for (const k of index.query(s2017[j]!.partBoxes)) {
          if (k <= j) continue;
          pairs.push([s2017[j]!, s2017[k]!, j, k]);
          request.push([v.counties2017, j, v.counties2017, k]);
        }
      }
      const ours = pairs.map(([a, b]) => intersectionArea(a, b));
      const answer = geos({ files: [v.counties2017, v.states2017], pairs: request });
      const min = (k: number) => Math.min(pairs[k][0].area, pairs[k][1].area);
      const { max, compared } = worst(ours, answer.pairs, min);
      expect(compared).toBeGreaterThan(5000);
      expect(max).toBeLessThan(1e-9);
    },
    ORACLE_BOUND_MS,
  );

  it(
    'random polygons on a 6 × 6 grid, and their copies shifted by one cell: exact to 1e-12',
    () => {
      const random = seededRandom(18);
      const star = (): unknown => {
        const [cx, cy] = [2 + Math.floor(random() * 3), 2 + Math.floor(random() * 3)];
        const n = 3 + Math.floor(random() * 6);
        const angles = Array.from({ length: n }, () => random() * 2 * Math.PI).sort((a, b) => a - b);
        const ring = angles.map((a) => {
          const r = 1 + random() * 3;
          return [Math.round(cx + r * Math.cos(a)), Math.round(cy + r * Math.sin(a))];
        });
        return { type: 'Polygon', coordinates: [[...ring, ring[0]]] };
      };
      const polygons: [unknown, unknown][] = [];
      for (let i = 0; i < 1500; i++) {
        const a = star();
        const shift = (g: unknown) => ({
          type: 'Polygon',
          coordinates: (g as { coordinates: number[][][] }).coordinates.map((r) =>
            r.map(([x, y]) => [x + 1, y]),
          ),
        });
        polygons.push([a, i % 3 === 0 ? a : i % 3 === 1 ? shift(a) : star()]);
      }
      const answer = geos({ polygons });
      const shapes = polygons.map(([a, b]) => [shapeOf(a), shapeOf(b)] as const);
      const ours = shapes.map(([a, b]) => (a && b ? intersectionArea(a, b) : 0));
      const { max, compared } = worst(ours, answer.polygons, (k) =>
        Math.max(1, Math.min(shapes[k][0]?.area ?? 1, shapes[k][1]?.area ?? 1)),
      );
      expect(compared).toBeGreaterThan(800);
      expect(max).toBeLessThan(1e-12);
    },
    ORACLE_BOUND_MS,
  );
});
