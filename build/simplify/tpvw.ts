// Topology-preserving Visvalingam–Whyatt on a coverage's shared arcs, as GEOS's
// CoverageSimplifier (TPVWSimplifier.cpp) does it: each arc in turn drops its
// corner of least triangle area while that area is at most tolerance², unless
//   - the triangle (prev, corner, next) holds any live vertex of any arc
//     (tested exactly: then the new segment crosses nothing, since in a valid
//     coverage nothing crosses the two segments it replaces);
//   - an original vertex of the arc between prev and next would lie farther
//     than the tolerance from the new segment (so the Hausdorff distance
//     between a simplified arc and the original stays within the tolerance,
//     which GEOS does not promise: a spike of small area can be long);
//   - a ring through the arc would fall below three vertices, or to three on
//     a line (so no ring collapses and every unit survives).
// Arc ends (nodes) never move, nor do vertices on the antimeridian or a pole,
// where a country's pieces meet across the map's edge.
// Areas and distances are in metres on a sphere of the body's radius, each
// measured in a local projection around the vertex concerned. rank() runs
// the same simplification at ever larger tolerances, weighing each vertex by
// the tolerance at which it went (for previews, build/preview/simplify.ts).
import { orient2d } from 'robust-predicates';
import { ArcHeaps, CornerHeap, Waiters } from './queues.ts';
import { VertexGrid } from './vertex-grid.ts';
import type { CoverageArcs } from './arcs.ts';

/** The first tolerance rank() simplifies to, in metres, and the factor from one to the next. */
const RANK_START_M = 0.001;
const RANK_STEP = 2 ** (1 / 8);

/**
 * The simplification of one coverage, tolerance after tolerance: its arcs'
 * live vertices (next[i]: the following live vertex of i's arc, -1 past its
 * end), the vertex index and each ring's count of live vertices.
 */
export class CoverageSimplifier {
  readonly next: Int32Array;
  readonly prev: Int32Array;
  readonly removed: Uint8Array;
  private readonly fixed: Uint8Array;
  private readonly cos: Float64Array;
  private readonly stamp: Int32Array; // bumped when a vertex's neighbours change: older heap entries are stale
  private readonly arcOf: Int32Array;
  private readonly ringCount: Int32Array; // live vertices of each ring
  private readonly arcRings: Int32Array; // rings through arc a: arcRings[arcRingStart[a] … arcRingStart[a + 1])
  private readonly arcRingStart: Int32Array;
  private grid: VertexGrid;
  private indexed: number; // live vertices when the grid was made
  private removedCount = 0;
  private readonly heap = new CornerHeap();
  private readonly k: number; // metres per degree on the body
  private tolerance = 0;

  /** `radius`: the body's radius in metres (BODY_RADIUS_M), e.g. 6,371,008.8 for the Earth. */
  constructor(
    private readonly arcs: CoverageArcs,
    radius: number,
  ) {
    const { x, y, arcStart, ringArcs, ringArcStart } = arcs;
    const n = x.length;
    const arcCount = arcStart.length - 1;
    this.k = (radius * Math.PI) / 180;
    this.next = new Int32Array(n);
    this.prev = new Int32Array(n);
    this.removed = new Uint8Array(n);
    this.fixed = new Uint8Array(n);
    this.cos = new Float64Array(n);
    this.stamp = new Int32Array(n);
    this.arcOf = new Int32Array(n);
    let length = 0; // of every segment, in degrees (|dx| + |dy|)
    for (let a = 0; a < arcCount; a++) {
      const s = arcStart[a];
      const e = arcStart[a + 1];
      for (let i = s; i < e; i++) {
        this.next[i] = i + 1 < e ? i + 1 : -1;
        this.prev[i] = i > s ? i - 1 : -1;
        this.arcOf[i] = a;
        this.fixed[i] = i === s || i === e - 1 || Math.abs(x[i]) === 180 || Math.abs(y[i]) === 90 ? 1 : 0;
        if (i > s) length += Math.abs(x[i] - x[i - 1]) + Math.abs(y[i] - y[i - 1]);
      }
    }
    for (let i = 0; i < n; i++) this.cos[i] = Math.cos((y[i] * Math.PI) / 180);
    this.grid = new VertexGrid(x, y, length / Math.max(1, n - arcCount));
    this.indexed = n;
    const rings = ringArcStart.length - 1;
    this.ringCount = new Int32Array(rings);
    this.arcRingStart = new Int32Array(arcCount + 1);
    for (let j = 0; j < ringArcs.length; j++) this.arcRingStart[arcOf(ringArcs[j]) + 1]++;
    for (let a = 0; a < arcCount; a++) this.arcRingStart[a + 1] += this.arcRingStart[a];
    this.arcRings = new Int32Array(ringArcs.length);
    const fill = this.arcRingStart.slice(0, arcCount);
    for (let r = 0; r < rings; r++) {
      for (let j = ringArcStart[r]; j < ringArcStart[r + 1]; j++) {
        const a = arcOf(ringArcs[j]);
        this.arcRings[fill[a]++] = r;
        this.ringCount[r] += arcStart[a + 1] - arcStart[a] - 1;
      }
    }
  }

  /**
   * Simplifies every arc further, to `toleranceM` metres: a call with a
   * larger tolerance continues from the last (its vertices are a subset),
   * with the Hausdorff bound still measured against the original arcs.
   */
  simplify(toleranceM: number): void {
    this.tolerance = toleranceM;
    const limit = toleranceM * toleranceM;
    const { arcStart } = this.arcs;
    const { heap, next, removed, fixed, stamp } = this;
    this.reindex();
    for (let a = 0; a + 1 < arcStart.length; a++) {
      if (arcStart[a + 1] - arcStart[a] < 3) continue;
      heap.size = 0;
      for (let i = next[arcStart[a]]; next[i] !== -1; i = next[i]) {
        if (fixed[i]) continue;
        const area = this.area(i);
        if (area <= limit) heap.push(area, i, stamp[i]);
      }
      while (heap.size > 0) {
        heap.pop();
        const i = heap.topVertex;
        if (removed[i] || heap.topStamp !== stamp[i]) continue; // a neighbour went since it was queued
        if (!this.removable(i)) continue;
        const p = this.prev[i];
        const q = next[i];
        this.remove(i);
        this.requeue(p, limit);
        this.requeue(q, limit);
      }
    }
  }

  /**
   * Returns each vertex's weight: the tolerance in metres at which it went
   * (Infinity: it stays) when simplified as simplify() does, to tolerances
   * rising by RANK_STEP (or straight to the least at which a corner may go)
   * until nothing more can go. So the vertices heavier than any weight t are
   * a simplification to t with every guarantee of simplify(). A corner that
   * may not go yet is looked at again only when it may: at the tolerance
   * its Hausdorff distance needs, or once a neighbour or the vertex in its
   * triangle has gone.
   */
  rank(): Float64Array {
    const { next, prev, fixed, removed, arcOf } = this;
    const { arcStart } = this.arcs;
    const weights = new Float64Array(next.length).fill(Infinity);
    // Each corner's heap key: the squared tolerance (m²) from which it may go, its area at least.
    const key = new Float64Array(next.length).fill(Infinity);
    for (let i = 0; i < next.length; i++) if (!fixed[i]) key[i] = this.area(i);
    const heaps = new ArcHeaps(arcStart, key);
    const waiting = new Waiters(next.length);
    const queue = (j: number) => {
      key[j] = this.area(j);
      heaps.set(arcOf[j], j);
    };
    for (let t = RANK_START_M; ;) {
      this.tolerance = t;
      this.reindex();
      const limit = t * t;
      for (let a = 0; a + 1 < arcStart.length; a++) {
        while (heaps.size[a] > 0 && key[heaps.top(a)] <= limit) {
          const i = heaps.pop(a);
          if (!this.ringsStay(i)) continue; // back when a neighbour goes (rings only lose vertices)
          const p = prev[i];
          const q = next[i];
          if (!this.withinTolerance(p, q)) {
            // A hair over the distance, so that the square root of its key is not rounded under it.
            key[i] = Math.max(key[i], this.farthest(p, q, Infinity) * (1 + 1e-12));
            heaps.push(a, i);
            continue;
          }
          const blocker = this.blocker(i);
          if (blocker !== -1) {
            waiting.add(blocker, i); // back when it goes, or a neighbour does
            continue;
          }
          this.remove(i);
          weights[i] = t;
          if (!fixed[p]) queue(p);
          if (!fixed[q]) queue(q);
          for (let e = waiting.take(i); e !== -1; e = waiting.nextAt(e)) {
            const c = waiting.cornerAt(e);
            if (!removed[c]) queue(c);
          }
        }
      }
      let least = Infinity;
      for (let a = 0; a + 1 < arcStart.length; a++)
        if (heaps.size[a] > 0) least = Math.min(least, key[heaps.top(a)]);
      if (least === Infinity) break;
      t = Math.max(t * RANK_STEP, Math.sqrt(least));
    }
    return weights;
  }

  /**
   * Indexes the live vertices again once half of those indexed have gone:
   * a query then skips no removed vertex, and its cells fit the segments
   * as they are now (longer), so that it visits fewer.
   */
  private reindex(): void {
    const live = this.next.length - this.removedCount;
    if (live > this.indexed / 2) return;
    const { x, y, arcStart } = this.arcs;
    const { next } = this;
    const vertices = new Int32Array(live);
    let n = 0;
    let length = 0; // of every live segment, in degrees (|dx| + |dy|)
    for (let a = 0; a + 1 < arcStart.length; a++) {
      for (let i = arcStart[a]; i !== -1; i = next[i]) {
        vertices[n++] = i;
        const j = next[i];
        if (j !== -1) length += Math.abs(x[j] - x[i]) + Math.abs(y[j] - y[i]);
      }
    }
    this.grid = new VertexGrid(x, y, length / Math.max(1, n - (arcStart.length - 1)), vertices);
    this.indexed = live;
  }

  /** Queues vertex j's corner again (its neighbours changed) when it may go. */
  private requeue(j: number, limit: number): void {
    if (this.fixed[j]) return;
    const area = this.area(j);
    if (area <= limit) this.heap.push(area, j, this.stamp[j]);
  }

  /** Returns the area in m² of the triangle of vertex i and its live neighbours (sinusoidal around i). */
  private area(i: number): number {
    const { x, y } = this.arcs;
    const p = this.prev[i];
    const q = this.next[i];
    const k = this.k;
    const ax = (x[p] - x[i]) * this.cos[p] * k;
    const ay = (y[p] - y[i]) * k;
    const bx = (x[q] - x[i]) * this.cos[q] * k;
    const by = (y[q] - y[i]) * k;
    return Math.abs(ax * by - bx * ay) / 2;
  }

  private remove(i: number): void {
    const p = this.prev[i];
    const q = this.next[i];
    this.next[p] = q;
    this.prev[q] = p;
    this.removed[i] = 1;
    this.removedCount++;
    this.stamp[p]++;
    this.stamp[q]++;
    const a = this.arcOf[i];
    for (let j = this.arcRingStart[a]; j < this.arcRingStart[a + 1]; j++) this.ringCount[this.arcRings[j]]--;
  }

  /** Whether vertex i may go (see the module comment). */
  private removable(i: number): boolean {
    return this.withinTolerance(this.prev[i], this.next[i]) && this.ringsStay(i) && this.triangleEmpty(i);
  }

  /** Whether every original vertex strictly between p and q (one arc) lies within the tolerance of segment p–q. */
  private withinTolerance(p: number, q: number): boolean {
    const limit = this.tolerance * this.tolerance;
    return this.farthest(p, q, limit) <= limit;
  }

  /**
   * Returns the largest squared distance (m²) from segment p–q of the
   * original vertices strictly between p and q (one arc), or the first one
   * found over `stop`.
   */
  private farthest(p: number, q: number, stop: number): number {
    const { x, y } = this.arcs;
    const k = this.k;
    let most = 0;
    for (let m = p + 1; m < q; m++) {
      const c = this.cos[m] * k; // the local scale at the vertex measured
      const bx = (x[q] - x[p]) * c;
      const by = (y[q] - y[p]) * k;
      const mx = (x[m] - x[p]) * c;
      const my = (y[m] - y[p]) * k;
      const l2 = bx * bx + by * by;
      const t = l2 > 0 ? Math.max(0, Math.min(1, (mx * bx + my * by) / l2)) : 0;
      const dx = mx - t * bx;
      const dy = my - t * by;
      const d2 = dx * dx + dy * dy;
      if (d2 > stop) return d2;
      if (d2 > most) most = d2;
    }
    return most;
  }

  /** Whether every ring through i's arc keeps three vertices not on one line once i goes. */
  private ringsStay(i: number): boolean {
    const a = this.arcOf[i];
    for (let j = this.arcRingStart[a]; j < this.arcRingStart[a + 1]; j++) {
      const r = this.arcRings[j];
      const left = this.ringCount[r] - 1;
      if (left < 3) return false;
      if (left === 3 && this.ringOnALine(r, i)) return false;
    }
    return true;
  }

  /** Whether ring r's live vertices other than i (three of them) lie on one line. */
  private ringOnALine(r: number, i: number): boolean {
    const { x, y, arcStart, ringArcs, ringArcStart } = this.arcs;
    const left: number[] = [];
    for (let j = ringArcStart[r]; j < ringArcStart[r + 1]; j++) {
      const a = arcOf(ringArcs[j]);
      // Every arc's vertices but its last, which is the next arc's first (or the ring's start).
      for (let v = arcStart[a]; this.next[v] !== -1; v = this.next[v]) if (v !== i) left.push(v);
    }
    const [u, v, w] = left;
    if (left.length < 3) return true;
    return orient2d(x[u], y[u], x[v], y[v], x[w], y[w]) === 0;
  }

  /** Whether the closed triangle of i and its neighbours holds no live vertex but those three (exactly). */
  private triangleEmpty(i: number): boolean {
    return this.blocker(i) === -1;
  }

  /** Returns a live vertex other than those three in the closed triangle of i and its neighbours, or -1. */
  private blocker(i: number): number {
    const { x, y } = this.arcs;
    const p = this.prev[i];
    const q = this.next[i];
    const ax = x[p];
    const ay = y[p];
    const bx = x[i];
    const by = y[i];
    const cx = x[q];
    const cy = y[q];
    const x0 = Math.min(ax, bx, cx);
    const y0 = Math.min(ay, by, cy);
    const x1 = Math.max(ax, bx, cx);
    const y1 = Math.max(ay, by, cy);
    const count = this.grid.query(x0, y0, x1, y1);
    const found = this.grid.found;
    for (let f = 0; f < count; f++) {
      const v = found[f];
      if (this.removed[v]) continue;
      const vx = x[v];
      const vy = y[v];
      if ((vx === ax && vy === ay) || (vx === bx && vy === by) || (vx === cx && vy === cy)) continue;
      const o1 = orient2d(ax, ay, bx, by, vx, vy);
      const o2 = orient2d(bx, by, cx, cy, vx, vy);
      const o3 = orient2d(cx, cy, ax, ay, vx, vy);
      if ((o1 >= 0 && o2 >= 0 && o3 >= 0) || (o1 <= 0 && o2 <= 0 && o3 <= 0)) return v;
    }
    return -1;
  }
}

/** Returns the arc a reference names (~a is arc a backwards). */
export function arcOf(ref: number): number {
  return ref < 0 ? ~ref : ref;
}
