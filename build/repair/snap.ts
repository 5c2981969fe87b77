// Snapping and noding of a level's units, so that neighbours share their
// edges vertex for vertex (as GEOS's CoverageValidator wants them): a vertex
// within `eps` of another unit's vertex moves onto it, and a vertex within
// `eps` of another unit's segment is inserted into that segment. Coordinates
// are lon/lat degrees; `eps` is in degrees of latitude (a longitude step of
// `eps` is shorter on the ground, so nothing moves farther than that).
import type { MultiPolygon, Pair, Ring } from 'polygon-clipping';

/** Returns a small integer for grid cell (cx, cy), a hash: two cells that share one only add candidates, which are checked anyway. */
const cellKey = (cx: number, cy: number) => Math.imul(cx, 73_856_093) ^ Math.imul(cy, 19_349_663);

/** Adds `item` to the list of `key` in `cells`. */
function file<T>(cells: Map<number, T[]>, key: number, item: T): void {
  const cell = cells.get(key);
  if (cell) cell.push(item);
  else cells.set(key, [item]);
}

/** Moves each vertex within `eps` of a vertex of another unit onto it; returns how many moved. */
export function snapVertices(units: MultiPolygon[], eps: number): number {
  const grid = new Map<number, { p: Pair; unit: number }[]>();
  let moved = 0;
  units.forEach((mp, unit) => {
    for (const polygon of mp)
      for (const ring of polygon)
        for (const p of ring) {
          const cx = Math.floor(p[0] / eps);
          const cy = Math.floor(p[1] / eps);
          let best: Pair | undefined;
          let bestD = eps;
          for (let dx = -1; dx <= 1; dx++)
            for (let dy = -1; dy <= 1; dy++)
              for (const q of grid.get(cellKey(cx + dx, cy + dy)) ?? []) {
                if (q.unit === unit) continue;
                const d = Math.hypot(q.p[0] - p[0], q.p[1] - p[1]);
                if (d <= bestD) [best, bestD] = [q.p, d];
              }
          if (best) {
            if (best[0] !== p[0] || best[1] !== p[1]) moved++;
            [p[0], p[1]] = [best[0], best[1]];
          } else file(grid, cellKey(cx, cy), { p: [p[0], p[1]], unit });
        }
  });
  return moved;
}

/**
 * The segments of a level in a grid, to find those near a point. A cell is
 * as wide as the level's segments are long on average (so most segments
 * fall in one to four cells, e.g. 0.12° for us-atlas's counties), and never
 * narrower than `eps`, the distance asked about.
 */
export class SegmentGrid {
  private readonly cells = new Map<number, number[]>();
  private readonly cell: number;
  readonly segments: { a: Pair; b: Pair; unit: number }[] = [];

  constructor(units: MultiPolygon[], eps = 0) {
    let length = 0;
    units.forEach((mp, unit) => {
      for (const polygon of mp)
        for (const ring of polygon)
          for (let i = 0; i + 1 < ring.length; i++) {
            const [a, b] = [ring[i]!, ring[i + 1]!];
            this.segments.push({ a, b, unit });
            length += Math.hypot(b[0] - a[0], b[1] - a[1]);
          }
    });
    this.cell = Math.max(length / (this.segments.length || 1), eps, 1e-9);
    this.segments.forEach((seg, s) => this.add(seg.a, seg.b, s));
  }

  private add(a: Pair, b: Pair, s: number): void {
    const size = this.cell;
    const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
    // A long segment is indexed by pieces of about one cell, not by its whole bounding box.
    const pieces = Math.max(1, Math.ceil(Math.hypot(dx, dy) / size));
    let before: number[] = []; // the cells of the piece before: the only ones this piece can share
    for (let k = 0; k < pieces; k++) {
      const [x0, x1] = [a[0] + (dx * k) / pieces, a[0] + (dx * (k + 1)) / pieces];
      const [y0, y1] = [a[1] + (dy * k) / pieces, a[1] + (dy * (k + 1)) / pieces];
      const these: number[] = [];
      for (let cx = Math.floor(Math.min(x0, x1) / size); cx <= Math.floor(Math.max(x0, x1) / size); cx++)
        for (let cy = Math.floor(Math.min(y0, y1) / size); cy <= Math.floor(Math.max(y0, y1) / size); cy++) {
          const key = cellKey(cx, cy);
          these.push(key);
          if (!before.includes(key)) file(this.cells, key, s);
        }
      before = these;
    }
  }

  /** Returns the indexes of the segments that may lie within `r` (≤ one cell) of `p`, each once. */
  near(p: Pair, r: number): number[] {
    const size = this.cell;
    const [x0, x1] = [Math.floor((p[0] - r) / size), Math.floor((p[0] + r) / size)];
    const [y0, y1] = [Math.floor((p[1] - r) / size), Math.floor((p[1] + r) / size)];
    if (x0 === x1 && y0 === y1) return this.cells.get(cellKey(x0, y0)) ?? [];
    const found = new Set<number>();
    for (let cx = x0; cx <= x1; cx++)
      for (let cy = y0; cy <= y1; cy++) for (const s of this.cells.get(cellKey(cx, cy)) ?? []) found.add(s);
    return [...found];
  }
}

/** Returns the distance from `p` to segment ab and the parameter of the nearest point (0 at a, 1 at b). */
export function toSegment(p: Pair, a: Pair, b: Pair): { d: number; t: number } {
  const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2));
  return { d: Math.hypot(a[0] + t * dx - p[0], a[1] + t * dy - p[1]), t };
}

/**
 * Inserts into each segment every vertex of another unit that lies within
 * `eps` of it (but not at its ends), so that a vertex one neighbour has and
 * the other lacks (a T-junction) is shared; returns how many were inserted.
 */
export function nodeVertices(units: MultiPolygon[], eps: number): number {
  const grid = new SegmentGrid(units, eps);
  const inserts = new Map<number, { t: number; p: Pair }[]>(); // by segment
  units.forEach((mp, unit) => {
    for (const polygon of mp)
      for (const ring of polygon)
        for (const p of ring)
          for (const s of grid.near(p, eps)) {
            const seg = grid.segments[s]!;
            if (seg.unit === unit || same(p, seg.a) || same(p, seg.b)) continue;
            const { d, t } = toSegment(p, seg.a, seg.b);
            if (d > eps || t <= 0 || t >= 1) continue;
            const list = inserts.get(s) ?? [];
            if (!list.some((x) => same(x.p, p))) list.push({ t, p: [p[0], p[1]] });
            inserts.set(s, list);
          }
  });
  if (inserts.size === 0) return 0;
  let s = 0;
  let inserted = 0;
  for (const mp of units)
    for (const polygon of mp)
      for (let r = 0; r < polygon.length; r++) {
        const ring = polygon[r]!;
        const out: Ring = [];
        for (let i = 0; i + 1 < ring.length; i++, s++) {
          out.push(ring[i]!);
          const extra = (inserts.get(s) ?? []).sort((x, y) => x.t - y.t);
          for (const x of extra) out.push(x.p);
          inserted += extra.length;
        }
        out.push(ring[ring.length - 1]!);
        polygon[r] = out;
      }
  return inserted;
}

const same = (p: Pair, q: Pair) => p[0] === q[0] && p[1] === q[1];

/** Returns `units` without repeated consecutive vertices, rings of fewer than four positions, or polygons whose outer ring collapsed. */
export function cleanUnits(units: MultiPolygon[]): MultiPolygon[] {
  const clean = (ring: Ring) => ring.filter((p, i) => i === 0 || !same(p, ring[i - 1]!));
  return units.map((mp) =>
    mp.flatMap((polygon) => {
      const rings = polygon.map(clean);
      if (rings[0]!.length < 4) return [];
      return [[rings[0]!, ...rings.slice(1).filter((ring) => ring.length >= 4)]];
    }),
  );
}
