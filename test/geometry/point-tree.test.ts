// PointTree (build/geometry/point-tree.ts) answers as a BoxTree over the
// points' degenerate boxes does: the same points, in the same order (the
// simplifier's blockers are the first found, so the order reaches the
// simplified copies' bytes), whether it indexes every point or some of them.
import { describe, expect, it } from 'vitest';
import { BoxTree } from '../../build/geometry/box-tree.ts';
import { PointTree } from '../../build/geometry/point-tree.ts';
import { seededRandom } from '../support/random.ts';

/** Points of several shapes: spread, clustered, repeated, on one line, and a few. */
function pointSets(): { name: string; x: Float64Array; y: Float64Array }[] {
  const rand = seededRandom(28);
  const make = (name: string, n: number, at: (i: number) => [number, number]) => {
    const x = new Float64Array(n);
    const y = new Float64Array(n);
    for (let i = 0; i < n; i++) [x[i], y[i]] = at(i);
    return { name, x, y };
  };
  return [
    make('spread', 5000, () => [rand() * 360 - 180, rand() * 180 - 90]),
    make('clustered', 3000, (i) => [(i % 7) * 10 + rand() * 0.01, Math.floor(i / 700) + rand() * 0.01]),
    make('repeated', 2000, (i) => [i % 13, i % 5]),
    make('on a line', 1000, (i) => [i * 0.001, 0]),
    make('one', 1, () => [3, 4]),
    make('nine', 9, (i) => [i, -i]),
  ];
}

/** The ids a tree over every point (or `ids`) finds in each of many boxes, both ways. */
function answers(x: Float64Array, y: Float64Array, ids?: Int32Array) {
  const rand = seededRandom(29);
  const n = ids ? ids.length : x.length;
  const boxes = new Float64Array(4 * n);
  for (let j = 0; j < n; j++) {
    const i = ids ? ids[j]! : j;
    boxes.set([x[i]!, y[i]!, x[i]!, y[i]!], 4 * j);
  }
  const boxTree = new BoxTree(boxes);
  const pointTree = new PointTree(x, y, ids);
  const [boxFound, pointFound]: number[][][] = [[], []];
  for (let q = 0; q < 300; q++) {
    // Boxes of every size, some on a point's exact coordinates (closed boxes: a point on the edge is in).
    const p = Math.floor(rand() * x.length);
    const w = [0, 0.001, 1, 50, 400][q % 5]!;
    const [x0, y0] = q % 3 === 0 ? [x[p]!, y[p]!] : [rand() * 360 - 180, rand() * 180 - 90];
    const [x1, y1] = [x0 + w * rand(), y0 + w * rand()];
    const count = boxTree.query(x0, y0, x1, y1);
    boxFound.push([...boxTree.found.subarray(0, count)].map((j) => (ids ? ids[j]! : j)));
    const points = pointTree.query(x0, y0, x1, y1);
    pointFound.push([...pointTree.found.subarray(0, points)]);
  }
  return { boxFound, pointFound };
}

describe('a point tree finds what a box tree over the same points finds, in the same order', () => {
  for (const { name, x, y } of pointSets()) {
    it(`${name}: every point indexed`, () => {
      const { boxFound, pointFound } = answers(x, y);
      expect(pointFound).toEqual(boxFound);
      expect(boxFound.some((found) => found.length > 1) || x.length < 2).toBe(true);
    });

    it(`${name}: every third point indexed`, () => {
      const ids = Int32Array.from({ length: Math.ceil(x.length / 3) }, (_, k) => 3 * k);
      const { boxFound, pointFound } = answers(x, y, ids);
      expect(pointFound).toEqual(boxFound);
    });
  }
});
