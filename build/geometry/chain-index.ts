// The chain pairs the x-sweep would meet, found through an R-tree instead,
// for features where many chains share an x-range (long horizontal teeth,
// columns of holes) and the sweep would meet nearly every chain from every
// other. Pairs come out in the sweep's own order (by the first chain's
// position, then the second's), so the first problem found, and the touches
// recorded before it, are the same as the sweep's.
import { BoxTree, grow, sortAscending } from './box-tree.ts';
import type { Chains } from './chains.ts';
import { work } from './limits.ts';
import type { Rings } from './rings.ts';

const SMALL_RING = 16; // segments: a ring this small is looked up once for all its chains

/**
 * Lists, for each chain in sweep order, the later chains that may meet it:
 * those with a segment whose box meets the chain's (or, where that finds too
 * many, one of its segments'). The tree holds segments, not chains: a
 * chain's box can hold far more than its segments come near (each turn of a
 * spiral holds the turns inside it). A pair of chains left out has no two
 * segments whose boxes meet, so the sweep found nothing there either.
 */
export class ChainIndex {
  private readonly tree: BoxTree;
  private readonly segmentChain: Int32Array; // per segment in the tree, its chain
  private readonly rank: Int32Array; // per chain, its position in sweep order
  private readonly seen: Int32Array; // per chain, 1 + the position that last listed it
  private readonly boxes: Float64Array; // per segment in the tree: minX, minY, maxX, maxY
  private later: Int32Array = new Int32Array(64);
  private count = 0;
  // The segments whose box meets the envelope of the last small ring asked
  // about: a small ring's chains mostly start at its westmost x, so they
  // come one after another in sweep order, and one query serves them all.
  private cachedRing = -1;
  private cache: Int32Array = new Int32Array(64);
  private cached = 0;
  private readonly xs: Float64Array;
  private readonly ys: Float64Array;

  constructor(
    private readonly chains: Chains,
    private readonly g: Rings,
  ) {
    const { xs, ys } = g;
    this.xs = xs;
    this.ys = ys;
    const { count, start, end, order } = chains;
    let segments = 0;
    for (let c = 0; c < count; c++) segments += end[c]! - start[c]!;
    const boxes = new Float64Array(4 * segments);
    this.segmentChain = new Int32Array(segments);
    let k = 0;
    for (let c = 0; c < count; c++) {
      for (let s = start[c]!; s < end[c]!; s++, k++) {
        const ax = xs[s]!;
        const bx = xs[s + 1]!;
        const ay = ys[s]!;
        const by = ys[s + 1]!;
        boxes[4 * k] = ax < bx ? ax : bx;
        boxes[4 * k + 1] = ay < by ? ay : by;
        boxes[4 * k + 2] = ax < bx ? bx : ax;
        boxes[4 * k + 3] = ay < by ? by : ay;
        this.segmentChain[k] = c;
      }
    }
    this.boxes = boxes;
    this.tree = new BoxTree(boxes);
    this.rank = new Int32Array(count);
    for (let a = 0; a < count; a++) this.rank[order[a]!] = a;
    this.seen = new Int32Array(count);
  }

  /**
   * Returns how many chains after position `a` in sweep order have a segment
   * whose box meets the box of chain order[a] (or of one of its segments);
   * their positions, ascending, in `positions()[0…count)` (valid until the
   * next call).
   */
  laterOverlaps(a: number): number {
    const chain = this.chains.order[a]!;
    const from = this.chains.start[chain]!;
    const to = this.chains.end[chain]!;
    this.count = 0;
    const ring = this.chains.ring[chain]!;
    const { start, end } = this.g.rings[ring]!;
    if (end - start <= SMALL_RING) {
      this.collectCached(a, ring, from, to);
    } else if (this.collect(a, from, to, to - from === 1 ? Infinity : 8 + 4 * (to - from)) < 0) {
      // One query with the chain's box finds what its segments' would, and
      // some more; where it finds many more (a chain's box holding the turns
      // inside a spiral), each segment asks on its own.
      for (let s = from; s < to; s++) this.collect(a, s, s + 1, Infinity);
    }
    sortAscending(this.later, this.count);
    return this.count;
  }

  /** As collect() for the chain of points from…to of a small ring: from the segments around the ring, those whose box meets the chain's. */
  private collectCached(a: number, ring: number, from: number, to: number): void {
    const { tree, boxes, xs, ys } = this;
    if (this.cachedRing !== ring) {
      const r = this.g.rings[ring]!;
      const found = tree.query(r.minX, r.minY, r.maxX, r.maxY);
      while (this.cache.length < found) this.cache = grow(this.cache);
      for (let k = 0; k < found; k++) this.cache[k] = tree.found[k]!;
      this.cached = found;
      this.cachedRing = ring;
    }
    work.tests += this.cached;
    const x0 = Math.min(xs[from]!, xs[to]!);
    const y0 = Math.min(ys[from]!, ys[to]!);
    const x1 = Math.max(xs[from]!, xs[to]!);
    const y1 = Math.max(ys[from]!, ys[to]!);
    for (let k = 0; k < this.cached; k++) {
      const item = this.cache[k]!;
      if (
        boxes[4 * item]! > x1 ||
        boxes[4 * item + 1]! > y1 ||
        boxes[4 * item + 2]! < x0 ||
        boxes[4 * item + 3]! < y0
      )
        continue;
      this.add(a, this.segmentChain[item]!);
    }
  }

  /** Adds the chains after `a` with a segment whose box meets that of points s…e (monotone: their ends' box); -1 if over `limit`. */
  private collect(a: number, s: number, e: number, limit: number): number {
    const { tree, segmentChain, xs, ys } = this;
    const found = tree.query(
      Math.min(xs[s]!, xs[e]!),
      Math.min(ys[s]!, ys[e]!),
      Math.max(xs[s]!, xs[e]!),
      Math.max(ys[s]!, ys[e]!),
      limit,
    );
    for (let k = 0; k < found; k++) this.add(a, segmentChain[tree.found[k]!]!);
    return found;
  }

  /** Lists chain c if it comes after position a and is not listed yet. */
  private add(a: number, c: number): void {
    const b = this.rank[c]!;
    if (b <= a || this.seen[c] === a + 1) return;
    this.seen[c] = a + 1;
    if (this.count === this.later.length) this.later = grow(this.later);
    this.later[this.count++] = b;
  }

  /** The positions the last laterOverlaps() found. */
  positions(): Int32Array {
    return this.later;
  }
}
