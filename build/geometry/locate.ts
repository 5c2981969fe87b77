// Point-in-ring location and ring nesting, as GEOS decides them
// (RayCrossingCounter, PolygonTopologyAnalyzer::isRingNested): a point on a
// ring is on its boundary; a ring whose first point lies on the other ring is
// judged by the side its first segment leaves on. A ring (or polygon) located
// against again and again (a shell with thousands of holes, a comb-shaped
// hole with a hole in every gap) gets an index of its segments, so each
// location costs about log n instead of n; the answers are the same.
import { BoxTree } from './box-tree.ts';
import { indexLimits, work } from './limits.ts';
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
const BOUNDARY = 1;
export const INTERIOR = 2;

/**
 * Locates points in the rings and polygons of one geometry. Keeps, per ring
 * or polygon, how often it was scanned, and builds its segment index once
 * that is more than `indexLimits.scansBeforeIndex` times.
 */
export class Locator {
  private readonly scans = new Map<Ring | Ring[], number>();
  private readonly indexes = new Map<Ring | Ring[], SegmentIndex>();

  constructor(private readonly g: Rings) {}

  /** Returns where (px, py) lies with respect to one ring: EXTERIOR, BOUNDARY or INTERIOR. */
  locateInRing(ring: Ring, px: number, py: number): number {
    const index = this.indexOf(ring, [ring]);
    const count = index ? index.crossings(px, py) : crossings(this.g, ring, px, py);
    return count < 0 ? BOUNDARY : count % 2 === 1 ? INTERIOR : EXTERIOR;
  }

  /** Returns where (px, py) lies with respect to a polygon's area (all its rings count crossings). */
  locateInPolygon(polygon: Ring[], px: number, py: number): number {
    const index = this.indexOf(polygon, polygon);
    let total = 0;
    if (index) total = index.crossings(px, py);
    else {
      for (const ring of polygon) {
        const count = crossings(this.g, ring, px, py);
        if (count < 0) return BOUNDARY;
        total += count;
      }
    }
    return total < 0 ? BOUNDARY : total % 2 === 1 ? INTERIOR : EXTERIOR;
  }

  /** Returns whether ring `test` lies inside ring `target` (they may touch, never cross: checked before). */
  isRingNested(test: Ring, target: Ring): boolean {
    const { g } = this;
    const p0: XY = [g.xs[test.start]!, g.ys[test.start]!];
    const loc = this.locateInRing(target, p0[0], p0[1]);
    if (loc === EXTERIOR) return false;
    if (loc === INTERIOR) return true;
    // p0 is on the target: the segment leaving p0 decides (repeats are already dropped).
    const p1: XY = [g.xs[test.start + 1]!, g.ys[test.start + 1]!];
    return this.isIncidentSegmentInRing(p0, p1, target);
  }

  /** Returns the segment index of `key` (ring or polygon) if it has, or now deserves, one. */
  private indexOf(key: Ring | Ring[], rings: Ring[]): SegmentIndex | undefined {
    const built = this.indexes.get(key);
    if (built) return built;
    const scans = (this.scans.get(key) ?? 0) + 1;
    this.scans.set(key, scans);
    if (scans <= indexLimits.scansBeforeIndex) return undefined;
    let segments = 0;
    for (const ring of rings) segments += ring.end - ring.start;
    if (segments < indexLimits.segmentsForIndex) return undefined;
    const index = new SegmentIndex(this.g, rings);
    this.indexes.set(key, index);
    return index;
  }

  private isIncidentSegmentInRing(p0: XY, p1: XY, ring: Ring): boolean {
    const { g } = this;
    const { start, end } = ring;
    const size = end - start + 1;
    const index = this.indexOf(ring, [ring])?.firstSegmentAt(ring, p0) ?? intersectingSegIndex(g, ring, p0); // relative to start
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
}

/**
 * Counts the crossings of the ray from (px, py) towards +x over segment
 * k → k + 1; returns -1 if the point is on it. Segments whose y-range does
 * not hold py, or that lie left of px, count nothing.
 */
function segmentCrossing(xs: Float64Array, ys: Float64Array, k: number, px: number, py: number): number {
  const x1 = xs[k + 1]!;
  const y1 = ys[k + 1]!;
  const x2 = xs[k]!;
  const y2 = ys[k]!;
  if (x1 < px && x2 < px) return 0;
  if (px === x2 && py === y2) return -1;
  if (y1 === py && y2 === py) {
    if (px >= Math.min(x1, x2) && px <= Math.max(x1, x2)) return -1;
    return 0;
  }
  if ((y1 > py && y2 <= py) || (y2 > py && y1 <= py)) {
    let orient = orientation(x1, y1, x2, y2, px, py);
    if (orient === COLLINEAR) return -1;
    if (y2 < y1) orient = -orient;
    if (orient === COUNTERCLOCKWISE) return 1;
  }
  return 0;
}

/** Counts crossings of the ray from (px, py) towards +x over one ring; returns -1 if the point is on it. */
function crossings(g: Rings, ring: Ring, px: number, py: number): number {
  const { xs, ys } = g;
  work.tests += ring.end - ring.start;
  let count = 0;
  for (let k = ring.start; k < ring.end; k++) {
    const crossing = segmentCrossing(xs, ys, k, px, py);
    if (crossing < 0) return -1;
    count += crossing;
  }
  return count;
}

/** The segments of some rings in an R-tree: a ray meets only those whose box it meets. */
class SegmentIndex {
  private readonly tree: BoxTree;
  private readonly segment: Int32Array; // per item, the index of its segment's first point

  constructor(
    private readonly g: Rings,
    rings: Ring[],
  ) {
    const { xs, ys } = g;
    let count = 0;
    for (const ring of rings) count += ring.end - ring.start;
    const boxes = new Float64Array(4 * count);
    this.segment = new Int32Array(count);
    let item = 0;
    for (const ring of rings) {
      for (let k = ring.start; k < ring.end; k++, item++) {
        boxes[4 * item] = Math.min(xs[k]!, xs[k + 1]!);
        boxes[4 * item + 1] = Math.min(ys[k]!, ys[k + 1]!);
        boxes[4 * item + 2] = Math.max(xs[k]!, xs[k + 1]!);
        boxes[4 * item + 3] = Math.max(ys[k]!, ys[k + 1]!);
        this.segment[item] = k;
      }
    }
    this.tree = new BoxTree(boxes);
  }

  /** The crossings of the ray from (px, py) towards +x over all the rings; -1 if the point is on one. */
  crossings(px: number, py: number): number {
    const { tree, segment } = this;
    const { xs, ys } = this.g;
    const found = tree.query(px, py, Infinity, py);
    let count = 0;
    for (let k = 0; k < found; k++) {
      const crossing = segmentCrossing(xs, ys, segment[tree.found[k]!]!, px, py);
      if (crossing < 0) return -1;
      count += crossing;
    }
    return count;
  }

  /** As intersectingSegIndex: the first segment of `ring` that p lies on, relative to its start. */
  firstSegmentAt(ring: Ring, p: XY): number {
    const { tree, segment } = this;
    const found = tree.query(p[0], p[1], p[0], p[1]);
    let first = -1;
    for (let k = 0; k < found; k++) {
      const i = segment[tree.found[k]!]!;
      if (i >= ring.start && i < ring.end && (first < 0 || i < first) && onSegment(this.g, i, p)) first = i;
    }
    if (first < 0) throw new Error('segment vertex does not intersect ring'); // a bug: p was located on the ring
    return (p[0] === this.g.xs[first + 1] && p[1] === this.g.ys[first + 1] ? first + 1 : first) - ring.start;
  }
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

function same(g: Rings, i: number, p: XY): boolean {
  return g.xs[i] === p[0] && g.ys[i] === p[1];
}

/** Returns whether p lies on segment i → i + 1 (in its box, and collinear). */
function onSegment(g: Rings, i: number, p: XY): boolean {
  const { xs, ys } = g;
  const ax = xs[i]!;
  const ay = ys[i]!;
  const bx = xs[i + 1]!;
  const by = ys[i + 1]!;
  if (p[0] < Math.min(ax, bx) || p[0] > Math.max(ax, bx)) return false;
  if (p[1] < Math.min(ay, by) || p[1] > Math.max(ay, by)) return false;
  return orientation(ax, ay, bx, by, p[0], p[1]) === COLLINEAR;
}

/** Returns the first segment of `ring` that p lies on (the next one if p is its end point). */
function intersectingSegIndex(g: Rings, ring: Ring, p: XY): number {
  work.tests += ring.end - ring.start;
  for (let i = ring.start; i < ring.end; i++) {
    if (!onSegment(g, i, p)) continue;
    return (p[0] === g.xs[i + 1] && p[1] === g.ys[i + 1] ? i + 1 : i) - ring.start;
  }
  throw new Error('segment vertex does not intersect ring'); // a bug: p was located on the ring
}
