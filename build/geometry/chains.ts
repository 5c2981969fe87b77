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
  minX: Float64Array;
  minY: Float64Array;
  maxX: Float64Array;
  maxY: Float64Array;
  order: Uint32Array; // chain indices sorted by minX
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
    minX: new Float64Array(n),
    minY: new Float64Array(n),
    maxX: new Float64Array(n),
    maxY: new Float64Array(n),
    order: new Uint32Array(n),
  };
}

/** Returns the monotone chains of every ring, and their order by minX (valid until the next call). */
export function buildChains(g: Rings): Chains {
  const { xs, ys, rings } = g;
  if (pool.start.length < xs.length) pool = allocate(Math.max(xs.length, 2 * pool.start.length));
  const c = pool;
  const { start, end, ring: ringOf, minX, maxX, minY, maxY, order } = c;
  let n = 0;
  for (let r = 0; r < rings.length; r++) {
    const ring = rings[r]!;
    let from = ring.start;
    let q = quadrant(xs[from + 1]! - xs[from]!, ys[from + 1]! - ys[from]!);
    for (let i = from + 1; i <= ring.end; i++) {
      // The quadrant of segment i → i+1, inline (0 NE, 1 NW, 2 SW, 3 SE); the ring's end closes the last chain.
      let next = -1;
      if (i < ring.end) {
        const dx = xs[i + 1]! - xs[i]!;
        const dy = ys[i + 1]! - ys[i]!;
        next = dx >= 0 ? (dy >= 0 ? 0 : 3) : dy >= 0 ? 1 : 2;
        if (next === q) continue;
      }
      start[n] = from;
      end[n] = i;
      ringOf[n] = r;
      const ax = xs[from]!;
      const bx = xs[i]!;
      const ay = ys[from]!;
      const by = ys[i]!;
      minX[n] = ax < bx ? ax : bx;
      maxX[n] = ax < bx ? bx : ax;
      minY[n] = ay < by ? ay : by;
      maxY[n] = ay < by ? by : ay;
      order[n] = n;
      n++;
      from = i;
      q = next;
    }
  }
  c.count = n;
  order.subarray(0, n).sort((a, b) => minX[a]! - minX[b]!);
  return c;
}
