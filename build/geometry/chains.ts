// Monotone chains: maximal runs of a ring's segments that all head into the
// same quadrant. Two segments of one chain never meet except at a shared
// end (the run only moves forward in x and y), so only pairs of chains need
// testing, and a run's envelope is the box of its two end points.
import { quadrant } from './orientation.ts';
import type { Rings } from './rings.ts';

export interface Chains {
  count: number;
  start: Int32Array; // index of the chain's first point
  end: Int32Array; // index of its last point
  ring: Int32Array; // index in Rings.rings
  quadrant: Uint8Array; // the quadrant all its segments head into (0 NE, 1 NW, 2 SW, 3 SE)
  minX: Float64Array;
  minY: Float64Array;
  maxX: Float64Array;
  maxY: Float64Array;
  order: Uint32Array; // chain indices ordered by the bucket of their minX
  bucket: Int32Array; // per chain, the bucket of its minX
  bucketEnd: Int32Array; // per bucket, the position in `order` after its last chain
  // The envelopes again in `order` (sortedMinX[k] is chain order[k]'s), so
  // the sweep reads them one after another rather than through `order`.
  sortedMinX: Float64Array;
  sortedMaxX: Float64Array;
  sortedMinY: Float64Array;
  sortedMaxY: Float64Array;
  bucketMin: number; // bucket k holds minX in [bucketMin + k·bucketWidth, … + bucketWidth)
  bucketWidth: number; // 0 when every minX is the same (one bucket)
  buckets: number;
}

/** Returns the bucket of x (clamped to the buckets there are). */
export function bucketOf(c: Chains, x: number): number {
  if (c.bucketWidth === 0) return 0;
  const k = Math.floor((x - c.bucketMin) / c.bucketWidth);
  return k < 0 ? 0 : k >= c.buckets ? c.buckets - 1 : k;
}

// Reused from feature to feature (one thread checks one feature at a time):
// allocating per feature made garbage collection a tenth of the run.
let pool: Chains = allocate(1024);

function allocate(n: number): Chains {
  return {
    count: 0,
    start: new Int32Array(n),
    end: new Int32Array(n),
    ring: new Int32Array(n),
    quadrant: new Uint8Array(n),
    minX: new Float64Array(n),
    minY: new Float64Array(n),
    maxX: new Float64Array(n),
    maxY: new Float64Array(n),
    order: new Uint32Array(n),
    bucket: new Int32Array(n),
    bucketEnd: new Int32Array(n + 1),
    sortedMinX: new Float64Array(n),
    sortedMaxX: new Float64Array(n),
    sortedMinY: new Float64Array(n),
    sortedMaxY: new Float64Array(n),
    bucketMin: 0,
    bucketWidth: 0,
    buckets: 1,
  };
}

/** Returns the monotone chains of every ring, and their order by minX (valid until the next call). */
export function buildChains(g: Rings): Chains {
  const { xs, ys, rings } = g;
  if (pool.start.length < xs.length) pool = allocate(Math.max(xs.length, 2 * pool.start.length));
  const c = pool;
  const { start, end, ring: ringOf, quadrant: quadrantOf, minX, maxX, minY, maxY } = c;
  let n = 0;
  for (let r = 0; r < rings.length; r++) {
    const ring = rings[r]!;
    let from = ring.start;
    let q = quadrant(xs[from + 1]! - xs[from]!, ys[from + 1]! - ys[from]!);
    for (let i = from + 1; i <= ring.end; i++) {
      // The quadrant of segment i → i+1, inline and without branches, which
      // the CPU cannot predict on a jagged ring (0 NE, 1 NW, 2 SW, 3 SE, as
      // quadrant(); coordinates are finite here); the ring's end closes the last chain.
      let next = -1;
      if (i < ring.end) {
        const west = +(xs[i + 1]! - xs[i]! < 0);
        const south = +(ys[i + 1]! - ys[i]! < 0);
        next = (west ^ south) + 2 * south;
        if (next === q) continue;
      }
      start[n] = from;
      end[n] = i;
      ringOf[n] = r;
      quadrantOf[n] = q;
      const ax = xs[from]!;
      const bx = xs[i]!;
      const ay = ys[from]!;
      const by = ys[i]!;
      minX[n] = ax < bx ? ax : bx;
      maxX[n] = ax < bx ? bx : ax;
      minY[n] = ay < by ? ay : by;
      maxY[n] = ay < by ? by : ay;
      n++;
      from = i;
      q = next;
    }
  }
  c.count = n;
  orderByBuckets(c, n);
  return c;
}

/**
 * Orders the chains by minX in about as many buckets as chains (a counting
 * sort, O(n)): a comparison sort was a large share of the whole check. The sweep
 * scans from each chain to the bucket of its maxX and tests the exact
 * envelopes, so every overlapping pair is still met once (from the one that
 * comes first).
 */
function orderByBuckets(c: Chains, n: number): void {
  const { minX, maxX, minY, maxY, order, bucket, bucketEnd: counts } = c;
  const { sortedMinX, sortedMaxX, sortedMinY, sortedMaxY } = c;
  let lo = Infinity;
  let hi = -Infinity;
  for (let k = 0; k < n; k++) {
    const x = minX[k]!;
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  c.buckets = Math.max(1, n);
  c.bucketMin = lo;
  c.bucketWidth = hi > lo ? (hi - lo) / c.buckets : 0;
  // counts[b + 1] is first bucket b's size; after the running sum counts[b]
  // is where bucket b's next chain goes, and once all are placed, where
  // bucket b ends (bucketEnd).
  counts.fill(0, 0, c.buckets + 1);
  for (let k = 0; k < n; k++) {
    const b = bucketOf(c, minX[k]!);
    bucket[k] = b;
    counts[b + 1]!++;
  }
  for (let b = 1; b <= c.buckets; b++) counts[b]! += counts[b - 1]!;
  for (let k = 0; k < n; k++) {
    const at = counts[bucket[k]!]!++;
    order[at] = k;
    sortedMinX[at] = minX[k]!;
    sortedMaxX[at] = maxX[k]!;
    sortedMinY[at] = minY[k]!;
    sortedMaxY[at] = maxY[k]!;
  }
}
