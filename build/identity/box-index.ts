// A static grid over the boxes of every polygon of a set of shapes: which
// shapes have a part whose box meets a query box. Built once per level in
// two passes into flat arrays (no per-cell lists); a multipolygon is listed
// per part, so an archipelago's far islands do not make it a candidate
// everywhere between them.
import type { Box, Shape } from './shape.ts';

export class BoxIndex {
  private readonly cellStart: Int32Array;
  private readonly items: Int32Array;
  private readonly x0: number;
  private readonly y0: number;
  private readonly cw: number;
  private readonly ch: number;
  private readonly nx: number;
  private readonly ny: number;
  private readonly stamp: Int32Array;
  private tick = 0;
  private readonly r: [number, number, number, number] = [0, 0, 0, 0];

  /** Indexes `shapes` (an entry may be undefined: a unit without area), each by its position. */
  constructor(private readonly shapes: (Shape | undefined)[]) {
    let [w, s, e, n, parts] = [Infinity, Infinity, -Infinity, -Infinity, 0];
    for (const shape of shapes) {
      for (const b of shape?.partBoxes ?? []) {
        [w, s, e, n] = [Math.min(w, b[0]), Math.min(s, b[1]), Math.max(e, b[2]), Math.max(n, b[3])];
        parts++;
      }
    }
    const side = Math.max(1, Math.sqrt(parts));
    const W = e - w || 1;
    const H = n - s || 1;
    this.nx = Math.max(1, Math.round(side * Math.sqrt(W / H)));
    this.ny = Math.max(1, Math.round(side * Math.sqrt(H / W)));
    this.x0 = Number.isFinite(w) ? w : 0;
    this.y0 = Number.isFinite(s) ? s : 0;
    this.cw = W / this.nx;
    this.ch = H / this.ny;
    const cells = this.nx * this.ny;
    const cellStart = new Int32Array(cells + 1);
    this.eachCell((cell) => cellStart[cell + 1]++);
    for (let c = 0; c < cells; c++) cellStart[c + 1] += cellStart[c];
    const fill = cellStart.slice();
    const items = new Int32Array(cellStart[cells]);
    this.eachCell((cell, i) => (items[fill[cell]++] = i));
    this.cellStart = cellStart;
    this.items = items;
    this.stamp = new Int32Array(shapes.length);
  }

  private eachCell(visit: (cell: number, shape: number) => void): void {
    this.shapes.forEach((shape, i) => {
      for (const b of shape?.partBoxes ?? []) {
        const [X0, X1, Y0, Y1] = this.range(b);
        for (let Y = Y0; Y <= Y1; Y++) for (let X = X0; X <= X1; X++) visit(Y * this.nx + X, i);
      }
    });
  }

  /** Returns the cell range [X0, X1, Y0, Y1] of box b (in a reused array). */
  private range(b: ArrayLike<number>): [number, number, number, number] {
    const r = this.r;
    const nx = this.nx - 1;
    const ny = this.ny - 1;
    const clamp = (v: number, max: number) => Math.min(max, Math.max(0, Math.floor(v)));
    r[0] = clamp((b[0] - this.x0) / this.cw, nx);
    r[1] = clamp((b[2] - this.x0) / this.cw, nx);
    r[2] = clamp((b[1] - this.y0) / this.ch, ny);
    r[3] = clamp((b[3] - this.y0) / this.ch, ny);
    return r;
  }

  /** Returns the positions of the shapes with a part box meeting one of `boxes`, each once. */
  query(boxes: Box[]): number[] {
    const out: number[] = [];
    const t = ++this.tick;
    for (const q of boxes) {
      const [X0, X1, Y0, Y1] = this.range(q);
      for (let Y = Y0; Y <= Y1; Y++) {
        for (let X = X0; X <= X1; X++) {
          const cell = Y * this.nx + X;
          for (let k = this.cellStart[cell]; k < this.cellStart[cell + 1]; k++) {
            const i = this.items[k];
            if (this.stamp[i] === t) continue;
            for (const b of this.shapes[i]!.partBoxes) {
              if (b[0] <= q[2] && q[0] <= b[2] && b[1] <= q[3] && q[1] <= b[3]) {
                this.stamp[i] = t;
                out.push(i);
                break;
              }
            }
          }
        }
      }
    }
    return out;
  }
}
