// The chain pairs the x-sweep would meet, found through an R-tree instead,
// for features where many chains share an x-range (long horizontal teeth,
// columns of holes) and the sweep would meet nearly every chain from every
// other. Pairs come out in the sweep's own order (by the first chain's
// position, then the second's), so the first problem found, and the touches
// recorded before it, are the same as the sweep's.
import { BoxTree, grow, sortAscending } from './box-tree.ts';
import type { Chains } from './chains.ts';

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
  private later: Int32Array = new Int32Array(64);
  private count = 0;

  constructor(
    private readonly chains: Chains,
    private readonly xs: Float64Array,
    private readonly ys: Float64Array,
  ) {
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
    this.tree = new BoxTree(boxes);
    this.rank = new Int32Array(count);
    for (let a = 0; a < count; a++) this.rank[order[a]!] = a;
    this.seen = new Int32Array(count);
  }

  /**
   * Returns how many chains after position `a` in sweep order have a piece
   * whose box meets one of chain order[a]'s; their positions, ascending, in
   * `positions()[0…count)` (valid until the next call).
   */
  laterOverlaps(a: number): number {
    const chain = this.chains.order[a]!;
    const from = this.chains.start[chain]!;
    const to = this.chains.end[chain]!;
    this.count = 0;
    // One query with the chain's box finds what its segments' would, and
    // some more; where it finds many more (a chain's box holding the turns
    // inside a spiral), each segment asks on its own.
    if (this.collect(a, from, to, to - from === 1 ? Infinity : 8 + 4 * (to - from)) < 0) {
      for (let s = from; s < to; s++) this.collect(a, s, s + 1, Infinity);
    }
    sortAscending(this.later, this.count);
    return this.count;
  }

  /** Adds the chains after `a` with a segment whose box meets that of points s…e (monotone: their ends' box); -1 if over `limit`. */
  private collect(a: number, s: number, e: number, limit: number): number {
    const { tree, segmentChain, rank, seen, xs, ys } = this;
    const found = tree.query(
      Math.min(xs[s]!, xs[e]!),
      Math.min(ys[s]!, ys[e]!),
      Math.max(xs[s]!, xs[e]!),
      Math.max(ys[s]!, ys[e]!),
      limit,
    );
    for (let k = 0; k < found; k++) {
      const c = segmentChain[tree.found[k]!]!;
      const b = rank[c]!;
      if (b <= a || seen[c] === a + 1) continue;
      seen[c] = a + 1;
      if (this.count === this.later.length) this.later = grow(this.later);
      this.later[this.count++] = b;
    }
    return found;
  }

  /** The positions the last laterOverlaps() found. */
  positions(): Int32Array {
    return this.later;
  }
}
