// The index of a coverage's vertices for the simplifier's one question, which
// vertices lie in a corner's box: a grid of square cells hashed into buckets
// (counting sort: two passes, no tree to build), with cells about twice the
// mean segment so that a corner's box covers a few. The hash is the cells'
// Morton order, so that nearby cells have nearby buckets, and each bucket's
// coordinates are copied beside it: a query reads memory mostly in order. It
// may index only some vertices (those a simplification left). A box spanning
// more cells than MAX_CELLS (a long, thin corner across a large level) asks a
// packed R-tree of points instead (geometry/point-tree.ts), built on first
// need: the same answer, in about log n.
import { PointTree } from '../geometry/point-tree.ts';

/** Most cells a query visits before it asks the R-tree. */
const MAX_CELLS = 64;

export class VertexGrid {
  /** The vertices the last query found (see query()). */
  found: Int32Array<ArrayBufferLike> = new Int32Array(64);
  private readonly cell: number; // cell side, in degrees
  private readonly mask: number;
  private readonly bucketStart: Int32Array; // bucket b's vertices are items[bucketStart[b] … bucketStart[b + 1])
  private readonly items: Int32Array;
  private readonly itemX: Float64Array; // items' coordinates, in items' order
  private readonly itemY: Float64Array;
  private tree: PointTree | undefined;

  /** Indexes vertex i at (x[i], y[i]) for every i in `vertices` (all by default). */
  constructor(
    private readonly x: Float64Array,
    private readonly y: Float64Array,
    meanSegment: number,
    private readonly vertices?: Int32Array,
  ) {
    const n = vertices ? vertices.length : x.length;
    this.cell = meanSegment > 0 && Number.isFinite(meanSegment) ? 2 * meanSegment : 1;
    let size = 1024;
    while (size < n) size *= 2;
    this.mask = size - 1;
    const bucket = new Int32Array(n);
    this.bucketStart = new Int32Array(size + 1);
    for (let j = 0; j < n; j++) {
      const i = vertices ? vertices[j] : j;
      bucket[j] = this.bucket(Math.floor(x[i] / this.cell), Math.floor(y[i] / this.cell));
      this.bucketStart[bucket[j] + 1]++;
    }
    for (let b = 0; b < size; b++) this.bucketStart[b + 1] += this.bucketStart[b];
    const fill = this.bucketStart.slice(0, size);
    this.items = new Int32Array(n);
    this.itemX = new Float64Array(n);
    this.itemY = new Float64Array(n);
    for (let j = 0; j < n; j++) {
      const i = vertices ? vertices[j] : j;
      const k = fill[bucket[j]]++;
      this.items[k] = i;
      this.itemX[k] = x[i];
      this.itemY[k] = y[i];
    }
  }

  private bucket(cx: number, cy: number): number {
    return (spread(cx) | (spread(cy) << 1)) & this.mask;
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
    const { itemX, itemY, items, bucketStart } = this;
    let count = 0;
    for (let cy = r0; cy <= r1; cy++) {
      for (let cx = c0; cx <= c1; cx++) {
        const b = this.bucket(cx, cy);
        for (let k = bucketStart[b]; k < bucketStart[b + 1]; k++) {
          const vx = itemX[k];
          const vy = itemY[k];
          // A bucket holds other cells too: a vertex counts only in the box, from its own cell
          // (two cells of the box may share a bucket, and would list it twice).
          if (vx < x0 || vx > x1 || vy < y0 || vy > y1) continue;
          if (Math.floor(vx / this.cell) !== cx || Math.floor(vy / this.cell) !== cy) continue;
          const i = items[k];
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
    this.tree ??= new PointTree(this.x, this.y, this.vertices);
    const count = this.tree.query(x0, y0, x1, y1);
    this.found = this.tree.found;
    return count;
  }
}

/** Returns the low 16 bits of an integer spread to the even bits: interleaving two gives the Morton order. */
function spread(v: number): number {
  v &= 0xffff;
  v = (v | (v << 8)) & 0x00ff00ff;
  v = (v | (v << 4)) & 0x0f0f0f0f;
  v = (v | (v << 2)) & 0x33333333;
  return (v | (v << 1)) & 0x55555555;
}
