// The queues of the coverage simplifier (tpvw.ts). simplify() takes one
// arc's corners by area (CornerHeap). rank() keeps, from one tolerance to the
// next, the corners of every arc by the tolerance at which they may go (one
// binary min-heap per arc, each vertex in it at most once, all in two flat
// arrays) and the corners waiting for a vertex in their triangle to go: a
// pass at a larger tolerance then looks only at corners that may go, instead
// of every live vertex again.
import { IntList } from '../geo/topology.ts';

/** A binary min-heap of (area, vertex, stamp). */
export class CornerHeap {
  private keys = new Float64Array(64);
  private vertex = new Int32Array(64);
  private stamp = new Int32Array(64);
  size = 0;

  push(key: number, v: number, stamp: number): void {
    if (this.size === this.keys.length) {
      const grow = <T extends Float64Array | Int32Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(a.length * 2);
        b.set(a);
        return b;
      };
      this.keys = grow(this.keys);
      this.vertex = grow(this.vertex);
      this.stamp = grow(this.stamp);
    }
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.keys[parent] <= key) break;
      this.move(parent, i);
      i = parent;
    }
    this.keys[i] = key;
    this.vertex[i] = v;
    this.stamp[i] = stamp;
  }

  /** Removes the least entry; its fields are left in topKey, topVertex, topStamp. */
  pop(): void {
    this.topKey = this.keys[0];
    this.topVertex = this.vertex[0];
    this.topStamp = this.stamp[0];
    const last = --this.size;
    const key = this.keys[last];
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= last) break;
      if (child + 1 < last && this.keys[child + 1] < this.keys[child]) child++;
      if (this.keys[child] >= key) break;
      this.move(child, i);
      i = child;
    }
    this.move(last, i);
  }

  topKey = 0;
  topVertex = 0;
  topStamp = 0;

  private move(from: number, to: number): void {
    this.keys[to] = this.keys[from];
    this.vertex[to] = this.vertex[from];
    this.stamp[to] = this.stamp[from];
  }
}

/**
 * One binary min-heap per arc of the vertices of that arc, by keys[vertex],
 * all in one flat array (arc a's in its own vertices' range), each vertex in
 * at most one place, so that a changed key moves its vertex, not a copy.
 */
export class ArcHeaps {
  /** Vertices in the heap of each arc a: heap[arcStart[a] … arcStart[a] + size[a]). */
  readonly size: Int32Array;
  private readonly heap: Int32Array;
  private readonly at: Int32Array; // each vertex's place in `heap`, -1: in none

  /**
   * Puts every vertex i of arc a with a finite keys[i] in arc a's heap.
   * `keys` is read, never copied: after changing keys[i], call update().
   */
  constructor(
    private readonly arcStart: Int32Array,
    private readonly keys: Float64Array,
  ) {
    const arcs = arcStart.length - 1;
    this.size = new Int32Array(arcs);
    this.heap = new Int32Array(keys.length);
    this.at = new Int32Array(keys.length).fill(-1);
    for (let a = 0; a < arcs; a++) {
      const base = arcStart[a];
      let n = 0;
      for (let i = base; i < arcStart[a + 1]; i++) {
        if (keys[i] === Infinity) continue;
        this.heap[base + n] = i;
        this.at[i] = base + n++;
      }
      this.size[a] = n;
      for (let k = (n >> 1) - 1; k >= 0; k--) this.down(a, base + k);
    }
  }

  /** Returns the vertex of least key in arc a's heap (which must not be empty). */
  top(a: number): number {
    return this.heap[this.arcStart[a]];
  }

  /** Removes and returns the vertex of least key in arc a's heap (which must not be empty). */
  pop(a: number): number {
    const base = this.arcStart[a];
    const top = this.heap[base];
    this.at[top] = -1;
    const last = this.heap[base + --this.size[a]];
    if (this.size[a] > 0) {
      this.heap[base] = last;
      this.at[last] = base;
      this.down(a, base);
    }
    return top;
  }

  /** Puts vertex v (of arc a, in no heap) in arc a's heap. */
  push(a: number, v: number): void {
    const k = this.arcStart[a] + this.size[a]++;
    this.heap[k] = v;
    this.at[v] = k;
    this.up(a, k);
  }

  /** Puts vertex v of arc a in arc a's heap, or moves it to its place there after its key changed. */
  set(a: number, v: number): void {
    const k = this.at[v];
    if (k === -1) return this.push(a, v);
    this.up(a, k);
    this.down(a, this.at[v]);
  }

  private up(a: number, k: number): void {
    const { heap, at, keys } = this;
    const base = this.arcStart[a];
    const v = heap[k];
    const key = keys[v];
    while (k > base) {
      const parent = base + ((k - base - 1) >> 1);
      const p = heap[parent];
      if (keys[p] <= key) break;
      heap[k] = p;
      at[p] = k;
      k = parent;
    }
    heap[k] = v;
    at[v] = k;
  }

  private down(a: number, k: number): void {
    const { heap, at, keys } = this;
    const base = this.arcStart[a];
    const end = base + this.size[a];
    const v = heap[k];
    const key = keys[v];
    for (;;) {
      let child = base + 2 * (k - base) + 1;
      if (child >= end) break;
      if (child + 1 < end && keys[heap[child + 1]] < keys[heap[child]]) child++;
      const c = heap[child];
      if (keys[c] >= key) break;
      heap[k] = c;
      at[c] = k;
      k = child;
    }
    heap[k] = v;
    at[v] = k;
  }
}

/** Corners waiting for a vertex to go: per vertex, a linked list of corners, in two flat lists. */
export class Waiters {
  private readonly head: Int32Array; // each vertex's newest entry, -1: none
  private readonly corners = new IntList();
  private readonly link = new IntList(); // the next older entry of the same vertex, -1 at the end

  constructor(vertices: number) {
    this.head = new Int32Array(vertices).fill(-1);
  }

  /** Makes `corner` wait for vertex v. */
  add(v: number, corner: number): void {
    this.link.push(this.head[v]);
    this.head[v] = this.corners.length;
    this.corners.push(corner);
  }

  /** Returns the first entry of those waiting for v (-1: none), and forgets them; read them with cornerAt() and nextAt(). */
  take(v: number): number {
    const e = this.head[v];
    this.head[v] = -1;
    return e;
  }

  /** Returns the corner of entry e. */
  cornerAt(e: number): number {
    return this.corners.data[e];
  }

  /** Returns the entry after e in its list (-1: none). */
  nextAt(e: number): number {
    return this.link.data[e];
  }
}
