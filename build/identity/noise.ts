// The re-digitisation noise around each unit: the median offset ν of its k
// nearest other identity pairs of the level (0 for a pair whose geometry
// did not change). Judged against its neighbours rather than itself, a unit
// that moves, grows or shrinks while its neighbours stay put stands out,
// and a level redrawn everywhere (an independent source) still shows its
// noise. A uniform grid of the pairs' positions finds the neighbours.

/** Returns the median (the upper one for an even count) of `values`, NaN when empty. */
export function median(values: ArrayLike<number>): number {
  if (values.length === 0) return NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[sorted.length >> 1]!;
}

/**
 * Returns, for each point i of (xs[i], ys[i]) (metres), the median of
 * `values` over its `k` nearest other points (ties by index), NaN when it
 * has no other point.
 */
export function neighbourMedians(
  xs: Float64Array,
  ys: Float64Array,
  values: Float64Array,
  k: number,
): Float64Array {
  const n = xs.length;
  const out = new Float64Array(n).fill(NaN);
  if (n < 2 || k < 1) return out;
  const grid = new PointGrid(xs, ys);
  const best: number[] = []; // indexes of the nearest found so far, nearest first
  const d2 = (i: number, j: number) => (xs[i]! - xs[j]!) ** 2 + (ys[i]! - ys[j]!) ** 2;
  for (let i = 0; i < n; i++) {
    best.length = 0;
    grid.nearest(
      xs[i]!,
      ys[i]!,
      (j) => {
        if (j === i) return;
        const d = d2(i, j);
        if (best.length === k && d >= d2(i, best[k - 1]!)) return;
        let at = best.length === k ? k - 1 : best.length;
        best[at] = j;
        while (at > 0 && d < d2(i, best[at - 1]!)) {
          [best[at], best[at - 1]] = [best[at - 1]!, best[at]!];
          at--;
        }
      },
      () => (best.length === k ? Math.sqrt(d2(i, best[k - 1]!)) : Infinity),
    );
    out[i] = median(best.map((j) => values[j]!));
  }
  return out;
}

/** Points bucketed in a square grid of about two points per cell. */
class PointGrid {
  private readonly x0: number;
  private readonly y0: number;
  private readonly size: number;
  private readonly columns: number;
  private readonly rows: number;
  private readonly start: Int32Array; // points of cell c: items[start[c]] … items[start[c + 1] − 1]
  private readonly items: Int32Array;

  constructor(xs: Float64Array, ys: Float64Array) {
    const n = xs.length;
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let i = 0; i < n; i++) {
      x0 = Math.min(x0, xs[i]!);
      y0 = Math.min(y0, ys[i]!);
      x1 = Math.max(x1, xs[i]!);
      y1 = Math.max(y1, ys[i]!);
    }
    this.x0 = x0;
    this.y0 = y0;
    this.size = Math.max(
      Math.sqrt(((x1 - x0) * (y1 - y0)) / Math.max(1, n / 2)),
      (Math.max(x1 - x0, y1 - y0) || 1) / 1024,
      1e-9,
    );
    this.columns = Math.floor((x1 - x0) / this.size) + 1;
    this.rows = Math.floor((y1 - y0) / this.size) + 1;
    const cellOf = new Int32Array(n);
    this.start = new Int32Array(this.columns * this.rows + 1);
    for (let i = 0; i < n; i++) {
      cellOf[i] = this.cell(xs[i]!, ys[i]!);
      this.start[cellOf[i]! + 1]!++;
    }
    for (let c = 0; c < this.columns * this.rows; c++) this.start[c + 1]! += this.start[c]!;
    const fill = this.start.slice(0, -1);
    this.items = new Int32Array(n);
    for (let i = 0; i < n; i++) this.items[fill[cellOf[i]!]!++] = i;
  }

  private cell(x: number, y: number): number {
    const cx = Math.min(this.columns - 1, Math.floor((x - this.x0) / this.size));
    const cy = Math.min(this.rows - 1, Math.floor((y - this.y0) / this.size));
    return cy * this.columns + cx;
  }

  /**
   * Hands `visit` the points ring by ring of cells around (x, y), until
   * `reach()` (the distance the caller still needs to look) lies inside the
   * rings already visited.
   */
  nearest(x: number, y: number, visit: (j: number) => void, reach: () => number): void {
    const cx = Math.min(this.columns - 1, Math.floor((x - this.x0) / this.size));
    const cy = Math.min(this.rows - 1, Math.floor((y - this.y0) / this.size));
    const most = Math.max(this.columns, this.rows);
    for (let r = 0; r <= most; r++) {
      // Every point outside rings 0…r−1 is at least (r − 1)·size away.
      if (r > 1 && (r - 1) * this.size > reach()) return;
      for (let j = cy - r; j <= cy + r; j++) {
        if (j < 0 || j >= this.rows) continue;
        const step = j === cy - r || j === cy + r ? 1 : 2 * r;
        for (let i = cx - r; i <= cx + r; i += step || 1) {
          if (i < 0 || i >= this.columns) continue;
          const c = j * this.columns + i;
          for (let s = this.start[c]!; s < this.start[c + 1]!; s++) visit(this.items[s]!);
        }
      }
    }
  }
}
