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
  let n = 0;
  const add = (from: number, to: number, r: number) => {
    c.start[n] = from;
    c.end[n] = to;
    c.ring[n] = r;
    const ax = xs[from]!;
    const bx = xs[to]!;
    const ay = ys[from]!;
    const by = ys[to]!;
    c.minX[n] = ax < bx ? ax : bx;
    c.maxX[n] = ax < bx ? bx : ax;
    c.minY[n] = ay < by ? ay : by;
    c.maxY[n] = ay < by ? by : ay;
    c.order[n] = n;
    n++;
  };
  for (let r = 0; r < rings.length; r++) {
    const ring = rings[r]!;
    let from = ring.start;
    let q = quadrant(xs[from + 1]! - xs[from]!, ys[from + 1]! - ys[from]!);
    for (let i = from + 1; i < ring.end; i++) {
      const next = quadrant(xs[i + 1]! - xs[i]!, ys[i + 1]! - ys[i]!);
      if (next !== q) {
        add(from, i, r);
        from = i;
        q = next;
      }
    }
    add(from, ring.end, r);
  }
  c.count = n;
  const minX = c.minX;
  c.order.subarray(0, n).sort((a, b) => minX[a]! - minX[b]!);
  return c;
}
