// The index of a coverage's vertices for the simplifier's one question, which
// vertices lie in a corner's box: a grid of square cells hashed into buckets
// (counting sort: two passes, no tree to build), with cells about twice the
// mean segment so that a corner's box covers a few. A box spanning more cells
// than MAX_CELLS (a long, thin corner across a large level) asks a packed
// R-tree instead, built on first need: the same answer, in about log n.
import { BoxTree } from '../geometry/box-tree.ts';

/** Most cells a query visits before it asks the R-tree. */
const MAX_CELLS = 64;

export class VertexGrid {
  /** The vertices the last query found (see query()). */
  found: Int32Array<ArrayBufferLike> = new Int32Array(64);
  private readonly cell: number; // cell side, in degrees
  private readonly mask: number;
  private readonly bucketStart: Int32Array; // bucket b's vertices are items[bucketStart[b] … bucketStart[b + 1])
  private readonly items: Int32Array;
  private tree: BoxTree | undefined;

  constructor(
    private readonly x: Float64Array,
    private readonly y: Float64Array,
    meanSegment: number,
  ) {
    const n = x.length;
    this.cell = meanSegment > 0 && Number.isFinite(meanSegment) ? 2 * meanSegment : 1;
    let size = 1024;
    while (size < n) size *= 2;
    this.mask = size - 1;
    const bucket = new Int32Array(n);
    this.bucketStart = new Int32Array(size + 1);
    for (let i = 0; i < n; i++) {
      bucket[i] = this.bucket(Math.floor(x[i] / this.cell), Math.floor(y[i] / this.cell));
      this.bucketStart[bucket[i] + 1]++;
    }
    for (let b = 0; b < size; b++) this.bucketStart[b + 1] += this.bucketStart[b];
    const fill = this.bucketStart.slice(0, size);
    this.items = new Int32Array(n);
    for (let i = 0; i < n; i++) this.items[fill[bucket[i]]++] = i;
  }

  private bucket(cx: number, cy: number): number {
    const h = Math.imul(cx | 0, 0x9e3779b1) ^ Math.imul(cy | 0, 0x85ebca77);
    return (h ^ (h >>> 15)) & this.mask;
  }

  /**
   * Returns how many vertices lie in the closed box [x0, x1] × [y0, y1],
   * their indexes in `found[0…count)` (valid until the next query).
   */
  query(x0: number, y0: number, x1: number, y1: number): number {
    const c0 = Math.floor(x0 / this.cell);
    const c1 = Math.floor(x1 / this.cell);
    const r0 = Math.floor(y0 / this.cell);
    const r1 = Math.floor(y1 / this.cell);
    if ((c1 - c0 + 1) * (r1 - r0 + 1) > MAX_CELLS) return this.treeQuery(x0, y0, x1, y1);
    const { x, y, items, bucketStart } = this;
    let count = 0;
    for (let cx = c0; cx <= c1; cx++) {
      for (let cy = r0; cy <= r1; cy++) {
        const b = this.bucket(cx, cy);
        for (let k = bucketStart[b]; k < bucketStart[b + 1]; k++) {
          const i = items[k];
          // A bucket holds other cells too: a vertex counts only in the box, from its own cell
          // (two cells of the box may share a bucket, and would list it twice).
          if (x[i] < x0 || x[i] > x1 || y[i] < y0 || y[i] > y1) continue;
          if (Math.floor(x[i] / this.cell) !== cx || Math.floor(y[i] / this.cell) !== cy) continue;
          if (count === this.found.length) {
            const bigger = new Int32Array(2 * count);
            bigger.set(this.found);
            this.found = bigger;
          }
          this.found[count++] = i;
        }
      }
    }
    return count;
  }

  private treeQuery(x0: number, y0: number, x1: number, y1: number): number {
    if (!this.tree) {
      const { x, y } = this;
      const boxes = new Float64Array(4 * x.length);
      for (let i = 0; i < x.length; i++) {
        boxes[4 * i] = boxes[4 * i + 2] = x[i];
        boxes[4 * i + 1] = boxes[4 * i + 3] = y[i];
      }
      this.tree = new BoxTree(boxes);
    }
    const count = this.tree.query(x0, y0, x1, y1);
    this.found = this.tree.found;
    return count;
  }
}
