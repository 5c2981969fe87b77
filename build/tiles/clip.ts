// Clips a polygon ring to an axis-aligned box (Sutherland-Hodgman, one edge
// of the box at a time), as a tile's content: the ring within the tile and its
// buffer. A ring crossing the box leaves and re-enters along the box's edges;
// those edges lie in the buffer, outside the tile the map shows. A segment is
// cut at the same point whichever way it runs, so two neighbours sharing it
// are cut alike.

/** A box [x0, y0, x1, y1]. */
export type Box = [number, number, number, number];

/** A growable pair of coordinate arrays, with a weight per point (a cut point's is Infinity: always kept). */
class Points {
  x = new Float64Array(256);
  y = new Float64Array(256);
  w = new Float64Array(256);
  n = 0;
  push(x: number, y: number, w: number): void {
    if (this.n === this.x.length) {
      const grow = (a: Float64Array) => {
        const b = new Float64Array(this.n * 2);
        b.set(a);
        return b;
      };
      [this.x, this.y, this.w] = [grow(this.x), grow(this.y), grow(this.w)];
    }
    this.x[this.n] = x;
    this.y[this.n] = y;
    this.w[this.n++] = w;
  }
}

export class RingClipper {
  private a = new Points();
  private b = new Points();

  /**
   * Returns ring [s, e) of `xs`/`ys` (open: the last point joins the first)
   * clipped to `box`, as the first `n` entries of `x`/`y` (valid until the
   * next call); n is 0 when nothing of it is inside. With `ws`, each point's
   * weight goes along into `w` (mercator-pyramid.ts).
   */
  clip(
    xs: ArrayLike<number>,
    ys: ArrayLike<number>,
    s: number,
    e: number,
    box: Box,
    ws?: ArrayLike<number>,
  ): { x: Float64Array; y: Float64Array; w: Float64Array; n: number } {
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let i = s; i < e; i++) {
      if (xs[i] < x0) x0 = xs[i];
      if (xs[i] > x1) x1 = xs[i];
      if (ys[i] < y0) y0 = ys[i];
      if (ys[i] > y1) y1 = ys[i];
    }
    let src = this.a;
    src.n = 0;
    if (x1 < box[0] || x0 > box[2] || y1 < box[1] || y0 > box[3]) return src;
    for (let i = s; i < e; i++) src.push(xs[i], ys[i], ws ? ws[i] : 0);
    if (x0 >= box[0] && x1 <= box[2] && y0 >= box[1] && y1 <= box[3]) return src;
    let dst = this.b;
    for (const [axis, bound, keepAbove] of [
      [0, box[0], true],
      [0, box[2], false],
      [1, box[1], true],
      [1, box[3], false],
    ] as const) {
      dst.n = 0;
      clipEdge(src, dst, axis, bound, keepAbove);
      [src, dst] = [dst, src];
      if (src.n === 0) break;
    }
    return src;
  }
}

/** One Sutherland-Hodgman pass: keeps the part of `src` on one side of the line coordinate[axis] = bound. */
function clipEdge(src: Points, dst: Points, axis: 0 | 1, bound: number, keepAbove: boolean): void {
  const n = src.n;
  if (n === 0) return;
  const c = axis === 0 ? src.x : src.y;
  const inside = (i: number) => (keepAbove ? c[i] >= bound : c[i] <= bound);
  let prev = n - 1;
  let prevIn = inside(prev);
  for (let i = 0; i < n; i++) {
    const isIn = inside(i);
    if (isIn !== prevIn) cut(src, dst, prev, i, axis, bound);
    if (isIn) dst.push(src.x[i], src.y[i], src.w[i]);
    prev = i;
    prevIn = isIn;
  }
}

/** Pushes where segment p–q meets the line coordinate[axis] = bound, computed from its lesser end. */
function cut(src: Points, dst: Points, p: number, q: number, axis: 0 | 1, bound: number): void {
  let [ax, ay, bx, by] = [src.x[p], src.y[p], src.x[q], src.y[q]];
  if (ax > bx || (ax === bx && ay > by)) [ax, ay, bx, by] = [bx, by, ax, ay];
  if (axis === 0) {
    const t = (bound - ax) / (bx - ax);
    dst.push(bound, ay + t * (by - ay), Infinity);
  } else {
    const t = (bound - ay) / (by - ay);
    dst.push(ax + t * (bx - ax), bound, Infinity);
  }
}
