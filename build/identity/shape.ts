// A unit's geometry flattened for the overlap kernel (overlap.ts) and the
// distances (distance.ts): every ring closed, outer rings counter-clockwise
// and holes clockwise (whatever the source's winding), coordinates in one
// Float64Array, with boxes per ring, per polygon and per run of 16 edges so
// that a pair only visits the edges near the other shape.

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

/** Returns twice the signed area of a ring (positive when counter-clockwise). */
function twiceArea(ring: Position[]): number {
  let s = 0;
  for (let i = 0; i + 1 < ring.length; i++) s += ring[i][0] * ring[i + 1][1] - ring[i + 1][0] * ring[i][1];
  return s;
}

/** Returns the ring closed, with repeated positions dropped; undefined when it encloses nothing. */
function cleanRing(ring: Position[], counterClockwise: boolean): Position[] | undefined {
  const out: Position[] = [];
  for (const p of ring) {
    if (!Number.isFinite(p?.[0]) || !Number.isFinite(p?.[1])) return undefined;
    const last = out[out.length - 1];
    if (!last || last[0] !== p[0] || last[1] !== p[1]) out.push(p);
  }
  if (out.length > 1 && (out[0][0] !== out[out.length - 1][0] || out[0][1] !== out[out.length - 1][1])) {
    out.push(out[0]);
  }
  const twice = out.length >= 4 ? twiceArea(out) : 0;
  if (twice === 0) return undefined;
  return twice > 0 === counterClockwise ? out : out.reverse();
}

/** Returns the polygons of a GeoJSON geometry (Polygon, MultiPolygon, or a collection of them). */
export function polygonsOf(geometry: unknown): Position[][][] {
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
  const rings: Position[][] = [];
  const outer: boolean[] = [];
  for (const polygon of polygonsOf(geometry)) {
    if (!Array.isArray(polygon)) continue;
    polygon.forEach((ring, j) => {
      if (!Array.isArray(ring)) return;
      if (j > 0 && outer.length === 0) return; // a hole of a polygon whose shell was dropped
      const clean = cleanRing(ring, j === 0);
      if (!clean) return;
      rings.push(clean);
      outer.push(j === 0);
    });
  }
  return rings.length === 0 ? undefined : flatten(rings, outer);
}

function flatten(rings: Position[][], outer: boolean[]): Shape {
  const n = rings.reduce((sum, r) => sum + r.length, 0);
  const xy = new Float64Array(n * 2);
  const ringStart = new Int32Array(rings.length + 1);
  const ringBox = new Float64Array(rings.length * 4);
  const segs = new Int32Array(n - rings.length);
  const partBoxes: Box[] = [];
  const box: Box = [Infinity, Infinity, -Infinity, -Infinity];
  let k = 0;
  let ns = 0;
  let twice = 0;
  rings.forEach((ring, r) => {
    ringStart[r] = k;
    let [w, s, e, north] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let i = 0; i < ring.length; i++) {
      const x = ring[i][0];
      const y = ring[i][1];
      xy[2 * k] = x;
      xy[2 * k + 1] = y;
      if (i + 1 < ring.length) segs[ns++] = k;
      k++;
      w = Math.min(w, x);
      e = Math.max(e, x);
      s = Math.min(s, y);
      north = Math.max(north, y);
    }
    twice += twiceArea(ring);
    ringBox.set([w, s, e, north], 4 * r);
    if (outer[r]) partBoxes.push([w, s, e, north]);
    box[0] = Math.min(box[0], w);
    box[1] = Math.min(box[1], s);
    box[2] = Math.max(box[2], e);
    box[3] = Math.max(box[3], north);
  });
  ringStart[rings.length] = k;
  let chunks = 0;
  for (let r = 0; r < rings.length; r++) chunks += Math.ceil((ringStart[r + 1] - 1 - ringStart[r]) / CHUNK);
  const ringChunk = new Int32Array(rings.length + 1);
  const chunkStart = new Int32Array(chunks + 1);
  const chunkBox = new Float64Array(chunks * 4);
  let c = 0;
  for (let r = 0; r < rings.length; r++) {
    ringChunk[r] = c;
    const end = ringStart[r + 1] - 1;
    for (let i0 = ringStart[r]; i0 < end; i0 += CHUNK, c++) {
      chunkStart[c] = i0;
      let [w, s, e, north] = [Infinity, Infinity, -Infinity, -Infinity];
      for (let i = i0, i1 = Math.min(end, i0 + CHUNK); i <= i1; i++) {
        w = Math.min(w, xy[2 * i]);
        e = Math.max(e, xy[2 * i]);
        s = Math.min(s, xy[2 * i + 1]);
        north = Math.max(north, xy[2 * i + 1]);
      }
      chunkBox.set([w, s, e, north], 4 * c);
    }
  }
  ringChunk[rings.length] = c;
  chunkStart[c] = n;
  return {
    xy,
    ringStart,
    ringBox,
    partBoxes,
    box,
    area: twice / 2,
    points: n,
    segs,
    ringChunk,
    chunkStart,
    chunkBox,
  };
}

/** Returns whether two shapes have exactly the same rings (the same coordinates, in the same order). */
export function sameShape(a: Shape, b: Shape): boolean {
  if (a.xy.length !== b.xy.length || a.ringStart.length !== b.ringStart.length) return false;
  for (let i = 0; i < a.ringStart.length; i++) if (a.ringStart[i] !== b.ringStart[i]) return false;
  for (let i = 0; i < a.xy.length; i++) if (a.xy[i] !== b.xy[i]) return false;
  return true;
}

/** Metres per degree along the equator (WGS 84), the equirectangular scale. */
export const M_PER_DEGREE = 111_319.49;

/** Returns metres per degree of longitude and of latitude at latitude `lat`. */
export function scaleAt(lat: number): [number, number] {
  return [Math.cos((lat * Math.PI) / 180) * M_PER_DEGREE, M_PER_DEGREE];
}

/** Returns the gap in metres between two shapes' boxes (0 when they meet). */
export function boxGapMetres(a: Shape, b: Shape): number {
  const [kx, ky] = scaleAt((a.box[1] + a.box[3]) / 2);
  const dx = Math.max(0, a.box[0] - b.box[2], b.box[0] - a.box[2]) * kx;
  const dy = Math.max(0, a.box[1] - b.box[3], b.box[1] - a.box[3]) * ky;
  return Math.hypot(dx, dy);
}
