// A unit's geometry flattened for the overlap kernel (overlap.ts) and the
// distances (distance.ts): every ring closed, outer rings counter-clockwise
// and holes clockwise (whatever the source's winding), coordinates in one
// Float64Array, with boxes per ring, per polygon and per run of 16 edges so
// that a pair only visits the edges near the other shape.
import type { FlatGeometry } from '../geometry/flat-geometry.ts';

export type Box = [number, number, number, number]; // west, south, east, north

export interface Shape {
  xy: Float64Array; // x0, y0, x1, y1, …
  ringStart: Int32Array; // first point of ring r; ringStart[r + 1] is one past its closing point
  ringBox: Float64Array; // 4 per ring
  partBoxes: Box[]; // one per polygon (its outer ring), for the candidate index
  box: Box;
  area: number; // planar, in coordinate units (degree²)
  points: number;
  segs: Int32Array; // the first point of every edge
  ringChunk: Int32Array; // chunks of ring r: ringChunk[r] … ringChunk[r + 1] − 1
  chunkStart: Int32Array; // first edge of chunk c; its edges run to chunkStart[c] + CHUNK (or the ring's end)
  chunkBox: Float64Array; // 4 per chunk
}

/** Edges per chunk: a county against its state skips the state's far edges 16 at a time. */
export const CHUNK = 16;

type Position = number[];

/** A geometry's rings, flat, as the GeoJSON reader hands them (build/geometry/flat-geometry.ts). */
export type FlatRings = Pick<FlatGeometry, 'xy' | 'ringEnds' | 'rings' | 'polygonEnds' | 'polygons'>;

/** Returns twice the signed area of the closed ring of points [from, to) of xy (positive when counter-clockwise). */
function twiceArea(xy: Float64Array, from: number, to: number): number {
  let s = 0;
  for (let i = from; i + 1 < to; i++) s += xy[2 * i]! * xy[2 * i + 3]! - xy[2 * i + 2]! * xy[2 * i + 1]!;
  return s;
}

/** Reverses the points [from, to) of xy in place. */
function reverse(xy: Float64Array, from: number, to: number): void {
  for (let i = from, j = to - 1; i < j; i++, j--) {
    const x = xy[2 * i]!;
    const y = xy[2 * i + 1]!;
    xy[2 * i] = xy[2 * j]!;
    xy[2 * i + 1] = xy[2 * j + 1]!;
    xy[2 * j] = x;
    xy[2 * j + 1] = y;
  }
}

/** Returns the polygons of a GeoJSON geometry (Polygon, MultiPolygon, or a collection of them). */
function polygonsOf(geometry: unknown): Position[][][] {
  const g = geometry as { type?: string; coordinates?: unknown; geometries?: unknown[] } | null;
  if (!g || typeof g !== 'object') return [];
  if (g.type === 'Polygon' && Array.isArray(g.coordinates)) return [g.coordinates as Position[][]];
  if (g.type === 'MultiPolygon' && Array.isArray(g.coordinates)) return g.coordinates as Position[][][];
  if (g.type === 'GeometryCollection') return (g.geometries ?? []).flatMap(polygonsOf);
  return [];
}

/**
 * Returns the shape of a GeoJSON geometry, or undefined when it has no area
 * (null, empty, or only degenerate rings). Outer rings are wound
 * counter-clockwise and holes clockwise, so areas add up.
 */
export function shapeOf(geometry: unknown): Shape | undefined {
  const xy: number[] = [];
  const ringEnds: number[] = [];
  const polygonEnds: number[] = [];
  for (const polygon of polygonsOf(geometry)) {
    if (!Array.isArray(polygon)) continue;
    for (const ring of polygon) {
      // A ring that is not an array stays, empty, so that the rings after it keep their place.
      for (const p of Array.isArray(ring) ? ring : []) xy.push(coordinate(p?.[0]), coordinate(p?.[1]));
      ringEnds.push(xy.length / 2);
    }
    polygonEnds.push(ringEnds.length);
  }
  return shapeOfFlat({
    xy: Float64Array.from(xy),
    ringEnds: Int32Array.from(ringEnds),
    rings: ringEnds.length,
    polygonEnds: Int32Array.from(polygonEnds),
    polygons: polygonEnds.length,
  });
}

/** Returns a coordinate as read from parsed JSON: anything but a number is NaN (its ring is dropped). */
const coordinate = (v: unknown): number => (typeof v === 'number' ? v : NaN);

/**
 * Returns the shape of a geometry read flat (build/geometry/flat-geometry.ts),
 * copied out of the reader's reused arrays; undefined when it has no area.
 * Each ring is copied once: closed, repeated positions dropped, wound as its
 * role asks; a ring that encloses nothing (or holds a coordinate that is not
 * a finite number) is dropped.
 */
export function shapeOfFlat(g: FlatRings): Shape | undefined {
  const src = g.xy;
  const xy = new Float64Array(2 * ((g.rings > 0 ? g.ringEnds[g.rings - 1]! : 0) + g.rings));
  const ringStart: number[] = [];
  const outer: boolean[] = [];
  let k = 0;
  let twice = 0;
  let r = 0;
  for (let p = 0; p < g.polygons; p++) {
    for (let j = 0; r < g.polygonEnds[p]!; r++, j++) {
      if (j > 0 && outer.length === 0) continue; // a hole of a polygon whose shell was dropped
      const begin = k;
      let finite = true;
      for (let i = r === 0 ? 0 : g.ringEnds[r - 1]!, to = g.ringEnds[r]!; i < to; i++) {
        const x = src[2 * i]!;
        const y = src[2 * i + 1]!;
        if (!Number.isFinite(x) || !Number.isFinite(y)) {
          finite = false;
          break;
        }
        if (k > begin && xy[2 * k - 2] === x && xy[2 * k - 1] === y) continue;
        xy[2 * k] = x;
        xy[2 * k + 1] = y;
        k++;
      }
      if (
        finite &&
        k - begin > 1 &&
        (xy[2 * begin] !== xy[2 * k - 2] || xy[2 * begin + 1] !== xy[2 * k - 1])
      ) {
        xy[2 * k] = xy[2 * begin]!;
        xy[2 * k + 1] = xy[2 * begin + 1]!;
        k++;
      }
      const t = finite && k - begin >= 4 ? twiceArea(xy, begin, k) : 0;
      if (t === 0) {
        k = begin;
        continue;
      }
      if (t > 0 !== (j === 0)) reverse(xy, begin, k);
      twice += j === 0 ? Math.abs(t) : -Math.abs(t);
      ringStart.push(begin);
      outer.push(j === 0);
    }
  }
  if (ringStart.length === 0) return undefined;
  ringStart.push(k);
  return withBoxes(xy.slice(0, 2 * k), Int32Array.from(ringStart), outer, twice / 2);
}

/** Returns the shape of closed, wound rings: their boxes, edges and chunks. */
function withBoxes(xy: Float64Array, ringStart: Int32Array, outer: boolean[], area: number): Shape {
  const rings = outer.length;
  const n = ringStart[rings]!;
  const ringBox = new Float64Array(rings * 4);
  const segs = new Int32Array(n - rings);
  const partBoxes: Box[] = [];
  const box: Box = [Infinity, Infinity, -Infinity, -Infinity];
  let ns = 0;
  for (let r = 0; r < rings; r++) {
    const end = ringStart[r + 1]!;
    for (let i = ringStart[r]!; i + 1 < end; i++) segs[ns++] = i;
    boxInto(xy, ringStart[r]!, end - 1, ringBox, 4 * r);
    const ringOf: Box = [ringBox[4 * r]!, ringBox[4 * r + 1]!, ringBox[4 * r + 2]!, ringBox[4 * r + 3]!];
    if (outer[r]) partBoxes.push(ringOf);
    box[0] = Math.min(box[0], ringOf[0]);
    box[1] = Math.min(box[1], ringOf[1]);
    box[2] = Math.max(box[2], ringOf[2]);
    box[3] = Math.max(box[3], ringOf[3]);
  }
  let chunks = 0;
  for (let r = 0; r < rings; r++) chunks += Math.ceil((ringStart[r + 1]! - 1 - ringStart[r]!) / CHUNK);
  const ringChunk = new Int32Array(rings + 1);
  const chunkStart = new Int32Array(chunks + 1);
  const chunkBox = new Float64Array(chunks * 4);
  let c = 0;
  for (let r = 0; r < rings; r++) {
    ringChunk[r] = c;
    const end = ringStart[r + 1]! - 1;
    for (let i0 = ringStart[r]!; i0 < end; i0 += CHUNK, c++) {
      chunkStart[c] = i0;
      boxInto(xy, i0, Math.min(end, i0 + CHUNK), chunkBox, 4 * c);
    }
  }
  ringChunk[rings] = c;
  chunkStart[c] = n;
  return { xy, ringStart, ringBox, partBoxes, box, area, points: n, segs, ringChunk, chunkStart, chunkBox };
}

/** Writes the box [west, south, east, north] of positions `from`…`to` (both included) of `xy` at `out[at…at+3]`. */
function boxInto(xy: Float64Array, from: number, to: number, out: Float64Array, at: number): void {
  let w = Infinity;
  let s = Infinity;
  let e = -Infinity;
  let north = -Infinity;
  for (let i = from; i <= to; i++) {
    const x = xy[2 * i]!;
    const y = xy[2 * i + 1]!;
    if (x < w) w = x;
    if (x > e) e = x;
    if (y < s) s = y;
    if (y > north) north = y;
  }
  out[at] = w;
  out[at + 1] = s;
  out[at + 2] = e;
  out[at + 3] = north;
}

/** Returns whether two shapes have exactly the same rings (the same coordinates, in the same order). */
export function sameShape(a: Shape, b: Shape): boolean {
  if (a.xy.length !== b.xy.length || a.ringStart.length !== b.ringStart.length) return false;
  for (let i = 0; i < a.ringStart.length; i++) if (a.ringStart[i] !== b.ringStart[i]) return false;
  for (let i = 0; i < a.xy.length; i++) if (a.xy[i] !== b.xy[i]) return false;
  return true;
}

/**
 * Returns metres per degree of longitude and of latitude at latitude `lat`
 * on a body of `perDegree` metres per degree (METRES_PER_DEGREE in
 * build/core/shared/crs.ts, e.g. 111,319.49 on the Earth).
 */
export function scaleAt(lat: number, perDegree: number): [number, number] {
  return [Math.cos((lat * Math.PI) / 180) * perDegree, perDegree];
}

/** Returns the gap in metres between two shapes' boxes (0 when they meet), `perDegree` as scaleAt's. */
export function boxGapMetres(a: Shape, b: Shape, perDegree: number): number {
  const [kx, ky] = scaleAt((a.box[1] + a.box[3]) / 2, perDegree);
  const dx = Math.max(0, a.box[0] - b.box[2], b.box[0] - a.box[2]) * kx;
  const dy = Math.max(0, a.box[1] - b.box[3], b.box[1] - a.box[3]) * ky;
  return Math.hypot(dx, dy);
}
