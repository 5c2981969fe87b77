// Point-in-ring location and ring nesting, as GEOS decides them
// (RayCrossingCounter, PolygonTopologyAnalyzer::isRingNested): a point on a
// ring is on its boundary; a ring whose first point lies on the other ring is
// judged by the side its first segment leaves on.
import {
  COLLINEAR,
  COUNTERCLOCKWISE,
  isCCW,
  isInteriorSegment,
  orientation,
  type XY,
} from './orientation.ts';
import type { Ring, Rings } from './rings.ts';

export const EXTERIOR = 0;
export const BOUNDARY = 1;
export const INTERIOR = 2;

/** Counts crossings of the ray from (px, py) towards +x over one ring; returns -1 if the point is on it. */
function crossings(g: Rings, ring: Ring, px: number, py: number): number {
  const { xs, ys } = g;
  let count = 0;
  for (let i = ring.start + 1; i <= ring.end; i++) {
    const x1 = xs[i]!;
    const y1 = ys[i]!;
    const x2 = xs[i - 1]!;
    const y2 = ys[i - 1]!;
    if (x1 < px && x2 < px) continue;
    if (px === x2 && py === y2) return -1;
    if (y1 === py && y2 === py) {
      if (px >= Math.min(x1, x2) && px <= Math.max(x1, x2)) return -1;
      continue;
    }
    if ((y1 > py && y2 <= py) || (y2 > py && y1 <= py)) {
      let orient = orientation(x1, y1, x2, y2, px, py);
      if (orient === COLLINEAR) return -1;
      if (y2 < y1) orient = -orient;
      if (orient === COUNTERCLOCKWISE) count++;
    }
  }
  return count;
}

/** Returns where (px, py) lies with respect to one ring: EXTERIOR, BOUNDARY or INTERIOR. */
export function locateInRing(g: Rings, ring: Ring, px: number, py: number): number {
  const count = crossings(g, ring, px, py);
  return count < 0 ? BOUNDARY : count % 2 === 1 ? INTERIOR : EXTERIOR;
}

/** Returns where (px, py) lies with respect to a polygon's area (all its rings count crossings). */
export function locateInPolygon(g: Rings, polygon: Ring[], px: number, py: number): number {
  let total = 0;
  for (const ring of polygon) {
    const count = crossings(g, ring, px, py);
    if (count < 0) return BOUNDARY;
    total += count;
  }
  return total % 2 === 1 ? INTERIOR : EXTERIOR;
}

function point(g: Rings, i: number): XY {
  return [g.xs[i]!, g.ys[i]!];
}

function ringIsCCW(g: Rings, ring: Ring): boolean {
  ring.ccw ??= isCCW(interleave(g, ring));
  return ring.ccw;
}

function interleave(g: Rings, ring: Ring): Float64Array {
  const out = new Float64Array(2 * (ring.end - ring.start + 1));
  for (let i = ring.start; i <= ring.end; i++) {
    out[2 * (i - ring.start)] = g.xs[i]!;
    out[2 * (i - ring.start) + 1] = g.ys[i]!;
  }
  return out;
}

/** Returns whether ring `test` lies inside ring `target` (they may touch, never cross: checked before). */
export function isRingNested(g: Rings, test: Ring, target: Ring): boolean {
  const p0 = point(g, test.start);
  const loc = locateInRing(g, target, p0[0], p0[1]);
  if (loc === EXTERIOR) return false;
  if (loc === INTERIOR) return true;
  // p0 is on the target: the segment leaving p0 decides (repeats are already dropped).
  const p1 = point(g, test.start + 1);
  return isIncidentSegmentInRing(g, p0, p1, target);
}

function same(g: Rings, i: number, p: XY): boolean {
  return g.xs[i] === p[0] && g.ys[i] === p[1];
}

function isIncidentSegmentInRing(g: Rings, p0: XY, p1: XY, ring: Ring): boolean {
  const { start, end } = ring;
  const size = end - start + 1;
  const index = intersectingSegIndex(g, ring, p0); // relative to start
  const prevOf = (i: number) => (i === 0 ? size - 2 : i - 1);
  const nextOf = (i: number) => (i >= size - 2 ? 0 : i + 1);
  let iPrev = index;
  while (same(g, start + iPrev, p0)) iPrev = prevOf(iPrev);
  let iNext = index + 1;
  while (same(g, start + iNext, p0)) iNext = nextOf(iNext);
  let rPrev = point(g, start + iPrev);
  let rNext = point(g, start + iNext);
  if (ringIsCCW(g, ring)) [rPrev, rNext] = [rNext, rPrev]; // interior on the right
  return isInteriorSegment(p0, rPrev, rNext, p1);
}

/** Returns the first segment of `ring` that p lies on (the next one if p is its end point). */
function intersectingSegIndex(g: Rings, ring: Ring, p: XY): number {
  const { xs, ys } = g;
  for (let i = ring.start; i < ring.end; i++) {
    const ax = xs[i]!;
    const ay = ys[i]!;
    const bx = xs[i + 1]!;
    const by = ys[i + 1]!;
    if (p[0] < Math.min(ax, bx) || p[0] > Math.max(ax, bx)) continue;
    if (p[1] < Math.min(ay, by) || p[1] > Math.max(ay, by)) continue;
    if (orientation(ax, ay, bx, by, p[0], p[1]) !== COLLINEAR) continue;
    return (p[0] === bx && p[1] === by ? i + 1 : i) - ring.start;
  }
  throw new Error('segment vertex does not intersect ring'); // a bug: p was located on the ring
}
