// Monotone chains: maximal runs of a ring's segments that all head into the
// same quadrant. Two segments of one chain never meet except at a shared
// end (the run only moves forward in x and y), so only pairs of chains need
// testing, and a run's envelope is the box of its two end points.
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
  ends: Float64Array; // scratch: a chain's end coordinates, to pick its envelope from
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
    ends: new Float64Array(4),
  };
}

/** Returns the monotone chains of every ring, and their order by minX (valid until the next call). */
export function buildChains(g: Rings): Chains {
  const { xs, ys, rings } = g;
  if (pool.start.length < xs.length) pool = allocate(Math.max(xs.length, 2 * pool.start.length));
  const c = pool;
  const { start, end, ring: ringOf, quadrant: quadrantOf, minX, maxX, minY, maxY } = c;
  const ends = pool.ends;
  let n = 0;
  let lo = Infinity; // the least and greatest minX, for the buckets
  let hi = -Infinity;
  for (let r = 0; r < rings.length; r++) {
    const ring = rings[r]!;
    const first = n;
    // Where the ring's chains end: at each point whose next segment heads into
    // another quadrant, and at the ring's end. Written without branches (a
    // jagged ring turns at about every other point, which the CPU cannot
    // predict): the current chain's end is written at every point, and n moves
    // on only where the quadrant changes. Quadrants as quadrant() in ./orientation.ts (0 NE, 1 NW,
    // 2 SW, 3 SE; coordinates are finite here).
    let west = +(xs[ring.start + 1]! - xs[ring.start]! < 0);
    let south = +(ys[ring.start + 1]! - ys[ring.start]! < 0);
    let q = (west ^ south) + 2 * south;
    for (let i = ring.start + 1; i < ring.end; i++) {
      west = +(xs[i + 1]! - xs[i]! < 0);
      south = +(ys[i + 1]! - ys[i]! < 0);
      const next = (west ^ south) + 2 * south;
      end[n] = i;
      n += +(next !== q);
      q = next;
    }
    end[n++] = ring.end;
    // Each chain starts where the one before ends; it heads where its first segment does.
    let from = ring.start;
    for (let k = first; k < n; k++) {
      const to = end[k]!;
      start[k] = from;
      ringOf[k] = r;
      const ax = xs[from]!;
      const ay = ys[from]!;
      const w = +(xs[from + 1]! - ax < 0);
      const s = +(ys[from + 1]! - ay < 0);
      quadrantOf[k] = (w ^ s) + 2 * s;
      // The envelope is the box of the two ends, picked by direction rather
      // than compared (the same values: x only falls going west, y going south).
      ends[0] = ax;
      ends[1] = xs[to]!;
      ends[2] = ay;
      ends[3] = ys[to]!;
      const x0 = ends[w]!;
      minX[k] = x0;
      maxX[k] = ends[1 - w]!;
      if (x0 < lo) lo = x0;
      if (x0 > hi) hi = x0;
      minY[k] = ends[2 + s]!;
      maxY[k] = ends[3 - s]!;
      from = to;
    }
  }
  c.count = n;
  orderByBuckets(c, n, lo, hi);
  return c;
}

/**
 * Orders the chains by minX in about as many buckets as chains (a counting
 * sort, O(n)): a comparison sort was a large share of the whole check. The sweep
 * scans from each chain to the bucket of its maxX and tests the exact
 * envelopes, so every overlapping pair is still met once (from the one that
 * comes first).
 */
function orderByBuckets(c: Chains, n: number, lo: number, hi: number): void {
  const { minX, maxX, minY, maxY, order, bucket, bucketEnd: counts } = c;
  const { sortedMinX, sortedMaxX, sortedMinY, sortedMaxY } = c;
  const buckets = Math.max(1, n);
  const width = hi > lo ? (hi - lo) / buckets : 0;
  c.buckets = buckets;
  c.bucketMin = lo;
  c.bucketWidth = width;
  // counts[b + 1] is first bucket b's size; after the running sum counts[b]
  // is where bucket b's next chain goes, and once all are placed, where
  // bucket b ends (bucketEnd).
  counts.fill(0, 0, buckets + 1);
  for (let k = 0; k < n; k++) {
    // bucketOf(c, minX[k]), written out
    let b = width === 0 ? 0 : Math.floor((minX[k]! - lo) / width);
    if (b >= buckets) b = buckets - 1;
    bucket[k] = b;
    counts[b + 1]!++;
  }
  for (let b = 1; b <= buckets; b++) counts[b]! += counts[b - 1]!;
  for (let k = 0; k < n; k++) {
    const at = counts[bucket[k]!]!++;
    order[at] = k;
    sortedMinX[at] = minX[k]!;
    sortedMaxX[at] = maxX[k]!;
    sortedMinY[at] = minY[k]!;
    sortedMaxY[at] = maxY[k]!;
  }
}
