// Finds the first invalid intersection between the segments of a polygonal
// geometry's rings, with GEOS's rules (PolygonIntersectionAnalyzer): crossing
// or overlapping segments are a self-intersection, a ring touching itself is a
// ring self-intersection, two rings of one polygon may touch at one point
// only. Candidate pairs come from monotone chains swept by x, split in halves
// while their envelopes overlap (as GEOS's MCIndexNoder), so a ring of n
// points costs about n log n, never n².
import { ChainIndex } from './chain-index.ts';
import { bucketOf, buildChains, type Chains } from './chains.ts';
import { indexLimits, work } from './limits.ts';
import { COLLINEAR, isCrossing, orientation, type XY } from './orientation.ts';
import type { Ring, Rings } from './rings.ts';
import { TouchGraph } from './touches.ts';

const SELF_INTERSECTION = 'self-intersection';
const RING_SELF_INTERSECTION = 'ring self-intersection';

export interface IntersectionResult {
  invalid?: { kind: typeof SELF_INTERSECTION | typeof RING_SELF_INTERSECTION; ring: Ring; at: XY };
  touches: TouchGraph; // touches between rings of one polygon, for the connected-interior check
}

/** Returns the first invalid intersection (if any) and the touch graph of the rings. */
export function analyseIntersections(g: Rings): IntersectionResult {
  const chains = buildChains(g);
  const touches = new TouchGraph(g);
  const state: State = { g, chains, touches, invalid: undefined };
  const { count, bucketEnd } = chains;
  const { sortedMinX, sortedMaxX, sortedMinY, sortedMaxY } = chains;
  // The sweep meets ~7 chains per chain on ordinary rings; where many chains
  // share an x-range it would meet nearly all, so past a budget the pairs
  // left come from an R-tree, in the same order.
  let budget = indexLimits.sweepStepsPerChain * count;
  let a = 0;
  for (; a < count && !state.invalid; a++) {
    const iMinX = sortedMinX[a]!;
    const iMaxX = sortedMaxX[a]!;
    const iMinY = sortedMinY[a]!;
    const iMaxY = sortedMaxY[a]!;
    // Chains in later buckets than that of i's maxX start right of i.
    const stop = bucketEnd[bucketOf(chains, iMaxX)]!;
    budget -= stop - a - 1;
    if (budget < 0) break;
    work.tests += stop - a - 1;
    for (let b = a + 1; b < stop; b++) {
      // Most chains met overlap in x but not in y (the ring's other side), so
      // y is tested first, its two tests combined without branches (which the
      // CPU could not predict); x only for the few that overlap in y.
      if ((+(sortedMinY[b]! <= iMaxY) & +(sortedMaxY[b]! >= iMinY)) === 0) continue;
      if (sortedMinX[b]! > iMaxX || sortedMaxX[b]! < iMinX) continue;
      testChains(state, a, b);
      if (state.invalid) break;
    }
  }
  if (a < count && !state.invalid) {
    const index = new ChainIndex(chains, g);
    for (; a < count && !state.invalid; a++) {
      const later = index.laterOverlaps(a);
      const positions = index.positions();
      for (let k = 0; k < later && !state.invalid; k++) testChains(state, a, positions[k]!);
    }
  }
  return { invalid: state.invalid, touches };
}

/** Tests the chains at positions a and b of the sweep order, whose boxes overlap. */
function testChains(state: State, a: number, b: number): void {
  const { g, chains } = state;
  const { order, start, end, ring: ringOf, quadrant } = chains;
  const i = order[a]!;
  const j = order[b]!;
  const r = ringOf[i]!;
  if (r === ringOf[j]! && ((quadrant[i]! - quadrant[j]!) & 3) !== 2) {
    const ring = g.rings[r]!;
    const ij = end[i] === start[j] || (end[i] === ring.end && start[j] === ring.start);
    const ji = end[j] === start[i] || (end[j] === ring.end && start[i] === ring.start);
    if (ij !== ji && !(ij ? runsBack(g, end[i]!, start[j]!) : runsBack(g, end[j]!, start[i]!))) return;
    // A spike: tested whole, so the first problem found is the one found before this shortcut.
  }
  overlap(state, r, start[i]!, end[i]!, ringOf[j]!, start[j]!, end[j]!);
}

/**
 * Whether a ring runs straight back at a point where one chain ends (point
 * `b`) and the next starts (point `next`, the same point). Two such chains
 * heading into quadrants that are not opposite lie in neighbouring closed
 * quadrants around the point, so they can only meet along the axis between
 * them, and only if the segments either side of the point run back along it
 * (a spike). Otherwise no segment pair of the two can meet: none is tested.
 */
function runsBack(g: Rings, b: number, next: number): boolean {
  const { xs, ys } = g;
  const ax = xs[b - 1]!;
  const ay = ys[b - 1]!;
  const bx = xs[b]!;
  const by = ys[b]!;
  const cx = xs[next + 1]!;
  const cy = ys[next + 1]!;
  return (
    (ax === bx && bx === cx && (by - ay) * (cy - by) < 0) ||
    (ay === by && by === cy && (bx - ax) * (cx - bx) < 0)
  );
}

interface State {
  g: Rings;
  chains: Chains;
  touches: TouchGraph;
  invalid: IntersectionResult['invalid'];
}

/**
 * Tests the segments [s0, e0) of one monotone chain against [s1, e1) of
 * another (indices of their start points). A monotone run's envelope is that
 * of its two end points, so halves are pruned cheaply.
 */
function overlap(state: State, r0: number, s0: number, e0: number, r1: number, s1: number, e1: number): void {
  const { xs, ys } = state.g;
  if (e0 - s0 === 1 && e1 - s1 === 1) {
    testSegments(state, r0, s0, r1, s1);
    return;
  }
  const ax = xs[s0]!;
  const bx = xs[e0]!;
  const cx = xs[s1]!;
  const dx = xs[e1]!;
  if ((ax < bx ? ax : bx) > (cx > dx ? cx : dx) || (cx < dx ? cx : dx) > (ax > bx ? ax : bx)) return;
  const ay = ys[s0]!;
  const by = ys[e0]!;
  const cy = ys[s1]!;
  const dy = ys[e1]!;
  if ((ay < by ? ay : by) > (cy > dy ? cy : dy) || (cy < dy ? cy : dy) > (ay > by ? ay : by)) return;
  if (e0 - s0 >= e1 - s1) {
    const m = (s0 + e0) >>> 1;
    overlap(state, r0, s0, m, r1, s1, e1);
    if (!state.invalid) overlap(state, r0, m, e0, r1, s1, e1);
  } else {
    const m = (s1 + e1) >>> 1;
    overlap(state, r0, s0, e0, r1, s1, m);
    if (!state.invalid) overlap(state, r0, s0, e0, r1, m, e1);
  }
}

/**
 * GEOS's findInvalidIntersection for segment k0 (of ring r0) and k1 (of r1):
 * records the first invalid intersection in `state.invalid`, and valid
 * touches between different rings in the touch graph.
 */
function testSegments(state: State, r0: number, k0: number, r1: number, k1: number): void {
  const { xs, ys, rings } = state.g;
  const p00x = xs[k0]!;
  const p00y = ys[k0]!;
  const p01x = xs[k0 + 1]!;
  const p01y = ys[k0 + 1]!;
  const p10x = xs[k1]!;
  const p10y = ys[k1]!;
  const p11x = xs[k1 + 1]!;
  const p11y = ys[k1 + 1]!;
  // Envelopes first: most candidate pairs end here.
  if (Math.min(p00x, p01x) > Math.max(p10x, p11x) || Math.min(p10x, p11x) > Math.max(p00x, p01x)) return;
  if (Math.min(p00y, p01y) > Math.max(p10y, p11y) || Math.min(p10y, p11y) > Math.max(p00y, p01y)) return;
  const ring0 = rings[r0]!;
  if (r0 === r1 && isAdjacent(ring0, k0, k1)) {
    // Consecutive segments share one end; they overlap only if the second turns
    // straight back (a spike): GEOS's collinear intersection, a self-intersection.
    // Scalars, not a destructured pair: this runs for most adjacent chains
    // that turn back, and the pair was a third of the check's garbage.
    const forward = k1 === k0 + 1 || (k0 === ring0.end - 1 && k1 === ring0.start);
    const a = forward ? k0 : k1;
    const b = forward ? k1 : k0;
    const ax = xs[a]!,
      ay = ys[a]!,
      bx = xs[b]!,
      by = ys[b]!,
      cx = xs[b + 1]!,
      cy = ys[b + 1]!;
    if (orientation(ax, ay, bx, by, cx, cy) !== COLLINEAR) return;
    if ((bx - ax) * (cx - bx) + (by - ay) * (cy - by) >= 0) return;
    state.invalid = { kind: SELF_INTERSECTION, ring: ring0, at: [bx, by] };
    return;
  }
  const hit = intersect(p00x, p00y, p01x, p01y, p10x, p10y, p11x, p11y);
  if (hit === undefined) return;
  if (hit.proper || hit.count === 2) {
    state.invalid = { kind: SELF_INTERSECTION, ring: ring0, at: hit.at };
    return;
  }
  const [ix, iy] = hit.at;
  const sameRing = r0 === r1;
  if (sameRing) {
    state.invalid = { kind: RING_SELF_INTERSECTION, ring: ring0, at: hit.at };
    return;
  }
  // A touch at a segment's end is also the next segment's start: judge it there.
  if ((ix === p01x && iy === p01y) || (ix === p11x && iy === p11y)) return;
  const ring1 = rings[r1]!;
  const e00: XY = ix === p00x && iy === p00y ? prev(state.g, ring0, k0) : [p00x, p00y];
  const e10: XY = ix === p10x && iy === p10y ? prev(state.g, ring1, k1) : [p10x, p10y];
  if (isCrossing(hit.at, e00, [p01x, p01y], e10, [p11x, p11y])) {
    state.invalid = { kind: SELF_INTERSECTION, ring: ring0, at: hit.at };
    return;
  }
  state.touches.add(r0, r1, hit.at);
}

/** Returns whether segments k0 and k1 of a ring are consecutive (the last and the first are). */
function isAdjacent(ring: Ring, k0: number, k1: number): boolean {
  const delta = k0 > k1 ? k0 - k1 : k1 - k0;
  return delta <= 1 || delta >= ring.end - ring.start - 1;
}

/** The point before segment k's start in its ring (wrapping past the closing point). */
function prev(g: Rings, ring: Ring, k: number): XY {
  const i = k === ring.start ? ring.end - 1 : k - 1;
  return [g.xs[i]!, g.ys[i]!];
}

/** How two segments meet: one point (proper: inside both), or a collinear overlap (count 2). */
export interface Hit {
  count: 1 | 2;
  proper: boolean;
  at: XY; // the (first) intersection point
}

/** GEOS's RobustLineIntersector for segments p1p2 and q1q2 whose envelopes intersect. */
export function intersect(
  p1x: number,
  p1y: number,
  p2x: number,
  p2y: number,
  q1x: number,
  q1y: number,
  q2x: number,
  q2y: number,
): Hit | undefined {
  const pq1 = orientation(p1x, p1y, p2x, p2y, q1x, q1y);
  const pq2 = orientation(p1x, p1y, p2x, p2y, q2x, q2y);
  if ((pq1 > 0 && pq2 > 0) || (pq1 < 0 && pq2 < 0)) return undefined;
  const qp1 = orientation(q1x, q1y, q2x, q2y, p1x, p1y);
  const qp2 = orientation(q1x, q1y, q2x, q2y, p2x, p2y);
  if ((qp1 > 0 && qp2 > 0) || (qp1 < 0 && qp2 < 0)) return undefined;
  if (pq1 === COLLINEAR && pq2 === COLLINEAR && qp1 === COLLINEAR && qp2 === COLLINEAR) {
    return collinear(p1x, p1y, p2x, p2y, q1x, q1y, q2x, q2y);
  }
  if (pq1 === 0 || pq2 === 0 || qp1 === 0 || qp2 === 0) {
    let at: XY;
    if ((p1x === q1x && p1y === q1y) || (p1x === q2x && p1y === q2y)) at = [p1x, p1y];
    else if ((p2x === q1x && p2y === q1y) || (p2x === q2x && p2y === q2y)) at = [p2x, p2y];
    else if (pq1 === 0) at = [q1x, q1y];
    else if (pq2 === 0) at = [q2x, q2y];
    else if (qp1 === 0) at = [p1x, p1y];
    else at = [p2x, p2y];
    return { count: 1, proper: false, at };
  }
  // A crossing inside both segments; the point is only for the message.
  const d = (p2x - p1x) * (q2y - q1y) - (p2y - p1y) * (q2x - q1x);
  const t = ((q1x - p1x) * (q2y - q1y) - (q1y - p1y) * (q2x - q1x)) / d;
  return { count: 1, proper: true, at: [p1x + t * (p2x - p1x), p1y + t * (p2y - p1y)] };
}

function collinear(
  p1x: number,
  p1y: number,
  p2x: number,
  p2y: number,
  q1x: number,
  q1y: number,
  q2x: number,
  q2y: number,
): Hit | undefined {
  const inP = (x: number, y: number) =>
    x >= Math.min(p1x, p2x) && x <= Math.max(p1x, p2x) && y >= Math.min(p1y, p2y) && y <= Math.max(p1y, p2y);
  const inQ = (x: number, y: number) =>
    x >= Math.min(q1x, q2x) && x <= Math.max(q1x, q2x) && y >= Math.min(q1y, q2y) && y <= Math.max(q1y, q2y);
  const q1inP = inP(q1x, q1y);
  const q2inP = inP(q2x, q2y);
  const p1inQ = inQ(p1x, p1y);
  const p2inQ = inQ(p2x, p2y);
  const hit = (x: number, y: number, single: boolean): Hit => ({
    count: single ? 1 : 2,
    proper: false,
    at: [x, y],
  });
  if (q1inP && q2inP) return hit(q1x, q1y, false);
  if (p1inQ && p2inQ) return hit(p1x, p1y, false);
  if (q1inP && p1inQ) return hit(q1x, q1y, q1x === p1x && q1y === p1y && !q2inP && !p2inQ);
  if (q1inP && p2inQ) return hit(q1x, q1y, q1x === p2x && q1y === p2y && !q2inP && !p1inQ);
  if (q2inP && p1inQ) return hit(q2x, q2y, q2x === p1x && q2y === p1y && !q1inP && !p2inQ);
  if (q2inP && p2inQ) return hit(q2x, q2y, q2x === p2x && q2y === p2y && !q1inP && !p1inQ);
  return undefined;
}
