// Builds a TopoJSON topology of one level in typed arrays, for memory about
// 25 bytes per position and one pass over the data: the TopoJSON downloads
// (formats/topojson.ts), the tiles, and the shared arcs that the simplified
// copies and the previews are simplified on (simplify/arcs.ts).
// topojson-server, which it replaced, holds every position as a JS array,
// twice (many times the level's size in memory: docs/benchmarks.md,
// bench:formats); this follows the same method with flat arrays:
//   1. quantise every ring to the integer grid (dropping repeated points),
//   2. find junctions: a point seen again with other neighbours,
//   3. cut each ring at its junctions into arcs (a ring without any stays
//      one closed arc, started at its least point),
//   4. keep each arc once: an arc equal to a kept one, forwards or
//      backwards, refers to it (~index when reversed).
// A level whose extent no 32-bit grid can hold (coordinates far outside
// longitude and latitude, e.g. 1e300) is not quantised: ExactRings keeps the
// doubles and gives the same method their ranks (equal doubles, equal
// integers; order kept), so the arcs are found alike and written exactly.

/**
 * A growable typed array: push() appends, and data[0 … length) holds the
 * values. One class for both kinds below: a push that meets both array kinds
 * measured no slower than the two hand-copied classes it replaced.
 */
class TypedList<T extends Int32Array | Float64Array> {
  length = 0;
  constructor(public data: T) {}

  push(value: number): void {
    if (this.length === this.data.length) this.grow();
    this.data[this.length++] = value;
  }

  /** Replaces data by a copy 1.5× as long (less slack than doubling), at least 16. */
  private grow(): void {
    const make = this.data.constructor as new (length: number) => T;
    const bigger = new make(Math.max(16, Math.ceil(this.data.length * 1.5)));
    bigger.set(this.data);
    this.data = bigger;
  }
}

/** A growable Int32Array. */
export class IntList extends TypedList<Int32Array> {
  constructor(capacity = 1024) {
    super(new Int32Array(capacity));
  }
}

/** A growable Float64Array. */
export class DoubleList extends TypedList<Float64Array> {
  constructor(capacity = 1024) {
    super(new Float64Array(capacity));
  }
}

/** Rings of a level as integer points: ring r holds points [ringStart[r], ringStart[r + 1]). */
export interface RingPoints {
  x: IntList;
  y: IntList;
  ringStart: IntList;
  readonly rings: number;
}

export interface Grid {
  x0: number;
  y0: number;
  kx: number; // grid steps per degree, e.g. 1e6
  ky: number;
}

/** Quantised rings of a level, in order: ring r holds points [ringStart[r], ringStart[r + 1]). */
export class QuantisedRings implements RingPoints {
  x: IntList;
  y: IntList;
  ringStart = new IntList();

  /**
   * `maxPoints` bounds the positions to come (e.g. the level's bytes / 6, as
   * "[0,0]," is the shortest): the arrays are allocated once at that size and
   * never copied; pages never written are never resident.
   */
  constructor(
    private grid: Grid,
    maxPoints: number,
  ) {
    this.x = new IntList(maxPoints);
    this.y = new IntList(maxPoints);
    this.ringStart.push(0);
  }

  /** Adds one GeoJSON ring (closed), quantised as topojson-server does it: repeats dropped, at least 3 points. */
  addRing(ring: number[][]): void {
    const { x0, y0, kx, ky } = this.grid;
    const start = this.x.length;
    let px = NaN;
    let py = NaN;
    for (const p of ring) {
      const qx = Math.round((p[0] - x0) * kx);
      const qy = Math.round((p[1] - y0) * ky);
      if (qx === px && qy === py) continue;
      this.x.push(qx);
      this.y.push(qy);
      px = qx;
      py = qy;
    }
    let n = this.x.length - start;
    if (n > 1 && this.x.data[start] === px && this.y.data[start] === py) {
      this.x.length--; // the closing point: rings are stored open
      this.y.length--;
      n--;
    }
    for (; n < 3; n++) {
      this.x.push(this.x.data[start]);
      this.y.push(this.y.data[start]);
    }
    this.ringStart.push(this.x.length);
  }

  get rings(): number {
    return this.ringStart.length - 1;
  }
}

/**
 * Rings of a level kept as exact doubles (no grid), repeats dropped as in
 * QuantisedRings. ranked() returns them as integer points, each the rank of
 * its x (y) among the level's distinct x (y) values, with those values.
 */
export class ExactRings {
  private x: DoubleList;
  private y: DoubleList;
  private ringStart = new IntList();

  constructor(maxPoints: number) {
    this.x = new DoubleList(maxPoints);
    this.y = new DoubleList(maxPoints);
    this.ringStart.push(0);
  }

  addRing(ring: number[][]): void {
    const start = this.x.length;
    let px = NaN;
    let py = NaN;
    for (const p of ring) {
      const qx = p[0] + 0; // -0 → 0: the same place, one point
      const qy = p[1] + 0;
      if (qx === px && qy === py) continue;
      this.x.push(qx);
      this.y.push(qy);
      px = qx;
      py = qy;
    }
    let n = this.x.length - start;
    if (n > 1 && this.x.data[start] === px && this.y.data[start] === py) {
      this.x.length--;
      this.y.length--;
      n--;
    }
    for (; n < 3; n++) {
      this.x.push(this.x.data[start]);
      this.y.push(this.y.data[start]);
    }
    this.ringStart.push(this.x.length);
  }

  /** Returns the rings as ranks (see the class comment) and the distinct values they index, ascending. */
  ranked(): RingPoints & { xValues: Float64Array; yValues: Float64Array } {
    const [x, xValues] = ranks(this.x);
    const [y, yValues] = ranks(this.y);
    const ringStart = this.ringStart;
    return { x, y, ringStart, rings: ringStart.length - 1, xValues, yValues };
  }
}

/** Returns each value's rank among the distinct values of `list`, and those values in ascending order. */
function ranks(list: DoubleList): [IntList, Float64Array] {
  const n = list.length;
  const sorted = list.data.slice(0, n).sort();
  let m = 0;
  for (let i = 0; i < n; i++) if (m === 0 || sorted[i] !== sorted[m - 1]) sorted[m++] = sorted[i];
  const values = sorted.subarray(0, m);
  const out = new IntList(Math.max(1, n));
  for (let i = 0; i < n; i++) {
    const v = list.data[i];
    let lo = 0;
    let hi = m - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (values[mid] < v) lo = mid + 1;
      else hi = mid;
    }
    out.data[i] = lo;
  }
  out.length = n;
  return [out, values];
}

/**
 * An open-addressing table of positions: each slot holds the first point met
 * there and its two neighbours, and a junction flag: 13 bytes a slot, at most
 * 3/4 full. A position met again with neighbours at other places (in either
 * order) is a junction. Exact, so a shared border is always cut where its
 * neighbours part: a simplifier that keeps two units' common arc identical
 * (build/simplify/) relies on it.
 */
class PointTable {
  private mask = 0;
  private used = 0;
  private point = new Int32Array(0);
  private prev = new Int32Array(0);
  private next = new Int32Array(0);
  private junction = new Uint8Array(0);

  constructor(
    private x: Int32Array,
    private y: Int32Array,
    points: number,
  ) {
    // Shared borders make most levels hold about half as many positions as points; grown when 3/4 full.
    let size = 1024;
    while (size < points * 0.75) size *= 2;
    this.allocate(size);
  }

  private allocate(size: number): void {
    this.mask = size - 1;
    this.point = new Int32Array(size).fill(-1);
    this.prev = new Int32Array(size);
    this.next = new Int32Array(size);
    this.junction = new Uint8Array(size);
  }

  private grow(): void {
    const { point, prev, next, junction } = this;
    this.allocate(point.length * 2);
    for (let s = 0; s < point.length; s++) {
      if (point[s] === -1) continue;
      const t = this.slot(point[s]);
      this.point[t] = point[s];
      this.prev[t] = prev[s];
      this.next[t] = next[s];
      this.junction[t] = junction[s];
    }
  }

  private same(a: number, b: number): boolean {
    return this.x[a] === this.x[b] && this.y[a] === this.y[b];
  }

  private hash(i: number): number {
    return Math.imul(this.x[i], 0x9e3779b1) ^ Math.imul(this.y[i], 0x85ebca77);
  }

  /** Returns the slot of point i's position (a free slot when it is new). */
  private slot(i: number): number {
    let s = this.hash(i) & this.mask;
    while (this.point[s] !== -1 && !this.same(this.point[s], i)) s = (s + 1) & this.mask;
    return s;
  }

  /** Records point i with its neighbours; a position met again with other neighbours becomes a junction. */
  visit(i: number, prev: number, next: number): void {
    let s = this.slot(i);
    if (this.point[s] === -1) {
      if (++this.used > this.point.length * 0.75) {
        this.grow();
        s = this.slot(i);
      }
      this.point[s] = i;
      this.prev[s] = prev;
      this.next[s] = next;
    } else if (this.junction[s] === 0) {
      const p = this.prev[s];
      const n = this.next[s];
      const along = this.same(p, prev) && this.same(n, next);
      const against = this.same(p, next) && this.same(n, prev);
      if (!along && !against) this.junction[s] = 1;
    }
  }

  isJunction(i: number): boolean {
    return this.junction[this.slot(i)] === 1;
  }
}

export interface Topology {
  arcs: number; // how many arcs are kept
  /** Arc a's k-th point (an index into the quantised points); arcs are runs of a ring's points. */
  arcPoint(a: number, k: number): number;
  arcLength(a: number): number; // points in arc a, both ends included
  ringArcs: IntList; // arc references of every ring, back to back (~a when reversed)
  ringArcStart: IntList; // ring r's references are ringArcs [ringArcStart[r], ringArcStart[r + 1])
}

/** Which points are junctions (step 2): the position table, or a caller's own when it knows better. */
export interface Junctions {
  isJunction(i: number): boolean; // i: an index into the rings' points
}

/**
 * Returns the topology of the rings' integer points (see the module
 * comment), cut at `table`'s junctions (by default found here, step 2).
 */
export function buildTopology(q: RingPoints, table: Junctions = findJunctions(q)): Topology {
  const arcs = new Arcs(q);
  const ringArcs = new IntList();
  const ringArcStart = new IntList();
  ringArcStart.push(0);
  for (let r = 0; r < q.rings; r++) {
    cutRing(q, r, table, arcs, ringArcs);
    ringArcStart.push(ringArcs.length);
  }
  return {
    arcs: arcs.count,
    arcPoint: (a, k) => arcs.point(a, k),
    arcLength: (a) => arcs.length(a),
    ringArcs,
    ringArcStart,
  };
}

/** Returns the table of every ring's points with their neighbours, junctions marked (step 2). */
function findJunctions(q: RingPoints): PointTable {
  const starts = q.ringStart.data;
  const table = new PointTable(q.x.data, q.y.data, q.x.length);
  for (let r = 0; r < q.rings; r++) {
    const s = starts[r];
    const e = starts[r + 1];
    for (let i = s; i < e; i++) table.visit(i, i === s ? e - 1 : i - 1, i === e - 1 ? s : i + 1);
  }
  return table;
}

/**
 * Appends to `refs` the arcs of ring r (step 3): the runs between its
 * junctions or, without any, one closed arc from its least point (so equal
 * rings compare equal).
 */
function cutRing(q: RingPoints, r: number, table: Junctions, arcs: Arcs, refs: IntList): void {
  const x = q.x.data;
  const y = q.y.data;
  const s = q.ringStart.data[r];
  const n = q.ringStart.data[r + 1] - s;
  let first = -1;
  for (let k = 0; k < n && first < 0; k++) if (table.isJunction(s + k)) first = k;
  if (first < 0) {
    let least = 0;
    for (let k = 1; k < n; k++) {
      const a = s + k;
      const b = s + least;
      if (x[a] < x[b] || (x[a] === x[b] && y[a] < y[b])) least = k;
    }
    refs.push(arcs.refer(r, s + least, n + 1));
    return;
  }
  let from = first; // the arc's first point, as an offset in the ring
  for (let k = 1; k <= n; k++) {
    const offset = (first + k) % n;
    if (table.isJunction(s + offset)) {
      refs.push(arcs.refer(r, s + from, k - (from - first) + 1));
      from = first + k;
    }
  }
}

/**
 * The arcs kept (step 4), each stored as (ring, first point, length), not as
 * a copy of its points, and found again by a hash of its end positions.
 */
class Arcs {
  private readonly x: Int32Array;
  private readonly y: Int32Array;
  private readonly starts: Int32Array;
  private readonly ring = new IntList();
  private readonly first = new IntList();
  private readonly len = new IntList();
  private readonly key = new IntList(); // each arc's endsKey
  private readonly chain = new IntList(); // the next arc in the same bucket, -1 at the end
  private heads = new Int32Array(0); // each bucket's newest arc, -1 when empty

  constructor(q: RingPoints) {
    this.x = q.x.data;
    this.y = q.y.data;
    this.starts = q.ringStart.data;
  }

  get count(): number {
    return this.ring.length;
  }

  /** Returns the points in arc a, both ends included. */
  length(a: number): number {
    return this.len.data[a];
  }

  /** Returns arc a's k-th point (an index into the points). */
  point(a: number, k: number): number {
    const r = this.ring.data[a];
    const s = this.starts[r];
    return s + ((this.first.data[a] - s + k) % (this.starts[r + 1] - s));
  }

  /**
   * Returns the reference to the run of ring r from point `first`, `n`
   * points long: an equal kept arc (~arc when it runs backwards), else the
   * run kept as a new arc. No closures here: it runs once per arc.
   */
  refer(r: number, first: number, n: number): number {
    const { x, y } = this;
    const s = this.starts[r];
    const len = this.starts[r + 1] - s;
    first = s + ((first - s) % len); // `first` may be given past the ring's end (a run that wraps)
    const lastPoint = s + ((first - s + n - 1) % len);
    const key = this.endsKey(first, lastPoint);
    for (let arc = this.head(key); arc !== -1; arc = this.chain.data[arc]) {
      if (this.len.data[arc] !== n || this.key.data[arc] !== key) continue;
      let forward = true;
      let backward = true;
      for (let k = 0; k < n && (forward || backward); k++) {
        const p = s + ((first - s + k) % len);
        if (forward) {
          const q = this.point(arc, k);
          if (x[p] !== x[q] || y[p] !== y[q]) forward = false;
        }
        if (backward) {
          const q = this.point(arc, n - 1 - k);
          if (x[p] !== x[q] || y[p] !== y[q]) backward = false;
        }
      }
      if (forward) return arc;
      if (backward) return ~arc;
    }
    const arc = this.ring.length;
    this.ring.push(r);
    this.first.push(first);
    this.len.push(n);
    this.key.push(key);
    this.chain.push(-1);
    this.insert(arc, key);
    return arc;
  }

  /** Returns the last arc added whose ends hash to `key`'s bucket (-1: none); older ones follow through `chain`. */
  private head(key: number): number {
    return this.heads.length === 0 ? -1 : this.heads[key & (this.heads.length - 1)];
  }

  /** Puts arc in its bucket, doubling the buckets when they are outnumbered by the arcs. */
  private insert(arc: number, key: number): void {
    if (this.ring.length > this.heads.length / 2) {
      this.heads = new Int32Array(Math.max(1024, this.heads.length * 2)).fill(-1);
      const mask = this.heads.length - 1;
      for (let a = 0; a < arc; a++) {
        const b = this.key.data[a] & mask;
        this.chain.data[a] = this.heads[b];
        this.heads[b] = a;
      }
    }
    const b = key & (this.heads.length - 1);
    this.chain.data[arc] = this.heads[b];
    this.heads[b] = arc;
  }

  /** Returns the same 32-bit hash for the ends (a, b) and (b, a). */
  private endsKey(a: number, b: number): number {
    const { x, y } = this;
    const ha = Math.imul(x[a], 0x27d4eb2d) ^ Math.imul(y[a], 0x165667b1);
    const hb = Math.imul(x[b], 0x27d4eb2d) ^ Math.imul(y[b], 0x165667b1);
    const lo = ha < hb ? ha : hb;
    const hi = ha < hb ? hb : ha;
    const h = Math.imul(lo ^ (lo >>> 16), 0x85ebca6b) + hi;
    return Math.imul(h ^ (h >>> 13), 0xc2b2ae35) ^ (h >>> 16);
  }
}
