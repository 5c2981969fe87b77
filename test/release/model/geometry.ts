// Plane geometry for the model-based release tests: MultiPolygons of lon/lat
// positions, moved, scaled, re-digitised, merged and split the way a
// publisher's edits would, with polygon-clipping (a library the product does
// not use for matching) for the unions, cuts and overlap areas the truth needs.
import polygonClipping from 'polygon-clipping';
import { orient2d } from 'robust-predicates';
import { scaleAt } from '../../../build/identity/shape.ts';
import { METRES_PER_DEGREE } from '../../../build/core/shared/crs.ts';

export type Pos = [number, number];
export type MP = Pos[][][]; // MultiPolygon coordinates: polygons → rings → positions (closed)

/** Returns v rounded to 6 decimals, as real files write positions (about 0.1 m). */
export const round6 = (v: number): number => Math.round(v * 1e6) / 1e6;

/** Returns a copy of `mp` with every position mapped by `f` (rounded to 6 decimals). */
function mapPositions(mp: MP, f: (p: Pos) => Pos): MP {
  return mp.map((poly) =>
    poly.map((ring) =>
      ring.map((p) => {
        const [x, y] = f(p);
        return [round6(x), round6(y)];
      }),
    ),
  );
}

/** Returns the box [west, south, east, north] of `mp`. */
export function boxOf(mp: MP): [number, number, number, number] {
  const b: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const poly of mp) {
    for (const [x, y] of poly[0] ?? []) {
      b[0] = Math.min(b[0], x);
      b[1] = Math.min(b[1], y);
      b[2] = Math.max(b[2], x);
      b[3] = Math.max(b[3], y);
    }
  }
  return b;
}

/** Returns metres per degree (x, y) at the middle of `mp`. */
export function metresPerDegree(mp: MP): [number, number] {
  const b = boxOf(mp);
  return scaleAt((b[1] + b[3]) / 2, METRES_PER_DEGREE.earth);
}

/** Returns the planar area of `mp` in degree² (holes subtracted). */
export function areaOf(mp: MP): number {
  let total = 0;
  for (const poly of mp) {
    poly.forEach((ring, r) => {
      let s = 0;
      for (let i = 0; i + 1 < ring.length; i++)
        s += ring[i]![0] * ring[i + 1]![1] - ring[i + 1]![0] * ring[i]![1];
      total += (r === 0 ? 1 : -1) * Math.abs(s / 2);
    });
  }
  return total;
}

/** Returns `mp` moved by dx, dy metres. */
export function translate(mp: MP, dx: number, dy: number): MP {
  const [kx, ky] = metresPerDegree(mp);
  return mapPositions(mp, ([x, y]) => [x + dx / kx, y + dy / ky]);
}

/** Returns `mp` scaled by k about the middle of its box (k = 2 doubles its radius). */
export function scale(mp: MP, k: number): MP {
  const b = boxOf(mp);
  const cx = (b[0] + b[2]) / 2;
  const cy = (b[1] + b[3]) / 2;
  return mapPositions(mp, ([x, y]) => [cx + (x - cx) * k, cy + (y - cy) * k]);
}

/** Returns `mp` with a vertex added at the middle of every edge: the same line, more vertices. */
export function densify(mp: MP): MP {
  return mp.map((poly) =>
    poly.map((ring) => {
      const out: Pos[] = [];
      for (let i = 0; i + 1 < ring.length; i++) {
        const [a, b] = [ring[i]!, ring[i + 1]!];
        out.push(a, [round6((a[0] + b[0]) / 2), round6((a[1] + b[1]) / 2)]);
      }
      out.push(ring[ring.length - 1]!);
      return out;
    }),
  );
}

/** Returns `mp` with every vertex moved by at most `metres` (the ring stays closed). */
export function jitter(mp: MP, random: () => number, metres: number): MP {
  const [kx, ky] = metresPerDegree(mp);
  return mp.map((poly) =>
    poly.map((ring) => {
      const out = ring.slice(0, -1).map(([x, y]): Pos => {
        const r = metres * Math.sqrt(random());
        const t = 2 * Math.PI * random();
        return [round6(x + (r * Math.cos(t)) / kx), round6(y + (r * Math.sin(t)) / ky)];
      });
      return [...out, out[0]!];
    }),
  );
}

const rounded = (mp: polygonClipping.MultiPolygon): MP => mapPositions(mp as MP, (p) => p);

/**
 * polygon-clipping, the oracle of the scripts' unions, cuts and overlaps,
 * failed on a script's shapes (e.g. its own unbounded recursion in
 * isExteriorRing, MODEL_SEED=1366964494): the script is drawn again
 * (editScript), for the truth cannot be computed, not because the product
 * did anything.
 */
export class OracleFailure extends Error {}

/** Runs one polygon-clipping operation; its failure is an OracleFailure. */
function clip<T>(op: () => T): T {
  try {
    return op();
  } catch (error) {
    throw new OracleFailure(`polygon-clipping failed: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * Returns the union of `a` and `b`, dissolved as a publisher's tool would:
 * slivers (holes and parts under 10⁻⁴ of the area, e.g. the gaps along a
 * border re-digitised on one side only) are dropped.
 */
export function union(a: MP, b: MP): MP {
  const u = rounded(clip(() => polygonClipping.union(a as polygonClipping.Geom, b as polygonClipping.Geom)));
  const least = 1e-4 * areaOf(u);
  return u
    .map((poly) => poly.filter((ring, r) => r === 0 || areaOf([[ring]]) >= least))
    .filter((poly) => areaOf([poly]) >= least);
}

/** Returns the area (degree²) that `a` and `b` share. */
export function overlapArea(a: MP, b: MP): number {
  return areaOf(
    clip(() => polygonClipping.intersection(a as polygonClipping.Geom, b as polygonClipping.Geom)) as MP,
  );
}

/**
 * Returns `mp` cut in two by the line through the middle of its box at
 * `angle` (radians), or undefined when a side holds less than `least` of the area.
 */
export function cut(mp: MP, angle: number, least: number): [MP, MP] | undefined {
  const b = boxOf(mp);
  const [cx, cy] = [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2];
  const [ux, uy] = [Math.cos(angle), Math.sin(angle)];
  const far = 10 * Math.max(b[2] - b[0], b[3] - b[1]);
  const half = (side: number): polygonClipping.Polygon => [
    [
      [cx - ux * far, cy - uy * far],
      [cx + ux * far, cy + uy * far],
      [cx + ux * far - side * uy * far, cy + uy * far + side * ux * far],
      [cx - ux * far - side * uy * far, cy - uy * far + side * ux * far],
      [cx - ux * far, cy - uy * far],
    ],
  ];
  const parts = [1, -1].map((side) =>
    rounded(clip(() => polygonClipping.intersection(mp as polygonClipping.Geom, half(side)))),
  );
  const total = areaOf(mp);
  if (parts.some((p) => areaOf(p) < least * total)) return undefined;
  return [parts[0]!, parts[1]!];
}

const key = ([x, y]: Pos) => `${x},${y}`;

/** Returns the positions of `mp`'s rings, each once. */
export function vertexKeys(mp: MP): Set<string> {
  return new Set(mp.flatMap((poly) => poly.flatMap((ring) => ring.map(key))));
}

/**
 * Returns `a` and `b` with their longest shared border moved by up to
 * `metres` (a smooth bulge, both ends fixed, into `b` when `side` is 1 and
 * into `a` when it is −1), or undefined when they share no border of three
 * vertices that no other unit (`others`) touches, when no vertex of it
 * would move half of `metres`, or when the move would make a ring cross itself.
 */
export function moveSharedBorder(
  a: MP,
  b: MP,
  others: MP[],
  metres: number,
  side: 1 | -1,
): [MP, MP] | undefined {
  const inB = vertexKeys(b);
  const elsewhere = new Set(others.flatMap((o) => [...vertexKeys(o)]));
  let best: Pos[] = [];
  for (const poly of a) {
    for (const ring of poly) {
      const open = ring.slice(0, -1);
      const n = open.length;
      const start = open.findIndex((p) => !inB.has(key(p)));
      if (start < 0) continue;
      let run: Pos[] = [];
      for (let k = 1; k <= n; k++) {
        const p = open[(start + k) % n]!;
        if (inB.has(key(p))) run.push(p);
        else {
          if (run.length > best.length) best = run;
          run = [];
        }
      }
    }
  }
  if (best.length < 3 || best.slice(1, -1).some((p) => elsewhere.has(key(p)))) return undefined;
  const [kx, ky] = metresPerDegree(a);
  const lengths = [0];
  for (let i = 1; i < best.length; i++) {
    const [p, q] = [best[i - 1]!, best[i]!];
    lengths.push(lengths[i - 1]! + Math.hypot((q[0] - p[0]) * kx, (q[1] - p[1]) * ky));
  }
  const [p0, p1] = [best[0]!, best[best.length - 1]!];
  const [ex, ey] = [(p1[0] - p0[0]) * kx, (p1[1] - p0[1]) * ky];
  const chord = Math.hypot(ex, ey);
  // The normal to the chord; a's ring runs counter-clockwise, so its left (into a) is (−ey, ex).
  const [nx, ny] = [(-ey / chord) * -side, (ex / chord) * -side];
  const total = lengths[lengths.length - 1]!;
  const moved = new Map<string, Pos>();
  let most = 0;
  best.slice(1, -1).forEach((p, i) => {
    const bulge = metres * Math.sin((Math.PI * lengths[i + 1]!) / total);
    most = Math.max(most, bulge);
    moved.set(key(p), [p[0] + (nx * bulge) / kx, p[1] + (ny * bulge) / ky]);
  });
  // A border whose inner vertices all lie near its ends barely moves (a
  // "999 m" move that moved no vertex more than 21 m): not the move the
  // script's line and truth name.
  if (most < metres / 2) return undefined;
  const apply = (mp: MP) => mapPositions(mp, (p) => moved.get(key(p)) ?? p);
  const [a2, b2] = [apply(a), apply(b)];
  return simple(a2) && simple(b2) ? [a2, b2] : undefined;
}

/** Returns whether no two edges of `mp`'s rings cross or touch, but where consecutive edges meet. */
function simple(mp: MP): boolean {
  const edges: [Pos, Pos, number, number][] = [];
  mp.forEach((poly) =>
    poly.forEach((ring, r) => {
      for (let i = 0; i + 1 < ring.length; i++) edges.push([ring[i]!, ring[i + 1]!, r, ring.length - 1]);
    }),
  );
  for (let i = 0; i < edges.length; i++) {
    for (let j = i + 1; j < edges.length; j++) {
      const [a, b] = edges[i]!;
      const [c, d] = edges[j]!;
      const shared = [a, b].some((p) => (p[0] === c[0] && p[1] === c[1]) || (p[0] === d[0] && p[1] === d[1]));
      if (shared) continue; // neighbours along a ring (or a ring's closing edge)
      const o1 = orient2d(a[0], a[1], b[0], b[1], c[0], c[1]);
      const o2 = orient2d(a[0], a[1], b[0], b[1], d[0], d[1]);
      const o3 = orient2d(c[0], c[1], d[0], d[1], a[0], a[1]);
      const o4 = orient2d(c[0], c[1], d[0], d[1], b[0], b[1]);
      if (Math.sign(o1) !== Math.sign(o2) && Math.sign(o3) !== Math.sign(o4)) return false;
    }
  }
  return true;
}
