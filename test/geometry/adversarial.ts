// Adversarial shapes for the geometry checks: ordinary-looking features on
// which a naive index or a pairwise ring test goes quadratic (issue 16,
// section 2). Each takes a vertex budget and returns one feature's geometry
// of about that many positions, in lon/lat range, so the same shapes serve
// the tests (small) and bench:geometry (10k to 1M). Each is valid; `defects`
// name the invalid variants a shape can also be made as, by the kind of
// problem they hold (the tests check GEOS names the same kind).
import type { Polygonal } from './generate.ts';

type At = (u: number, v: number) => number[];

/** Maps an integer grid of `cells` steps onto [-170, 170] × [-80, 80]: equal grid points stay equal doubles. */
function grid(cells: number): At {
  const sx = 340 / cells;
  const sy = 160 / cells;
  return (u, v) => [Number((-170 + u * sx).toFixed(7)), Number((-80 + v * sy).toFixed(7))];
}

/** Returns a closed ring of grid points (the first repeated at the end). */
function ring(at: At, points: number[][]): number[][] {
  const out = points.map(([u, v]) => at(u!, v!));
  out.push([...out[0]!]);
  return out;
}

/** Returns the corners of the square [u, u + s] × [v, v + s], counter-clockwise. */
function square(u: number, v: number, s: number): number[][] {
  return [
    [u, v],
    [u + s, v],
    [u + s, v + s],
    [u, v + s],
  ];
}

/** Returns a hole: the square's corners clockwise. */
function squareHole(u: number, v: number, s: number): number[][] {
  return square(u, v, s).reverse();
}

/**
 * A comb's outline, counter-clockwise: a spine at u0 and `teeth` teeth of
 * width 1 and length `length` pointing +u, gaps of 1 between. Tooth
 * `spiked` has a spike on its top edge that crosses the next tooth.
 */
function combPoints(u0: number, v0: number, teeth: number, length: number, spiked = -1): number[][] {
  const points: number[][] = [[u0, v0]];
  for (let k = 0; k < teeth; k++) {
    const v = v0 + 2 * k;
    points.push([u0 + 1 + length, v], [u0 + 1 + length, v + 1]);
    if (k === spiked) points.push([u0 + 1 + length / 2, v + 2.5]);
    if (k < teeth - 1) points.push([u0 + 1, v + 1], [u0 + 1, v + 2]);
  }
  points.push([u0, v0 + 2 * teeth - 1]);
  return points;
}

/** Swaps u and v (a comb with vertical teeth); reversed so the ring keeps its orientation. */
function transpose(points: number[][]): number[][] {
  return points.map(([u, v]) => [v!, u!]).reverse();
}

export interface AdversarialShape {
  name: string;
  what: string;
  /** GEOS's is_valid takes quadratic time on it too: the benchmark times GEOS only up to this many vertices. */
  geosUpTo?: number;
  /** The kinds of problem `make` can put in, e.g. ["holes are nested"]. */
  defects: string[];
  make(vertices: number, defect?: string): Polygonal;
}

/** The shapes (test/geometry/adversarial.test.ts checks GEOS agrees on each, valid or with each defect). */
export const adversarialShapes: AdversarialShape[] = [
  {
    name: 'teeth',
    what: 'one ring of long horizontal teeth: every monotone chain spans the same x-range',
    defects: ['self-intersection'],
    make(vertices, defect) {
      const teeth = Math.max(2, Math.floor(vertices / 4));
      const at = grid(2 * teeth + 2);
      const spiked = defect ? teeth >> 1 : -1;
      return { type: 'Polygon', coordinates: [ring(at, combPoints(0, 0, teeth, teeth, spiked))] };
    },
  },
  {
    name: 'vertical teeth',
    what: 'the same comb turned a quarter: every chain spans the same y-range',
    defects: ['self-intersection'],
    make(vertices, defect) {
      const teeth = Math.max(2, Math.floor(vertices / 4));
      const at = grid(2 * teeth + 2);
      const spiked = defect ? teeth >> 1 : -1;
      return { type: 'Polygon', coordinates: [ring(at, transpose(combPoints(0, 0, teeth, teeth, spiked)))] };
    },
  },
  {
    name: 'square with square holes',
    what: 'a square shell with a grid of square holes (columns of holes share an x-range)',
    defects: ['self-intersection', 'hole lies outside shell', 'holes are nested'],
    make(vertices, defect) {
      const side = Math.max(2, Math.round(Math.sqrt(vertices / 4)));
      const at = grid(2 * side + 4);
      const rings = [ring(at, square(0, 0, 2 * side + 1))];
      const mid = side >> 1;
      for (let i = 0; i < side; i++)
        for (let j = 0; j < side; j++) {
          // The self-intersection: one hole twice as wide, along its neighbour's edge.
          const wide = defect === 'self-intersection' && i === mid && j === mid;
          rings.push(ring(at, squareHole(1 + 2 * i, 1 + 2 * j, wide ? 2 : 1)));
        }
      const quarter: At = (u, v) => at(u / 4, v / 4);
      const m = 4 * (1 + 2 * mid);
      if (defect === 'holes are nested') rings.push(ring(quarter, squareHole(m + 1, m + 1, 2)));
      if (defect === 'hole lies outside shell') rings.push(ring(at, squareHole(2 * side + 2, 0, 1)));
      return { type: 'Polygon', coordinates: rings };
    },
  },
  {
    name: 'holes touching at corners',
    what: 'a chain of square holes along the diagonal, each touching the next at one corner',
    defects: ['interior is disconnected'],
    make(vertices, defect) {
      const holes = Math.max(2, Math.floor(vertices / 4));
      const at = grid(holes + 2);
      const rings = [ring(at, square(0, 0, holes + 2))];
      for (let k = 0; k < holes; k++) rings.push(ring(at, squareHole(1 + k, 1 + k, 1)));
      // A triangle touching hole k at (k + 2, k + 1) and hole k + 1 at (k + 3, k + 2): a cycle of touches.
      const k = holes >> 1;
      if (defect)
        rings.push(
          ring(at, [
            [k + 2, k + 1],
            [k + 3, k + 2],
            [k + 3, k + 1],
          ]),
        );
      return { type: 'Polygon', coordinates: rings };
    },
  },
  {
    name: 'comb of holes',
    what: 'a comb-shaped hole and a small hole in each gap of its teeth: every small hole lies in the comb’s envelope',
    geosUpTo: 100_000,
    defects: ['holes are nested'],
    make(vertices, defect) {
      const teeth = Math.max(2, Math.floor(vertices / 8));
      const at = grid(2 * teeth + 6);
      const rings = [ring(at, square(0, 0, 2 * teeth + 6))];
      rings.push(ring(at, combPoints(1, 1, teeth, 2 * teeth).reverse()));
      // Gap k lies between teeth k and k + 1: v in (2 + 2k, 3 + 2k), u in (2, 3 + 2·teeth).
      // The defect puts the middle one in a tooth instead: inside the comb hole.
      const quarter: At = (u, v) => at(u / 4, v / 4);
      for (let k = 0; k < teeth - 1; k++) {
        const v = 4 * (2 + 2 * k) + 1 - (defect && k === teeth >> 1 ? 4 : 0);
        rings.push(ring(quarter, squareHole(4 * 3 + 4 * k, v, 2)));
      }
      return { type: 'Polygon', coordinates: rings };
    },
  },
  {
    name: 'islands in holes',
    what: 'a MultiPolygon: a shell with a grid of holes, and an island polygon inside every hole',
    defects: ['nested shells'],
    make(vertices, defect) {
      const side = Math.max(2, Math.round(Math.sqrt(vertices / 8)));
      const at = grid(4 * side + 1);
      const shell = [ring(at, square(0, 0, 4 * side + 1))];
      const islands: number[][][][] = [];
      for (let i = 0; i < side; i++)
        for (let j = 0; j < side; j++) {
          shell.push(ring(at, squareHole(1 + 4 * i, 1 + 4 * j, 3)));
          islands.push([ring(at, square(2 + 4 * i, 2 + 4 * j, 1))]);
        }
      // The defect: one more island between two holes, on the shell's land.
      const quarter: At = (u, v) => at(u / 4, v / 4);
      if (defect) islands.push([ring(quarter, square(4 * 4 + 1, 4 * 2, 2))]);
      return { type: 'MultiPolygon', coordinates: [shell, ...islands] };
    },
  },
  {
    name: 'checkerboard',
    what: 'a MultiPolygon of squares touching at corners (a checkerboard’s dark squares)',
    defects: ['self-intersection'],
    make(vertices, defect) {
      const side = Math.max(2, Math.round(Math.sqrt(vertices / 2)));
      const at = grid(side + 1);
      const polygons: number[][][][] = [];
      for (let i = 0; i < side; i++)
        for (let j = i % 2; j < side; j += 2) polygons.push([ring(at, square(i, j, 1))]);
      // The defect: a square straddling a light square and two dark ones.
      const quarter: At = (u, v) => at(u / 4, v / 4);
      if (defect) polygons.push([ring(quarter, square(2, 2, 4))]);
      return { type: 'MultiPolygon', coordinates: polygons };
    },
  },
  {
    name: 'spiral',
    what: 'a square spiral corridor: the chain envelope of each turn holds all the turns inside it',
    geosUpTo: 10_000,
    defects: [],
    make(vertices) {
      const turns = Math.max(1, Math.floor(vertices / 8));
      const segments = 4 * turns;
      // The corridor's centre line turns left at every corner, its k-th run
      // 4·(⌊k/2⌋ + 1) long (runs 4 apart), the walls 1 either side of it.
      const directions = [
        [1, 0],
        [0, 1],
        [-1, 0],
        [0, -1],
      ];
      const centre: number[][] = [[0, 0]];
      for (let k = 0; k < segments; k++) {
        const [du, dv] = directions[k % 4]!;
        const [u, v] = centre[k]!;
        const length = 4 * (Math.floor(k / 2) + 1);
        centre.push([u! + du! * length, v! + dv! * length]);
      }
      const normal = (k: number) => {
        const [du, dv] = directions[k % 4]!;
        return [-dv!, du!];
      };
      const left: number[][] = [];
      const right: number[][] = [];
      for (let k = 0; k <= segments; k++) {
        // At a corner the walls meet 1 off both runs; the two ends are cut square.
        const a = normal(k === 0 ? 0 : k - 1);
        const b = normal(k === segments ? k - 1 : k);
        const [nu, nv] = k === 0 || k === segments ? a : [a[0]! + b[0]!, a[1]! + b[1]!];
        const [u, v] = centre[k]!;
        left.push([u! + nu!, v! + nv!]);
        right.push([u! - nu!, v! - nv!]);
      }
      const extent = 4 * (2 * turns + 2);
      const at = grid(2 * extent);
      const shifted: At = (u, v) => at(u + extent, v + extent);
      return { type: 'Polygon', coordinates: [ring(shifted, [...right, ...left.reverse()])] };
    },
  },
  {
    name: 'collinear points',
    what: 'a square whose sides hold a quarter of the vertices each, all collinear, and a hole likewise',
    defects: ['self-intersection'],
    make(vertices, defect) {
      const n = Math.max(2, Math.floor(vertices / 8));
      const at = grid(4 * n);
      const outer = collinearSquare(0, 0, 4 * n, 4);
      const inner = collinearSquare(n, n, 2 * n, 2);
      // The defect: the hole's top side on the shell's top side (a shared run of segments).
      const hole = defect ? collinearSquare(n, 2 * n, 2 * n, 2) : inner;
      return { type: 'Polygon', coordinates: [ring(at, outer), ring(at, hole.reverse())] };
    },
  },
];

/** The corners of the square [u0, u0 + s] × [v0, v0 + s] and every `step`-th grid point between, counter-clockwise. */
function collinearSquare(u0: number, v0: number, s: number, step: number): number[][] {
  const points: number[][] = [];
  for (let k = 0; k < s; k += step) points.push([u0 + k, v0]);
  for (let k = 0; k < s; k += step) points.push([u0 + s, v0 + k]);
  for (let k = 0; k < s; k += step) points.push([u0 + s - k, v0 + s]);
  for (let k = 0; k < s; k += step) points.push([u0, v0 + s - k]);
  return points;
}
