// Monotone chains: maximal runs of a ring's segments that all head into the
// same quadrant. Two segments of one chain never meet except at a shared
// end (the run only moves forward in x and y), so only pairs of chains need
// testing, and a run's envelope is the box of its two end points.
import { quadrant } from './orientation.ts';
import type { Rings } from './rings.ts';

export interface Chains {
  start: Int32Array; // index of the chain's first point
  end: Int32Array; // index of its last point
  ring: Int32Array; // index in Rings.rings
  minX: Float64Array;
  minY: Float64Array;
  maxX: Float64Array;
  maxY: Float64Array;
  order: Uint32Array; // chain indices sorted by minX
}

/** Returns the monotone chains of every ring, and their order by minX. */
export function buildChains(g: Rings): Chains {
  const { xs, ys, rings } = g;
  const starts: number[] = [];
  const ends: number[] = [];
  const ringOf: number[] = [];
  rings.forEach((ring, r) => {
    let from = ring.start;
    let q = quadrant(xs[from + 1]! - xs[from]!, ys[from + 1]! - ys[from]!);
    for (let i = from + 1; i < ring.end; i++) {
      const next = quadrant(xs[i + 1]! - xs[i]!, ys[i + 1]! - ys[i]!);
      if (next !== q) {
        starts.push(from);
        ends.push(i);
        ringOf.push(r);
        from = i;
        q = next;
      }
    }
    starts.push(from);
    ends.push(ring.end);
    ringOf.push(r);
  });
  const n = starts.length;
  const chains: Chains = {
    start: Int32Array.from(starts),
    end: Int32Array.from(ends),
    ring: Int32Array.from(ringOf),
    minX: new Float64Array(n),
    minY: new Float64Array(n),
    maxX: new Float64Array(n),
    maxY: new Float64Array(n),
    order: new Uint32Array(n),
  };
  for (let c = 0; c < n; c++) {
    const a = starts[c]!;
    const b = ends[c]!;
    chains.minX[c] = Math.min(xs[a]!, xs[b]!);
    chains.maxX[c] = Math.max(xs[a]!, xs[b]!);
    chains.minY[c] = Math.min(ys[a]!, ys[b]!);
    chains.maxY[c] = Math.max(ys[a]!, ys[b]!);
    chains.order[c] = c;
  }
  const minX = chains.minX;
  chains.order.sort((a, b) => minX[a]! - minX[b]!);
  return chains;
}
