// Distances between two drawings of a unit, in metres: the discrete
// Hausdorff distance (as GEOS's DiscreteHausdorffDistance: the largest
// distance from a vertex of one shape to the other's boundary, both ways)
// and the pair's typical offset ν, the median of every vertex's distance to
// the other shape near where it should be: 0 when the two share their
// vertices, tens of metres for two independent digitisations of one line.
import type { Shape } from './shape.ts';

/** Edges on each side of the scan's start that every vertex measures (the local window for ν). */
const WINDOW = 3;
let local = new Float64Array(4096);

/** Squared distance from (px, py) (relative to a segment's start) to the segment (0,0)→(dx, dy). */
function segmentDistance2(px: number, py: number, dx: number, dy: number): number {
  const l = dx * dx + dy * dy;
  let t = l === 0 ? 0 : (px * dx + py * dy) / l;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  const ex = px - t * dx;
  const ey = py - t * dy;
  return ex * ex + ey * ey;
}

/**
 * Returns the directed distance A → B and the count of local distances
 * written from `at`. Early break (Taha & Hanbury 2015): a vertex whose
 * distance to some edge is already at most the maximum cannot raise it; the
 * scan starts at the edge nearest the previous vertex, so most vertices cost O(1).
 */
function directed(A: Shape, B: Shape, kx: number, ky: number, at: number): [number, number] {
  const a = A.xy;
  const b = B.xy;
  const segs = B.segs;
  const m = segs.length;
  const w = Math.min(m, 2 * WINDOW + 1);
  let worst2 = 0;
  let hint = 0;
  let n = at;
  for (let r = 0; r + 1 < A.ringStart.length; r++) {
    for (let i = A.ringStart[r], end = A.ringStart[r + 1] - 1; i < end; i++) {
      const px = a[2 * i];
      const py = a[2 * i + 1];
      let best = Infinity;
      let bestAt = hint;
      for (let step = 0; step < m; step++) {
        const k = (step & 1 ? hint + ((step + 1) >> 1) : hint - (step >> 1) + m) % m;
        const s = segs[k];
        const x1 = b[2 * s];
        const y1 = b[2 * s + 1];
        const d = segmentDistance2(
          (px - x1) * kx,
          (py - y1) * ky,
          (b[2 * s + 2] - x1) * kx,
          (b[2 * s + 3] - y1) * ky,
        );
        if (d < best) {
          best = d;
          bestAt = k;
        }
        if (step + 1 === w) {
          if (n === local.length) {
            const grown = new Float64Array(n * 2);
            grown.set(local);
            local = grown;
          }
          local[n++] = best;
        }
        if (step + 1 >= w && best <= worst2) break;
      }
      hint = bestAt;
      if (best > worst2) worst2 = best;
    }
  }
  return [Math.sqrt(worst2), n];
}

/** Returns the k-th smallest value of `a` (reordering it). */
function quickselect(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k];
  }
  return a[k] ?? 0;
}

/**
 * Returns the discrete Hausdorff distance between A and B and their typical
 * offset ν; `kx`, `ky` scale degrees to metres (scaleAt in shape.ts).
 */
export function hausdorffAndOffset(
  A: Shape,
  B: Shape,
  kx = 1,
  ky = 1,
): { hausdorff: number; offset: number } {
  const [h1, n1] = directed(A, B, kx, ky, 0);
  const [h2, n] = directed(B, A, kx, ky, n1);
  return { hausdorff: Math.max(h1, h2), offset: Math.sqrt(quickselect(local.subarray(0, n), n >> 1)) };
}

/** Returns the perimeter of every ring of S (in metres with kx, ky). */
export function perimeter(S: Shape, kx = 1, ky = 1): number {
  let p = 0;
  for (const i of S.segs) {
    p += Math.hypot((S.xy[2 * i + 2] - S.xy[2 * i]) * kx, (S.xy[2 * i + 3] - S.xy[2 * i + 1]) * ky);
  }
  return p;
}
