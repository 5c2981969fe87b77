// Which edges of a level's units are shared: the topology of a coverage as
// GEOS's CoverageValidator sees it. Two segments match when they join the
// same two points, exactly, in opposite directions (each unit's interior on
// its left: outer rings counter-clockwise, holes clockwise, as
// build/identity/shape.ts winds them), and no third segment joins those
// points. A level that is a clean coverage has every segment matched but
// those on the outline of its union. One hash table over the segments'
// endpoints, no geometry: linear in the level's size.
import type { Shape } from '../identity/shape.ts';

/** The segments of a level's units, numbered unit by unit, ring by ring, and their twins. */
export interface CoverageEdges {
  // Unit u's segments are first[u] … first[u + 1] − 1 (a unit without a shape has none).
  first: Int32Array;
  // Segment s of unit u runs from point `start[s]` of u's shape.xy to the next point.
  start: Int32Array;
  unit: Int32Array; // the unit of segment s
  // The segment of a neighbour (or of the same unit) running the other way between
  // the same two points, or −1 when the segment is unmatched: on the union's
  // outline, or a defect (an overlap, a gap, an edge that does not match).
  twin: Int32Array;
}

/** Returns the segments of `shapes` (one per unit, undefined for a unit without area) and their twins. */
export function coverageEdges(shapes: (Shape | undefined)[]): CoverageEdges {
  const first = new Int32Array(shapes.length + 1);
  for (let u = 0; u < shapes.length; u++) first[u + 1] = first[u]! + (shapes[u]?.segs.length ?? 0);
  const n = first[shapes.length]!;
  const start = new Int32Array(n);
  const unit = new Int32Array(n);
  for (let u = 0; u < shapes.length; u++) {
    const segs = shapes[u]?.segs;
    if (!segs) continue;
    start.set(segs, first[u]!);
    unit.fill(u, first[u]!, first[u + 1]!);
  }
  const twin = new Int32Array(n).fill(-1);
  const table = new SegmentTable(n, twin);
  for (let u = 0; u < shapes.length; u++) {
    const shape = shapes[u];
    if (shape) table.match(shape.xy, shape.segs, first[u]!);
  }
  return { first, start, unit, twin };
}

/**
 * An open-addressing hash table of segments by their two endpoints, in
 * either order, that pairs each segment with the one running the other way
 * between the same two points: twin[s] for both, unless a third segment
 * joins them too (or a second runs the same way), then −1 for all.
 */
class SegmentTable {
  private readonly slots: Int32Array;
  private readonly coords: Float64Array; // 4 per stored segment: its points, the lesser first
  private readonly swapped: Uint8Array; // 1 when the segment runs from the greater point
  private readonly count: Int32Array; // per stored segment: how many segments join its two points
  private readonly mask: number;

  constructor(
    capacity: number,
    private readonly twin: Int32Array,
  ) {
    let size = 16;
    while (size < 2 * capacity) size *= 2;
    this.slots = new Int32Array(size).fill(-1);
    this.coords = new Float64Array(4 * Math.max(1, capacity));
    this.swapped = new Uint8Array(Math.max(1, capacity));
    this.count = new Int32Array(Math.max(1, capacity));
    this.mask = size - 1;
  }

  /** Adds the segments of one shape (its points `xy`, its segments' first points `segs`), numbered from `first`. */
  match(xy: Float64Array, segs: Int32Array, first: number): void {
    const { slots, coords, swapped, count, twin, mask } = this;
    for (let k = 0; k < segs.length; k++) {
      const s = first + k;
      const i = 2 * segs[k]!;
      const ax = xy[i]!;
      const ay = xy[i + 1]!;
      const bx = xy[i + 2]!;
      const by = xy[i + 3]!;
      const swap = bx < ax || (bx === ax && by < ay);
      const x1 = swap ? bx : ax;
      const y1 = swap ? by : ay;
      const x2 = swap ? ax : bx;
      const y2 = swap ? ay : by;
      // Degrees × 1e7 as integers: equal points hash alike (−0 as 0), near ones may share a slot.
      let h = Math.imul((x1 * 1e7) | 0, 0x9e3779b1);
      h = Math.imul(h ^ ((y1 * 1e7) | 0), 0x85ebca77);
      h = Math.imul(h ^ ((x2 * 1e7) | 0), 0xc2b2ae3d);
      h = Math.imul(h ^ ((y2 * 1e7) | 0), 0x27d4eb2f);
      let slot = (h ^ (h >>> 15)) & mask;
      let t = slots[slot]!;
      while (t >= 0) {
        if (coords[4 * t] === x1 && coords[4 * t + 1] === y1 && coords[4 * t + 2] === x2 && coords[4 * t + 3] === y2) break;
        slot = (slot + 1) & mask;
        t = slots[slot]!;
      }
      if (t < 0) {
        slots[slot] = s;
        coords[4 * s] = x1;
        coords[4 * s + 1] = y1;
        coords[4 * s + 2] = x2;
        coords[4 * s + 3] = y2;
        swapped[s] = swap ? 1 : 0;
        count[s] = 1;
      } else if (++count[t]! === 2 && swapped[t] !== (swap ? 1 : 0)) {
        twin[t] = s;
        twin[s] = t;
      } else if (twin[t]! >= 0) {
        // A third segment on the same two points (or a second one running the same way): none match.
        twin[twin[t]!] = -1;
        twin[t] = -1;
      }
    }
  }
}
