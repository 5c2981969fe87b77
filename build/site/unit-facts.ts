// The facts of one unit that the API, search and its permalink give: its
// geodesic area on its body (build/geo/geodesic-area.ts) and a label point
// inside it, the pole of inaccessibility of its largest polygon (polylabel,
// as build/coverage/measure.ts finds the widest point of a defect).
import { inscribedCircle } from '../coverage/measure.ts';
import { polygonAreaM2, polygonsOf } from '../geo/geodesic-area.ts';
import { BODY_RADIUS_M } from '../core/shared/crs.ts';
import type { Body } from '../core/shared/manifest.ts';

type Position = number[];

export interface UnitFacts {
  area_km2: number; // 6 significant digits
  label: [number, number] | null; // [lon, lat] inside the unit; null when it has no polygon with area
}

/** Cells the label search may probe per polygon: enough for a unit as thin as a Chilean region. */
const MAX_CELLS = 256;
/** Vertices per ring the label search measures (the point found is then checked against every vertex). */
const SEARCH_VERTICES = 256;
/** The label search stops within this share of the polygon's larger side. */
const PRECISION = 1 / 50;

/** Returns the facts of a feature's geometry on `body`. */
export function unitFacts(geometry: unknown, body: Body): UnitFacts {
  let largest: Position[][] | undefined;
  let [largestArea, total] = [0, 0];
  for (const polygon of polygonsOf(geometry)) {
    const a = polygonAreaM2(polygon, body); // holes subtract; the polygons of a multipolygon add
    total += a;
    if (a > largestArea) [largest, largestArea] = [polygon, a];
  }
  return {
    area_km2: Number((total / 1e6).toPrecision(6)),
    label: largest ? labelPoint(largest, body) : null,
  };
}

/**
 * Returns a point inside `polygon` (GeoJSON rings; even-odd, as GEOS and
 * every map fill them), rounded to 7 decimals (1 cm) when that stays inside:
 * the pole of inaccessibility found by polylabel in a frame that scales
 * longitudes by the cosine of the middle latitude (an affine map, so inside
 * there is inside in lon/lat), else, should the search end outside (a shape
 * thinner than its cells), the middle of the widest run inside on a
 * horizontal line that passes no vertex.
 */
function labelPoint(polygon: Position[][], body: Body): [number, number] | null {
  const rings = polygon.map((ring) => flatRing(ring)).filter((r) => r.length >= 6);
  if (rings.length === 0) return null;
  unwrapAntimeridian(rings);
  // The ring with the widest box first: inscribedCircle frames the search on rings[0].
  const span = (r: Float64Array) => {
    const [w, s, e, n] = boxOf([r]);
    return e - w + (n - s);
  };
  const spans = new Map(rings.map((r) => [r, span(r)]));
  rings.sort((a, b) => spans.get(b)! - spans.get(a)!);
  const [w, s, e, n] = boxOf(rings);
  const sizeM = Math.max((e - w) * Math.cos((((s + n) / 2) * Math.PI) / 180), n - s) * 111_000;
  const radius = BODY_RADIUS_M[body];
  const search = (rs: Float64Array[]) =>
    inscribedCircle(rs, radius, Math.max(sizeM * PRECISION, 1e-6), Infinity, MAX_CELLS).point;
  // Searched on a thinned copy (each probe measures every edge), kept only when inside the unit itself.
  let [x, y] = search(rings.map(thinned));
  if (!inside(rings, x, y)) [x, y] = search(rings);
  if (!inside(rings, x, y)) [x, y] = scanlinePoint(rings) ?? [x, y];
  const wrap = (lon: number) => (lon > 180 ? lon - 360 : lon < -180 ? lon + 360 : lon);
  const round = (v: number) => Math.round(v * 1e7) / 1e7;
  if (inside(rings, round(x), round(y))) [x, y] = [round(x), round(y)];
  return [wrap(x), y];
}

/** Returns a ring with at most about SEARCH_VERTICES vertices: every k-th kept, and its first. */
function thinned(xy: Float64Array): Float64Array {
  const n = xy.length / 2;
  if (n <= SEARCH_VERTICES) return xy;
  const step = Math.ceil(n / SEARCH_VERTICES);
  const out: number[] = [];
  for (let i = 0; i < n - 1; i += step) out.push(xy[2 * i]!, xy[2 * i + 1]!);
  out.push(xy[0]!, xy[1]!);
  return Float64Array.from(out);
}

/** Returns a ring as [x0, y0, x1, y1, …], closed, positions that are not number pairs left out. */
function flatRing(ring: Position[]): Float64Array {
  const xy: number[] = [];
  for (const p of Array.isArray(ring) ? ring : []) {
    if (Array.isArray(p) && Number.isFinite(p[0]) && Number.isFinite(p[1])) xy.push(p[0]!, p[1]!);
  }
  if (xy.length >= 2 && (xy[0] !== xy[xy.length - 2] || xy[1] !== xy[xy.length - 1])) xy.push(xy[0]!, xy[1]!);
  return Float64Array.from(xy);
}

/**
 * Moves longitudes by 360° where a ring steps across the antimeridian
 * (consecutive vertices more than 180° apart), so that the ring is drawn
 * the short way, as its area is measured. Data split at ±180 is left as it is.
 */
function unwrapAntimeridian(rings: Float64Array[]): void {
  for (const xy of rings) {
    for (let i = 2; i < xy.length; i += 2) {
      const step = xy[i]! - xy[i - 2]!;
      if (step > 180) xy[i] = xy[i]! - 360 * Math.round(step / 360);
      else if (step < -180) xy[i] = xy[i]! + 360 * Math.round(-step / 360);
    }
  }
}

function boxOf(rings: Float64Array[]): [number, number, number, number] {
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const xy of rings) {
    for (let i = 0; i < xy.length; i += 2) {
      [w, e] = [Math.min(w, xy[i]!), Math.max(e, xy[i]!)];
      [s, n] = [Math.min(s, xy[i + 1]!), Math.max(n, xy[i + 1]!)];
    }
  }
  return [w, s, e, n];
}

/** Whether (x, y) is inside the rings (even-odd), strictly: a point on an edge is not. */
function inside(rings: Float64Array[], x: number, y: number): boolean {
  let odd = false;
  for (const xy of rings) {
    for (let i = 0; i + 3 < xy.length; i += 2) {
      const [ax, ay, bx, by] = [xy[i]!, xy[i + 1]!, xy[i + 2]!, xy[i + 3]!];
      if ((ay === y && ax === x) || (by === y && bx === x)) return false;
      if (ay > y !== by > y) {
        const cross = ((bx - ax) * (y - ay)) / (by - ay) + ax;
        if (cross === x) return false;
        if (x < cross) odd = !odd;
      }
    }
  }
  return odd;
}

/** Returns the middle of the widest run inside on the line halfway between the two vertex heights nearest the middle. */
function scanlinePoint(rings: Float64Array[]): [number, number] | undefined {
  const heights = [...new Set(rings.flatMap((xy) => [...xy.filter((_, i) => i % 2 === 1)]))].sort(
    (a, b) => a - b,
  );
  const mid = Math.floor(heights.length / 2);
  for (const k of [mid, ...heights.keys()].slice(0, 64)) {
    if (k + 1 >= heights.length) continue;
    const y = (heights[k]! + heights[k + 1]!) / 2;
    const crossings: number[] = [];
    for (const xy of rings) {
      for (let i = 0; i + 3 < xy.length; i += 2) {
        const [ax, ay, bx, by] = [xy[i]!, xy[i + 1]!, xy[i + 2]!, xy[i + 3]!];
        if (ay > y !== by > y) crossings.push(((bx - ax) * (y - ay)) / (by - ay) + ax);
      }
    }
    crossings.sort((a, b) => a - b);
    let best: [number, number] | undefined;
    for (let i = 0; i + 1 < crossings.length; i += 2) {
      const [a, b] = [crossings[i]!, crossings[i + 1]!];
      if (b > a && (!best || b - a > best[1] - best[0])) best = [a, b];
    }
    if (best && inside(rings, (best[0] + best[1]) / 2, y)) return [(best[0] + best[1]) / 2, y];
  }
  return undefined;
}
