// Exact orientation and the angular tests GEOS's IsValidOp builds on. The
// verdict must equal GEOS's, so the predicates are exact (Shewchuk's adaptive
// orient2d from robust-predicates): a naive double determinant flips signs on
// nearly collinear points that real boundary files hold by the thousand.
import { orient2d } from 'robust-predicates';

const CLOCKWISE = -1;
export const COLLINEAR = 0;
export const COUNTERCLOCKWISE = 1;

/**
 * Returns 1 if q lies left of the directed line p1→p2 (counter-clockwise),
 * -1 if right, 0 if collinear: GEOS's Orientation::index, computed exactly.
 */
export function orientation(
  p1x: number,
  p1y: number,
  p2x: number,
  p2y: number,
  qx: number,
  qy: number,
): number {
  const det = orient2d(p1x, p1y, p2x, p2y, qx, qy); // positive when clockwise
  return det < 0 ? COUNTERCLOCKWISE : det > 0 ? CLOCKWISE : COLLINEAR;
}

/** Returns the quadrant of the vector (dx, dy): 0 NE, 1 NW, 2 SW, 3 SE; axes as GEOS's Quadrant. */
export function quadrant(dx: number, dy: number): number {
  if (dx >= 0) return dy >= 0 ? 0 : 3;
  return dy >= 0 ? 1 : 2;
}

/** A point as [x, y]. */
export type XY = readonly [number, number];

/** Returns whether the angle of o→p is greater than that of o→q (measured from +x, counter-clockwise). */
function isAngleGreater(o: XY, p: XY, q: XY): boolean {
  const qp = quadrant(p[0] - o[0], p[1] - o[1]);
  const qq = quadrant(q[0] - o[0], q[1] - o[1]);
  if (qp !== qq) return qp > qq;
  return orientation(o[0], o[1], q[0], q[1], p[0], p[1]) === COUNTERCLOCKWISE;
}

/** Returns whether o→p lies strictly between o→e0 and o→e1 by angle (e0 below e1). */
function isBetween(o: XY, p: XY, e0: XY, e1: XY): boolean {
  if (!isAngleGreater(o, p, e0)) return false;
  return !isAngleGreater(o, p, e1);
}

/**
 * Returns whether the edge pair (a0, a1) and the edge pair (b0, b1), all
 * incident to `node`, cross there: b's edges lie on different sides of a's.
 */
export function isCrossing(node: XY, a0: XY, a1: XY, b0: XY, b1: XY): boolean {
  let lo = a0;
  let hi = a1;
  if (isAngleGreater(node, lo, hi)) {
    lo = a1;
    hi = a0;
  }
  return isBetween(node, b0, lo, hi) !== isBetween(node, b1, lo, hi);
}

/**
 * Returns whether the segment node→b lies in the interior of the corner
 * a0→node→a1 of a ring whose interior is on the right.
 */
export function isInteriorSegment(node: XY, a0: XY, a1: XY, b: XY): boolean {
  let lo = a0;
  let hi = a1;
  let interiorBetween = true;
  if (isAngleGreater(node, lo, hi)) {
    lo = a1;
    hi = a0;
    interiorBetween = false;
  }
  return isBetween(node, b, lo, hi) === interiorBetween;
}

/**
 * Returns whether a closed ring (interleaved x, y; last point = first) runs
 * counter-clockwise, by the orientation of its highest cap (GEOS's
 * Orientation::isCCW, so flat and degenerate rings answer as GEOS does).
 */
export function isCCW(xy: Float64Array): boolean {
  const nPts = xy.length / 2 - 1;
  if (nPts < 3) return false;
  const y = (i: number) => xy[2 * i + 1]!;
  let hiY = y(0);
  let prevY = hiY;
  let iUpHi = 0;
  for (let i = 1; i <= nPts; i++) {
    const py = y(i);
    if (py > prevY && py >= hiY) {
      iUpHi = i;
      hiY = py;
    }
    prevY = py;
  }
  if (iUpHi === 0) return false; // flat
  const upHi = iUpHi;
  const upLow = iUpHi - 1;
  let iDownLow = iUpHi;
  do iDownLow = (iDownLow + 1) % nPts;
  while (iDownLow !== iUpHi && y(iDownLow) === hiY);
  const iDownHi = iDownLow > 0 ? iDownLow - 1 : nPts - 1;
  const same = (i: number, j: number) => xy[2 * i] === xy[2 * j] && xy[2 * i + 1] === xy[2 * j + 1];
  if (same(upHi, iDownHi)) {
    if (same(upLow, upHi) || same(iDownLow, upHi) || same(upLow, iDownLow)) return false;
    const o = orientation(
      xy[2 * upLow]!,
      xy[2 * upLow + 1]!,
      xy[2 * upHi]!,
      xy[2 * upHi + 1]!,
      xy[2 * iDownLow]!,
      xy[2 * iDownLow + 1]!,
    );
    return o === COUNTERCLOCKWISE;
  }
  return xy[2 * iDownHi]! - xy[2 * upHi]! < 0; // flat cap: its direction decides
}
