// Where a level's unmatched segments (build/coverage/edges.ts) meet, for the
// arrangement (arrangement.ts): the points inside a segment where it must be
// split, and which segment ends are nodes of the arrangement (more than a
// ring's two consecutive segments meet there). Segments come ring by ring, so
// consecutive ones that join end to start and head into the same quadrant
// form monotone chains, as GEOS's MCIndexNoder cuts them: two segments of one
// chain never meet but where one ends and the next starts, so only chains are
// indexed, and a pair of chains is bisected down to the pairs of segments
// whose boxes meet. A coastline of 67,785 segments is 22,513 chains.
import { orient2d } from 'robust-predicates';
import { BoxTree } from '../geometry/box-tree.ts';
import { intersect } from '../geometry/intersections.ts';
import { quadrant } from '../geometry/orientation.ts';

/** A level's unmatched segments, flat: segment k runs (xy[4k], xy[4k+1]) → (xy[4k+2], xy[4k+3]) with unit[k]'s interior on its left. */
export interface Segments {
  xy: Float64Array;
  unit: Int32Array;
}

/** Flags of Noding.node: the segment's start, or its end, is a node. */
export const START = 1;
export const END = 2;

/** How the segments meet. */
export interface Noding {
  joined: Uint8Array; // 1 when segment k ends where k + 1 starts, in the same unit (its ring's next segment)
  node: Uint8Array; // START | END: that end of segment k is a node (anything but k − 1 or k + 1 meets it there)
  cuts: (number[] | undefined)[]; // x, y, … of the points inside segment k where it is split, unordered
}

/** Returns where `segments` meet: what splits each, and which of their ends are nodes. */
export function nodeSegments(segments: Segments): Noding {
  const noder = new Noder(segments);
  const chains = noder.chains();
  const c = chains.length - 1;
  const boxes = new Float64Array(4 * c);
  const xy = segments.xy;
  for (let i = 0; i < c; i++) {
    // A monotone chain's box is that of its first and last points.
    const a = 4 * chains[i]!;
    const b = 4 * chains[i + 1]! - 2;
    boxes[4 * i] = Math.min(xy[a]!, xy[b]!);
    boxes[4 * i + 1] = Math.min(xy[a + 1]!, xy[b + 1]!);
    boxes[4 * i + 2] = Math.max(xy[a]!, xy[b]!);
    boxes[4 * i + 3] = Math.max(xy[a + 1]!, xy[b + 1]!);
  }
  const tree = new BoxTree(boxes);
  for (let i = 0; i < c; i++) {
    const count = tree.query(boxes[4 * i]!, boxes[4 * i + 1]!, boxes[4 * i + 2]!, boxes[4 * i + 3]!);
    for (let f = 0; f < count; f++) {
      const j = tree.found[f]!; // valid until the next query: overlap() makes none
      if (j <= i || (j === i + 1 && noder.meetAtJoint(chains[j]!))) continue;
      noder.overlap(chains[i]!, chains[i + 1]!, chains[j]!, chains[j + 1]!);
    }
  }
  return { joined: noder.joined, node: noder.node, cuts: noder.cuts };
}

class Noder {
  readonly joined: Uint8Array;
  readonly node: Uint8Array;
  readonly cuts: (number[] | undefined)[];
  private readonly xy: Float64Array;

  constructor(segments: Segments) {
    const { xy, unit } = segments;
    const m = unit.length;
    this.xy = xy;
    this.joined = new Uint8Array(m);
    this.node = new Uint8Array(m);
    this.cuts = new Array(m);
    for (let k = 0; k + 1 < m; k++) {
      const same = unit[k] === unit[k + 1] && xy[4 * k + 2] === xy[4 * k + 4] && xy[4 * k + 3] === xy[4 * k + 5];
      this.joined[k] = same ? 1 : 0;
    }
  }

  /** Returns the first segment of each monotone chain, and the segment count last. */
  chains(): Int32Array {
    const { xy, joined } = this;
    const m = joined.length;
    const first: number[] = [];
    let q = -1;
    for (let k = 0; k < m; k++) {
      const dx = xy[4 * k + 2]! - xy[4 * k]!;
      const dy = xy[4 * k + 3]! - xy[4 * k + 1]!;
      // A segment of no length (shapes have none) is a chain of its own.
      const r = dx === 0 && dy === 0 ? -1 : quadrant(dx, dy);
      if (k === 0 || joined[k - 1] === 0 || r !== q || r < 0) first.push(k);
      q = r;
    }
    first.push(m);
    return Int32Array.from(first);
  }

  /**
   * Whether the chain ending with segment k − 1 and the next, starting with
   * segment k, meet only where one ends and the other starts: they follow
   * one another along a ring, head into neighbouring quadrants (NE then NW
   * keeps the second above the joint, the first below it) and do not run
   * straight back along an axis there (a spike). Half of all pairs of chains.
   */
  meetAtJoint(k: number): boolean {
    const { xy } = this;
    if (this.joined[k - 1] === 0) return false;
    const p = 4 * (k - 1);
    const q = 4 * k;
    const a = quadrant(xy[p + 2]! - xy[p]!, xy[p + 3]! - xy[p + 1]!);
    const b = quadrant(xy[q + 2]! - xy[q]!, xy[q + 3]! - xy[q + 1]!);
    if (((a - b) & 1) === 0) return false; // the same quadrant (a segment of no length), or opposite ones
    return orient2d(xy[p]!, xy[p + 1]!, xy[p + 2]!, xy[p + 3]!, xy[q + 2]!, xy[q + 3]!) !== 0;
  }

  /** Tests the segments [a0, a1) of one monotone chain against [b0, b1) of another, halving the longer while their boxes meet. */
  overlap(a0: number, a1: number, b0: number, b1: number): void {
    const xy = this.xy;
    const ax = xy[4 * a0]!;
    const ay = xy[4 * a0 + 1]!;
    const ex = xy[4 * a1 - 2]!;
    const ey = xy[4 * a1 - 1]!;
    const bx = xy[4 * b0]!;
    const by = xy[4 * b0 + 1]!;
    const fx = xy[4 * b1 - 2]!;
    const fy = xy[4 * b1 - 1]!;
    if (Math.max(ax, ex) < Math.min(bx, fx) || Math.min(ax, ex) > Math.max(bx, fx)) return;
    if (Math.max(ay, ey) < Math.min(by, fy) || Math.min(ay, ey) > Math.max(by, fy)) return;
    if (a1 - a0 === 1 && b1 - b0 === 1) {
      if (a0 < b0) this.pair(a0, b0);
      else this.pair(b0, a0);
    } else if (a1 - a0 >= b1 - b0) {
      const mid = (a0 + a1) >> 1;
      this.overlap(a0, mid, b0, b1);
      this.overlap(mid, a1, b0, b1);
    } else {
      const mid = (b0 + b1) >> 1;
      this.overlap(a0, a1, b0, mid);
      this.overlap(a0, a1, mid, b1);
    }
  }

  /** Splits segments k < j where they meet, and marks the ends they share as nodes. */
  private pair(k: number, j: number): void {
    const { xy, node } = this;
    const sx1 = xy[4 * k]!;
    const sy1 = xy[4 * k + 1]!;
    const sx2 = xy[4 * k + 2]!;
    const sy2 = xy[4 * k + 3]!;
    const tx1 = xy[4 * j]!;
    const ty1 = xy[4 * j + 1]!;
    const tx2 = xy[4 * j + 2]!;
    const ty2 = xy[4 * j + 3]!;
    const s1t1 = sx1 === tx1 && sy1 === ty1;
    const s1t2 = sx1 === tx2 && sy1 === ty2;
    const s2t1 = sx2 === tx1 && sy2 === ty1;
    const s2t2 = sx2 === tx2 && sy2 === ty2;
    if (s1t1 || s1t2 || s2t1 || s2t2) {
      // Sharing an end, and the far end of t off s's line: they meet there only.
      const far = s1t1 || s2t1;
      if (orient2d(sx1, sy1, sx2, sy2, far ? tx2 : tx1, far ? ty2 : ty1) !== 0) {
        if (j === k + 1 && this.joined[k] === 1) return; // a ring's next segment: no node
        node[k]! |= (s1t1 || s1t2 ? START : 0) | (s2t1 || s2t2 ? END : 0);
        node[j]! |= (s1t1 || s2t1 ? START : 0) | (s1t2 || s2t2 ? END : 0);
        return;
      }
    }
    const hit = intersect(sx1, sy1, sx2, sy2, tx1, ty1, tx2, ty2);
    if (!hit) return;
    // They cross, touch or overlap: every end of both is a node (more than needed, and rare).
    node[k] = node[j] = START | END;
    if (hit.count === 2) {
      // Collinear: each endpoint of one inside the other splits it.
      this.cutIfInside(k, tx1, ty1);
      this.cutIfInside(k, tx2, ty2);
      this.cutIfInside(j, sx1, sy1);
      this.cutIfInside(j, sx2, sy2);
    } else {
      this.cutIfInside(k, hit.at[0], hit.at[1]);
      this.cutIfInside(j, hit.at[0], hit.at[1]);
    }
  }

  /** Adds (x, y) to the cuts of segment k when it is not an endpoint of it (the intersector found it on k). */
  private cutIfInside(k: number, x: number, y: number): void {
    const xy = this.xy;
    const x1 = xy[4 * k]!;
    const y1 = xy[4 * k + 1]!;
    const x2 = xy[4 * k + 2]!;
    const y2 = xy[4 * k + 3]!;
    if ((x === x1 && y === y1) || (x === x2 && y === y2)) return;
    if (x < Math.min(x1, x2) || x > Math.max(x1, x2)) return;
    if (y < Math.min(y1, y2) || y > Math.max(y1, y2)) return;
    (this.cuts[k] ??= []).push(x, y);
  }
}
