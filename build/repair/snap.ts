// Snapping and noding of a level's units, so that neighbours share their
// edges vertex for vertex (as GEOS's CoverageValidator wants them): a vertex
// within `eps` of another unit's vertex moves onto it, and a vertex within
// `eps` of another unit's segment is inserted into that segment. Coordinates
// are lon/lat degrees; `eps` is in degrees of latitude (a longitude step of
// `eps` is shorter on the ground, so nothing moves farther than that).
import type { MultiPolygon, Pair, Ring } from 'polygon-clipping';

/** Cell size of the segment grid, in degrees (about 1 km): most segments fall in one to four cells. */
const CELL = 0.01;

/** Moves each vertex within `eps` of a vertex of another unit onto it; returns how many moved. */
export function snapVertices(units: MultiPolygon[], eps: number): number {
  const grid = new Map<string, { p: Pair; unit: number }[]>();
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
              for (const q of grid.get(`${cx + dx},${cy + dy}`) ?? []) {
                if (q.unit === unit) continue;
                const d = Math.hypot(q.p[0] - p[0], q.p[1] - p[1]);
                if (d <= bestD) [best, bestD] = [q.p, d];
              }
          if (best) {
            if (best[0] !== p[0] || best[1] !== p[1]) moved++;
            [p[0], p[1]] = [best[0], best[1]];
          } else {
            const key = `${cx},${cy}`;
            grid.set(key, [...(grid.get(key) ?? []), { p: [p[0], p[1]], unit }]);
          }
        }
  });
  return moved;
}

/** The segments of a level in a grid, to find those near a point. */
export class SegmentGrid {
  private cells = new Map<string, number[]>();
  readonly segments: { a: Pair; b: Pair; unit: number }[] = [];

  constructor(units: MultiPolygon[]) {
    units.forEach((mp, unit) => {
      for (const polygon of mp)
        for (const ring of polygon)
          for (let i = 0; i + 1 < ring.length; i++) this.add(ring[i]!, ring[i + 1]!, unit);
    });
  }

  private add(a: Pair, b: Pair, unit: number): void {
    const s = this.segments.push({ a, b, unit }) - 1;
    // A long segment is indexed by pieces of about one cell, not by its whole bounding box.
    const pieces = Math.max(1, Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1]) / CELL));
    const seen = new Set<string>();
    for (let k = 0; k < pieces; k++) {
      const [t0, t1] = [k / pieces, (k + 1) / pieces];
      const xs = [a[0] + (b[0] - a[0]) * t0, a[0] + (b[0] - a[0]) * t1];
      const ys = [a[1] + (b[1] - a[1]) * t0, a[1] + (b[1] - a[1]) * t1];
      for (let cx = Math.floor(Math.min(...xs) / CELL); cx <= Math.floor(Math.max(...xs) / CELL); cx++)
        for (let cy = Math.floor(Math.min(...ys) / CELL); cy <= Math.floor(Math.max(...ys) / CELL); cy++) {
          const key = `${cx},${cy}`;
          if (seen.has(key)) continue;
          seen.add(key);
          this.cells.set(key, [...(this.cells.get(key) ?? []), s]);
        }
    }
  }

  /** Returns the indexes of the segments that may lie within `r` (≤ one cell) of `p`. */
  near(p: Pair, r: number): number[] {
    const found = new Set<number>();
    for (let cx = Math.floor((p[0] - r) / CELL); cx <= Math.floor((p[0] + r) / CELL); cx++)
      for (let cy = Math.floor((p[1] - r) / CELL); cy <= Math.floor((p[1] + r) / CELL); cy++)
        for (const s of this.cells.get(`${cx},${cy}`) ?? []) found.add(s);
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
  const grid = new SegmentGrid(units);
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
