// Builds a TopoJSON topology of one level in typed arrays, for memory about
// 25 bytes per position and one pass over the data. topojson-server, which
// the preview uses, needs about 12× the level's size in memory and 15 s for
// a 100 MB level; this follows the same method with flat arrays:
//   1. quantise every ring to the integer grid (dropping repeated points),
//   2. find junctions: a point seen again with other neighbours,
//   3. cut each ring at its junctions into arcs (a ring without any stays
//      one closed arc, started at its least point),
//   4. keep each arc once: an arc equal to a kept one, forwards or
//      backwards, refers to it (~index when reversed).

/** A growable Int32Array. */
export class IntList {
  data: Int32Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Int32Array(capacity);
  }
  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = new Int32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }
}

export interface Grid {
  x0: number;
  y0: number;
  kx: number; // grid steps per degree, e.g. 1e6
  ky: number;
}

/** Quantised rings of a level, in order: ring r holds points [ringStart[r], ringStart[r + 1]). */
export class QuantisedRings {
  x = new IntList(1 << 16);
  y = new IntList(1 << 16);
  ringStart = new IntList();

  constructor(private grid: Grid) {
    this.ringStart.push(0);
  }

  /** Adds one GeoJSON ring (closed), as topojson-server quantises it: repeats dropped, at least 3 points. */
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

/** An open-addressing table of points: each slot's first point, its neighbours there, and a junction flag. */
class PointTable {
  private mask: number;
  private point: Int32Array;
  private prev: Int32Array;
  private next: Int32Array;
  private junction: Uint8Array;

  constructor(
    private x: Int32Array,
    private y: Int32Array,
    points: number,
  ) {
    let size = 1024;
    while (size < points * 1.5) size *= 2;
    this.mask = size - 1;
    this.point = new Int32Array(size).fill(-1);
    this.prev = new Int32Array(size);
    this.next = new Int32Array(size);
    this.junction = new Uint8Array(size);
  }

  private same(a: number, b: number): boolean {
    return this.x[a] === this.x[b] && this.y[a] === this.y[b];
  }

  /** Returns the slot of point i's position (a free slot when it is new). */
  private slot(i: number): number {
    let s = (Math.imul(this.x[i], 0x9e3779b1) ^ Math.imul(this.y[i], 0x85ebca77)) & this.mask;
    while (this.point[s] !== -1 && !this.same(this.point[s], i)) s = (s + 1) & this.mask;
    return s;
  }

  /** Records point i with its neighbours; a position met again with other neighbours becomes a junction. */
  visit(i: number, prev: number, next: number): void {
    const s = this.slot(i);
    if (this.point[s] === -1) {
      this.point[s] = i;
      this.prev[s] = prev;
      this.next[s] = next;
    } else if (!this.junction[s]) {
      const a = this.prev[s];
      const b = this.next[s];
      const same = (this.same(a, prev) && this.same(b, next)) || (this.same(a, next) && this.same(b, prev));
      if (!same) this.junction[s] = 1;
    }
  }

  isJunction(i: number): boolean {
    return this.junction[this.slot(i)] === 1;
  }
}

export interface Topology {
  arcPoints: IntList; // point indices of every kept arc, back to back
  arcStart: IntList; // arc a holds arcPoints [arcStart[a], arcStart[a + 1])
  ringArcs: IntList; // arc references of every ring, back to back (~a when reversed)
  ringArcStart: IntList; // ring r's references are ringArcs [ringArcStart[r], ringArcStart[r + 1])
}

/** Returns the topology of the quantised rings (see the module comment). */
export function buildTopology(q: QuantisedRings): Topology {
  const x = q.x.data;
  const y = q.y.data;
  const starts = q.ringStart.data;
  const table = new PointTable(x, y, q.x.length);
  for (let r = 0; r < q.rings; r++) {
    const s = starts[r];
    const e = starts[r + 1];
    for (let i = s; i < e; i++) table.visit(i, i === s ? e - 1 : i - 1, i === e - 1 ? s : i + 1);
  }
  const topo: Topology = {
    arcPoints: new IntList(1 << 16),
    arcStart: new IntList(),
    ringArcs: new IntList(),
    ringArcStart: new IntList(),
  };
  topo.arcStart.push(0);
  topo.ringArcStart.push(0);
  const byEnds = new Map<number, number[]>(); // hash of an arc's end positions → arcs
  const sequence = new IntList(); // the arc being cut, as point indices
  const endsKey = (a: number, b: number) => {
    const ha = Math.imul(x[a], 0x27d4eb2d) ^ y[a];
    const hb = Math.imul(x[b], 0x27d4eb2d) ^ y[b];
    return ha < hb ? ha * 4294967296 + hb : hb * 4294967296 + ha;
  };
  const keep = () => {
    const n = sequence.length;
    const seq = sequence.data;
    const key = endsKey(seq[0], seq[n - 1]);
    const same = (a: number, b: number) => x[a] === x[b] && y[a] === y[b];
    for (const arc of byEnds.get(key) ?? []) {
      const from = topo.arcStart.data[arc];
      if (topo.arcStart.data[arc + 1] - from !== n) continue;
      const pts = topo.arcPoints.data;
      let forward = true;
      let backward = true;
      for (let k = 0; k < n && (forward || backward); k++) {
        if (forward && !same(seq[k], pts[from + k])) forward = false;
        if (backward && !same(seq[k], pts[from + n - 1 - k])) backward = false;
      }
      if (forward) return topo.ringArcs.push(arc);
      if (backward) return topo.ringArcs.push(~arc);
    }
    const arc = topo.arcStart.length - 1;
    for (let k = 0; k < n; k++) topo.arcPoints.push(seq[k]);
    topo.arcStart.push(topo.arcPoints.length);
    const list = byEnds.get(key);
    if (list) list.push(arc);
    else byEnds.set(key, [arc]);
    topo.ringArcs.push(arc);
  };
  for (let r = 0; r < q.rings; r++) {
    const s = starts[r];
    const n = starts[r + 1] - s;
    let first = -1;
    for (let k = 0; k < n && first < 0; k++) if (table.isJunction(s + k)) first = k;
    sequence.length = 0;
    if (first < 0) {
      // No junction: one closed arc, from the ring's least point (so equal rings compare equal).
      let least = 0;
      for (let k = 1; k < n; k++) {
        const a = s + k;
        const b = s + least;
        if (x[a] < x[b] || (x[a] === x[b] && y[a] < y[b])) least = k;
      }
      for (let k = 0; k <= n; k++) sequence.push(s + ((least + k) % n));
      keep();
    } else {
      sequence.push(s + first);
      for (let k = 1; k <= n; k++) {
        const i = s + ((first + k) % n);
        sequence.push(i);
        if (table.isJunction(i)) {
          keep();
          sequence.length = 0;
          sequence.push(i);
        }
      }
    }
    topo.ringArcStart.push(topo.ringArcs.length);
  }
  return topo;
}
