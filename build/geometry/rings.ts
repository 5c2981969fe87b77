// The shape the validity checks work on: every ring of one Polygon or
// MultiPolygon in two flat coordinate arrays, with repeated consecutive
// points removed (GEOS removes them too: they are not an error).
import type { FlatGeometry } from './parse-geometry.ts';

/** One ring of a polygonal geometry, as points [start, end] of `Rings.xs/ys` (end = start: closed). */
export interface Ring {
  start: number; // index of its first point in xs/ys
  end: number; // index of its last point, equal to the first
  polygon: number; // index of its polygon in Rings.polygons (empty polygons are left out)
  source: number; // index of its polygon in the MultiPolygon's coordinates, 0 in a Polygon
  index: number; // 0 for the shell, 1… for holes (the GeoJSON ring index)
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  raw1x: number; // the second position as written, repeats included (GEOS tests it)
  raw1y: number;
  ccw: boolean | undefined; // orientation, computed when first needed
}

export interface Rings {
  xs: Float64Array;
  ys: Float64Array;
  rings: Ring[];
  polygons: Ring[][]; // per polygon, shell first
}

let poolX = new Float64Array(1 << 16);
let poolY = new Float64Array(1 << 16);

/**
 * Returns the rings of a flat geometry with repeated consecutive points
 * dropped. Every ring must be closed and have at least 4 positions (checked
 * before).
 */
export function collectRings(f: FlatGeometry): Rings {
  const src = f.xy;
  // Reused from feature to feature (views valid until the next call): fresh
  // arrays per feature were most of the garbage collector's work.
  if (poolX.length < f.positions) {
    poolX = new Float64Array(2 * f.positions);
    poolY = new Float64Array(2 * f.positions);
  }
  const xs = poolX.subarray(0, f.positions);
  const ys = poolY.subarray(0, f.positions);
  const rings: Ring[] = [];
  const byPolygon: Ring[][] = [];
  let n = 0;
  let r = 0;
  for (let source = 0; source < f.polygons; source++) {
    const ringEnd = f.polygonEnds[source]!;
    if (r === ringEnd) continue; // an empty polygon is valid and takes no part
    const p = byPolygon.length;
    const list: Ring[] = [];
    for (let index = 0; r < ringEnd; r++, index++) {
      const from = r === 0 ? 0 : f.ringEnds[r - 1]!;
      const to = f.ringEnds[r]!;
      const start = n;
      let minX = Infinity;
      let minY = Infinity;
      let maxX = -Infinity;
      let maxY = -Infinity;
      for (let k = from; k < to; k++) {
        const x = src[2 * k]!;
        const y = src[2 * k + 1]!;
        if (n > start && x === xs[n - 1] && y === ys[n - 1]) continue;
        xs[n] = x;
        ys[n] = y;
        n++;
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
      }
      // Plain fields, no array per ring: a MultiPolygon may have a million rings.
      const ring: Ring = {
        start,
        end: n - 1,
        polygon: p,
        source,
        index,
        minX,
        minY,
        maxX,
        maxY,
        raw1x: src[2 * from + 2]!,
        raw1y: src[2 * from + 3]!,
        ccw: undefined,
      };
      rings.push(ring);
      list.push(ring);
    }
    byPolygon.push(list);
  }
  return { xs, ys, rings, polygons: byPolygon };
}

/** Returns whether envelope `a` covers envelope `b` (closed). */
export function covers(a: Ring, b: Ring): boolean {
  return b.minX >= a.minX && b.maxX <= a.maxX && b.minY >= a.minY && b.maxY <= a.maxY;
}
