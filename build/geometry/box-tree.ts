// A static packed R-tree over axis-aligned boxes (as GEOS's HPRtree): items
// sorted along a Hilbert curve by their centres, 8 to a node, each level's
// node boxes enclosing the level below. Built in O(n) (a radix sort of the
// curve positions) and queried in about O(log n + k) for boxes that do not
// all overlap, whatever their shape: the index behind every check here that
// would otherwise test all pairs (chains, holes, polygons, segments).
// Hand-written rather than flatbush (the same design): the checks need its
// result buffer, its `limit` and its work counter (./limits.ts). On 1,000,000
// boxes it builds in 1.1–1.5× flatbush's time and answers window queries in
// 0.5–0.6× (bench:libraries, 2026-11-27, load 12–16).

import { work } from './limits.ts';
import { hilbert } from '../core/hilbert.ts';

export const NODE = 8;
const CURVE_BITS = 16; // a 65,536 × 65,536 grid over the items' extent

export class BoxTree {
  /** The items the last query found (see query()). */
  found: Int32Array = new Int32Array(64);
  private readonly items: Int32Array; // item ids in curve order (level 0)
  // Every node's box as minX, minY, maxX, maxY, level by level, the items'
  // own boxes first: one cache line holds two boxes.
  private readonly box: Float64Array;
  private readonly levelStart: number[] = []; // the first node of each level
  private readonly nodes: Int32Array; // the query's stack: nodes…
  private readonly levels: Int32Array; // …and their levels

  /** `boxes`: item i's box is boxes[4i…4i+3] = minX, minY, maxX, maxY. */
  constructor(boxes: Float64Array) {
    const n = boxes.length >> 2;
    this.items = curveOrder(boxes, n);
    let total = 0;
    for (let size = n; ; size = Math.ceil(size / NODE)) {
      this.levelStart.push(total);
      total += size;
      if (size <= 1) break;
    }
    const box = new Float64Array(4 * total);
    for (let k = 0; k < n; k++) {
      const item = 4 * this.items[k]!;
      box[4 * k] = boxes[item]!;
      box[4 * k + 1] = boxes[item + 1]!;
      box[4 * k + 2] = boxes[item + 2]!;
      box[4 * k + 3] = boxes[item + 3]!;
    }
    const starts = this.levelStart;
    for (let level = 1; level < starts.length; level++) {
      const from = starts[level - 1]!;
      const to = starts[level]!;
      for (let child = from; child < to; child++) {
        const node = 4 * (to + Math.floor((child - from) / NODE));
        const first = (child - from) % NODE === 0;
        if (first || box[4 * child]! < box[node]!) box[node] = box[4 * child]!;
        if (first || box[4 * child + 1]! < box[node + 1]!) box[node + 1] = box[4 * child + 1]!;
        if (first || box[4 * child + 2]! > box[node + 2]!) box[node + 2] = box[4 * child + 2]!;
        if (first || box[4 * child + 3]! > box[node + 3]!) box[node + 3] = box[4 * child + 3]!;
      }
    }
    this.box = box;
    this.nodes = new Int32Array(NODE * starts.length + 1);
    this.levels = new Int32Array(NODE * starts.length + 1);
  }

  /**
   * Returns how many items' boxes meet the closed box [x0, x1] × [y0, y1],
   * their ids in `found[0…count)` (valid until the next query), in no
   * particular order; -1 as soon as more than `limit` are found.
   */
  query(x0: number, y0: number, x1: number, y1: number, limit = Infinity): number {
    const { box, levelStart, nodes, levels, items } = this;
    const top = levelStart.length - 1;
    const root = levelStart[top]!;
    if (items.length === 0) return 0;
    if (box[4 * root]! > x1 || box[4 * root + 1]! > y1 || box[4 * root + 2]! < x0 || box[4 * root + 3]! < y0)
      return 0;
    if (top === 0) {
      this.found[0] = items[0]!;
      return 1;
    }
    let found = this.found;
    let count = 0;
    let tested = 0;
    let depth = 0;
    nodes[depth] = root;
    levels[depth++] = top;
    // A node popped meets the query box: its children are tested here, and
    // those that meet it too are pushed (nodes) or listed (items).
    while (depth > 0) {
      const node = nodes[--depth]!;
      const level = levels[depth]!;
      const first = levelStart[level - 1]! + (node - levelStart[level]!) * NODE;
      const last = Math.min(first + NODE, levelStart[level]!);
      tested += last - first;
      for (let c = first; c < last; c++) {
        const k = 4 * c;
        if (box[k]! > x1 || box[k + 1]! > y1 || box[k + 2]! < x0 || box[k + 3]! < y0) continue;
        if (level > 1) {
          nodes[depth] = c;
          levels[depth++] = level - 1;
        } else {
          if (count === limit) {
            work.tests += tested;
            return -1;
          }
          if (count === found.length) found = this.found = grow(found);
          found[count++] = items[c]!;
        }
      }
    }
    work.tests += tested;
    return count;
  }
}

/** Returns the item ids sorted by the Hilbert-curve position of their boxes' centres. */
function curveOrder(boxes: Float64Array, n: number): Int32Array {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let i = 0; i < n; i++) {
    const cx = (boxes[4 * i]! + boxes[4 * i + 2]!) / 2;
    const cy = (boxes[4 * i + 1]! + boxes[4 * i + 3]!) / 2;
    if (cx < x0) x0 = cx;
    if (cx > x1) x1 = cx;
    if (cy < y0) y0 = cy;
    if (cy > y1) y1 = cy;
  }
  const cells = (1 << CURVE_BITS) - 1;
  const sx = x1 > x0 ? cells / (x1 - x0) : 0;
  const sy = y1 > y0 ? cells / (y1 - y0) : 0;
  const keys = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const cx = (boxes[4 * i]! + boxes[4 * i + 2]!) / 2;
    const cy = (boxes[4 * i + 1]! + boxes[4 * i + 3]!) / 2;
    keys[i] = hilbert(Math.floor((cx - x0) * sx), Math.floor((cy - y0) * sy));
  }
  return radixSort(keys);
}

/**
 * Returns 0…n−1 ordered by keys (stable: an LSD radix sort, 11 bits a pass).
 * The keys move with their items, so each pass reads them in order, not
 * scattered (2.6× flatbush's build time before, on 1,000,000 boxes: bench:libraries).
 */
export function radixSort(keys: Uint32Array): Int32Array {
  const n = keys.length;
  let order = new Int32Array(n);
  let next = new Int32Array(n);
  let key: Uint32Array = keys; // sorted in place: the caller made them for this sort
  let nextKey: Uint32Array = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const counts = new Int32Array(2049);
  for (let shift = 0; shift < 32; shift += 11) {
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[((key[i]! >>> shift) & 2047) + 1]!++;
    for (let b = 1; b <= 2048; b++) counts[b]! += counts[b - 1]!;
    for (let i = 0; i < n; i++) {
      const k = key[i]!;
      const at = counts[(k >>> shift) & 2047]!++;
      next[at] = order[i]!;
      nextKey[at] = k;
    }
    [order, next] = [next, order];
    [key, nextKey] = [nextKey, key];
  }
  return order;
}

/** Sorts a[0…n) ascending: by insertion when short (a query's usual handful), else natively. */
export function sortAscending(a: Int32Array, n: number): void {
  if (n > 16) {
    a.subarray(0, n).sort();
    return;
  }
  for (let i = 1; i < n; i++) {
    const v = a[i]!;
    let j = i - 1;
    while (j >= 0 && a[j]! > v) {
      a[j + 1] = a[j]!;
      j--;
    }
    a[j + 1] = v;
  }
}

/** Returns a copy of `a` twice as long (a result list that grows). */
export function grow(a: Int32Array): Int32Array {
  const bigger = new Int32Array(2 * a.length);
  bigger.set(a);
  return bigger;
}
