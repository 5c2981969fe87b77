// BoxTree (box-tree.ts) over points, without a box per point: the points
// are sorted along the same Hilbert curve, eight to a node, and the nodes
// above them get boxes as in BoxTree, but a leaf tests the point's own
// coordinates. A query finds the same points in the same order as a BoxTree
// over the points' degenerate boxes (test/geometry/point-tree.test.ts), for
// ~9 bytes a point instead of ~41, and no 32-byte box per point to make it
// from: the simplifier's vertex grid (build/simplify/vertex-grid.ts) falls
// back on one over every vertex of a country (issue 28 §1: a third of the
// simplified copies' peak, bench:large-level).
import { grow, radixSort, NODE } from './box-tree.ts';
import { hilbert } from '../core/hilbert.ts';
import { work } from './limits.ts';

const CURVE_BITS = 16; // as BoxTree's

export class PointTree {
  /** The points the last query found (see query()): their ids in `x`/`y`. */
  found: Int32Array = new Int32Array(64);
  private readonly items: Int32Array; // point ids in curve order (level 0)
  private readonly box: Float64Array; // the boxes of the nodes of levels 1 up: node c's at 4 (c − n)
  private readonly levelStart: number[] = []; // the first node of each level, level 0 being the points
  private readonly nodes: Int32Array; // the query's stack: nodes…
  private readonly levels: Int32Array; // …and their levels

  /** Indexes the points (x[i], y[i]) for every i in `ids` (every point by default). */
  constructor(
    private readonly x: Float64Array,
    private readonly y: Float64Array,
    ids?: Int32Array,
  ) {
    this.items = curveOrder(x, y, ids);
    const n = this.items.length;
    let total = 0;
    for (let size = n; ; size = Math.ceil(size / NODE)) {
      this.levelStart.push(total);
      total += size;
      if (size <= 1) break;
    }
    const box = new Float64Array(4 * (total - n));
    const starts = this.levelStart;
    for (let level = 1; level < starts.length; level++) {
      const from = starts[level - 1]!;
      const to = starts[level]!;
      for (let child = from; child < to; child++) {
        const node = 4 * (to + Math.floor((child - from) / NODE) - n);
        const first = (child - from) % NODE === 0;
        // Level 1's children are the points themselves; a higher level's are nodes with boxes.
        const i = level === 1 ? this.items[child]! : 0;
        const k = 4 * (child - n);
        const minX = level === 1 ? x[i]! : box[k]!;
        const minY = level === 1 ? y[i]! : box[k + 1]!;
        const maxX = level === 1 ? x[i]! : box[k + 2]!;
        const maxY = level === 1 ? y[i]! : box[k + 3]!;
        if (first || minX < box[node]!) box[node] = minX;
        if (first || minY < box[node + 1]!) box[node + 1] = minY;
        if (first || maxX > box[node + 2]!) box[node + 2] = maxX;
        if (first || maxY > box[node + 3]!) box[node + 3] = maxY;
      }
    }
    this.box = box;
    this.nodes = new Int32Array(NODE * starts.length + 1);
    this.levels = new Int32Array(NODE * starts.length + 1);
  }

  /**
   * Returns how many points lie in the closed box [x0, x1] × [y0, y1], their
   * ids in `found[0…count)` (valid until the next query), in BoxTree's order.
   */
  query(x0: number, y0: number, x1: number, y1: number): number {
    const { box, levelStart, nodes, levels, items, x, y } = this;
    const n = items.length;
    const top = levelStart.length - 1;
    if (n === 0) return 0;
    if (top === 0) {
      const i = items[0]!;
      if (x[i]! > x1 || y[i]! > y1 || x[i]! < x0 || y[i]! < y0) return 0;
      this.found[0] = i;
      return 1;
    }
    const root = 4 * (levelStart[top]! - n);
    if (box[root]! > x1 || box[root + 1]! > y1 || box[root + 2]! < x0 || box[root + 3]! < y0) return 0;
    let found = this.found;
    let count = 0;
    let tested = 0;
    let depth = 0;
    nodes[depth] = levelStart[top]!;
    levels[depth++] = top;
    while (depth > 0) {
      const node = nodes[--depth]!;
      const level = levels[depth]!;
      const first = levelStart[level - 1]! + (node - levelStart[level]!) * NODE;
      const last = Math.min(first + NODE, levelStart[level]!);
      tested += last - first;
      for (let c = first; c < last; c++) {
        if (level > 1) {
          const k = 4 * (c - n);
          if (box[k]! > x1 || box[k + 1]! > y1 || box[k + 2]! < x0 || box[k + 3]! < y0) continue;
          nodes[depth] = c;
          levels[depth++] = level - 1;
        } else {
          const i = items[c]!;
          if (x[i]! > x1 || y[i]! > y1 || x[i]! < x0 || y[i]! < y0) continue;
          if (count === found.length) found = this.found = grow(found);
          found[count++] = i;
        }
      }
    }
    work.tests += tested;
    return count;
  }
}

/** Returns the ids (`ids`, or 0…x.length−1) sorted by the Hilbert-curve position of their points, as BoxTree sorts their boxes. */
function curveOrder(x: Float64Array, y: Float64Array, ids?: Int32Array): Int32Array {
  const n = ids ? ids.length : x.length;
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let j = 0; j < n; j++) {
    const i = ids ? ids[j]! : j;
    if (x[i]! < x0) x0 = x[i]!;
    if (x[i]! > x1) x1 = x[i]!;
    if (y[i]! < y0) y0 = y[i]!;
    if (y[i]! > y1) y1 = y[i]!;
  }
  const cells = (1 << CURVE_BITS) - 1;
  const sx = x1 > x0 ? cells / (x1 - x0) : 0;
  const sy = y1 > y0 ? cells / (y1 - y0) : 0;
  const keys = new Uint32Array(n);
  for (let j = 0; j < n; j++) {
    const i = ids ? ids[j]! : j;
    keys[j] = hilbert(Math.floor((x[i]! - x0) * sx), Math.floor((y[i]! - y0) * sy));
  }
  const order = radixSort(keys);
  if (ids) for (let k = 0; k < n; k++) order[k] = ids[order[k]!]!;
  return order;
}
