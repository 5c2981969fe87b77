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
  const table = new SegmentTable(n);
  const count = new Int32Array(n); // at a head: how many segments join its two points
  for (let s = 0; s < n; s++) {
    const xy = shapes[unit[s]!]!.xy;
    const i = 2 * start[s]!;
    const h = table.findOrAdd(s, xy[i]!, xy[i + 1]!, xy[i + 2]!, xy[i + 3]!);
    if (h === s) {
      count[s] = 1;
      continue;
    }
    if (++count[h]! === 2 && !sameDirection(shapes, unit, start, h, s)) {
      twin[h] = s;
      twin[s] = h;
    } else if (twin[h]! >= 0) {
      // A third segment on the same two points (or a second one running the same way): none match.
      twin[twin[h]!] = -1;
      twin[h] = -1;
    }
  }
  return { first, start, unit, twin };
}

function sameDirection(
  shapes: (Shape | undefined)[],
  unit: Int32Array,
  start: Int32Array,
  a: number,
  b: number,
): boolean {
  const p = shapes[unit[a]!]!.xy;
  const q = shapes[unit[b]!]!.xy;
  const i = 2 * start[a]!;
  const j = 2 * start[b]!;
  return p[i] === q[j] && p[i + 1] === q[j + 1];
}

/**
 * An open-addressing hash table of segments by their two endpoints, in
 * either order: `findOrAdd` returns the segment already stored with the same
 * two points, or stores and returns the one given.
 */
class SegmentTable {
  private readonly slots: Int32Array;
  private readonly coords: Float64Array; // 4 per stored segment: its points, the lesser first
  private readonly mask: number;
  private readonly bits = new Float64Array(1);
  private readonly words = new Int32Array(this.bits.buffer);

  constructor(capacity: number) {
    let size = 16;
    while (size < 2 * capacity) size *= 2;
    this.slots = new Int32Array(size).fill(-1);
    this.coords = new Float64Array(4 * Math.max(1, capacity));
    this.mask = size - 1;
  }

  findOrAdd(s: number, ax: number, ay: number, bx: number, by: number): number {
    const swap = bx < ax || (bx === ax && by < ay);
    const x1 = swap ? bx : ax;
    const y1 = swap ? by : ay;
    const x2 = swap ? ax : bx;
    const y2 = swap ? ay : by;
    let slot = (this.mix(this.mix(this.mix(this.mix(0x9e3779b9, x1), y1), x2), y2) >>> 0) & this.mask;
    const c = this.coords;
    for (;;) {
      const t = this.slots[slot]!;
      if (t < 0) {
        this.slots[slot] = s;
        c[4 * s] = x1;
        c[4 * s + 1] = y1;
        c[4 * s + 2] = x2;
        c[4 * s + 3] = y2;
        return s;
      }
      if (c[4 * t] === x1 && c[4 * t + 1] === y1 && c[4 * t + 2] === x2 && c[4 * t + 3] === y2) return t;
      slot = (slot + 1) & this.mask;
    }
  }

  /** Mixes the bits of `v` into hash `h` (−0 and 0 hash alike, as they compare equal). */
  private mix(h: number, v: number): number {
    this.bits[0] = v === 0 ? 0 : v;
    h = Math.imul(h ^ this.words[0]!, 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13) ^ this.words[1]!, 0xc2b2ae35);
    return h ^ (h >>> 16);
  }
}
