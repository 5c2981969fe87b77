// Shared borders, simplified once: the level's rings are cut into arcs
// (build/geo/topology.ts, the TopoJSON writer's typed-array topology), and
// every arc point gets a Douglas-Peucker weight (squared, in grid units). A
// level of the pyramid keeps the points heavier than its tolerance, so the two
// units on either side of a border keep the very same points at every zoom:
// no gaps, no slivers. Every ring keeps at least three points at any
// tolerance, so an island never vanishes (it shrinks to a triangle, and the
// map gives it a marker).
import { buildTopology, IntList, type Topology } from '../geo/topology.ts';
import type { GridRings } from './grid.ts';

export interface Arcs {
  topology: Topology;
  x: Int32Array; // the grid points the arcs index
  y: Int32Array;
  weightStart: Int32Array; // arc a's weights are weights[weightStart[a] + k], k along the arc
  weights: Float64Array; // squared Douglas-Peucker distance; Infinity at the ends
}

/** Sets the Douglas-Peucker weights of the points [from, from + n) of an arc (xs/ys) into `w`. */
function dpWeights(xs: Float64Array, ys: Float64Array, n: number, w: Float64Array, from: number): void {
  w[from] = Infinity;
  w[from + n - 1] = Infinity;
  const stack: number[] = [0, n - 1, Infinity];
  while (stack.length > 0) {
    const cap = stack.pop()!;
    const j = stack.pop()!;
    const i = stack.pop()!;
    if (j - i < 2) continue;
    const [ax, ay] = [xs[i], ys[i]];
    const [dx, dy] = [xs[j] - ax, ys[j] - ay];
    const l2 = dx * dx + dy * dy;
    let best = -1;
    let at = i + 1;
    for (let m = i + 1; m < j; m++) {
      let [px, py] = [xs[m] - ax, ys[m] - ay];
      if (l2 > 0) {
        const t = Math.max(0, Math.min(1, (px * dx + py * dy) / l2));
        px -= t * dx;
        py -= t * dy;
      }
      const d = px * px + py * py;
      if (d > best) [best, at] = [d, m];
    }
    // Capped by the parent's weight, so a point is kept only with the one that brought it.
    const weight = Math.min(best, cap);
    w[from + at] = weight;
    stack.push(i, at, weight, at, j, weight);
  }
}

/** Returns the arcs of `rings` with the weight of each of their points. */
export function weightedArcs(rings: GridRings): Arcs {
  const topology = buildTopology(rings);
  const weightStart = new Int32Array(topology.arcs + 1);
  for (let a = 0; a < topology.arcs; a++) weightStart[a + 1] = weightStart[a] + topology.arcLength(a);
  const weights = new Float64Array(weightStart[topology.arcs]);
  const x = rings.x.data;
  const y = rings.y.data;
  let xs = new Float64Array(1024);
  let ys = new Float64Array(1024);
  for (let a = 0; a < topology.arcs; a++) {
    const n = topology.arcLength(a);
    if (n > xs.length) [xs, ys] = [new Float64Array(n * 2), new Float64Array(n * 2)];
    for (let k = 0; k < n; k++) {
      const p = topology.arcPoint(a, k);
      xs[k] = x[p];
      ys[k] = y[p];
    }
    dpWeights(xs, ys, n, weights, weightStart[a]);
  }
  const arcs: Arcs = { topology, x, y, weightStart, weights };
  keepTriangles(arcs);
  return arcs;
}

/** Makes a ring of fewer than three arcs keep its heaviest points too, so it never falls below a triangle. */
function keepTriangles({ topology, weightStart, weights }: Arcs): void {
  const { ringArcs, ringArcStart } = topology;
  const rings = ringArcStart.length - 1;
  for (let r = 0; r < rings; r++) {
    const [s, e] = [ringArcStart.data[r], ringArcStart.data[r + 1]];
    if (e - s >= 3) continue;
    const candidates: number[] = []; // indices into weights of the ring's inner arc points
    for (let i = s; i < e; i++) {
      const ref = ringArcs.data[i];
      const a = ref < 0 ? ~ref : ref;
      for (let k = weightStart[a] + 1; k < weightStart[a + 1] - 1; k++) candidates.push(k);
    }
    candidates.sort((p, q) => weights[q] - weights[p]);
    for (const k of candidates.slice(0, 3 - (e - s))) weights[k] = Infinity;
  }
}

/**
 * Appends to `xs`/`ys` ring r's points whose weight exceeds `tolerance2`
 * (squared grid units; -1 keeps every point), as an open ring.
 */
export function ringAt(arcs: Arcs, r: number, tolerance2: number, xs: IntList, ys: IntList): void {
  const { topology, x, y, weightStart, weights } = arcs;
  const { ringArcs, ringArcStart } = topology;
  const [s, e] = [ringArcStart.data[r], ringArcStart.data[r + 1]];
  for (let i = s; i < e; i++) {
    const ref = ringArcs.data[i];
    const a = ref < 0 ? ~ref : ref;
    const n = topology.arcLength(a);
    const w0 = weightStart[a];
    // Each arc's last point is the next one's first (and the ring's first, for the last arc).
    for (let j = 0; j < n - 1; j++) {
      const k = ref < 0 ? n - 1 - j : j;
      if (weights[w0 + k] <= tolerance2) continue;
      const p = topology.arcPoint(a, k);
      xs.push(x[p]);
      ys.push(y[p]);
    }
  }
}

/** Appends ring r's points at full detail to `xs`/`ys` and each one's weight to `ws` (mercator-pyramid.ts). */
export function ringWeighted(arcs: Arcs, r: number, xs: IntList, ys: IntList, ws: number[]): void {
  const { topology, x, y, weightStart, weights } = arcs;
  const { ringArcs, ringArcStart } = topology;
  for (let i = ringArcStart.data[r]; i < ringArcStart.data[r + 1]; i++) {
    const ref = ringArcs.data[i];
    const a = ref < 0 ? ~ref : ref;
    const n = topology.arcLength(a);
    for (let j = 0; j < n - 1; j++) {
      const k = ref < 0 ? n - 1 - j : j;
      const p = topology.arcPoint(a, k);
      xs.push(x[p]);
      ys.push(y[p]);
      ws.push(weights[weightStart[a] + k]);
    }
  }
}
