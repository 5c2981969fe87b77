// Geometry clean-up and house-style GeoJSON output for the sample data:
// 6-decimal coordinates, closed rings, RFC 7946 winding, one feature per line.
import type { MultiPolygon, Polygon, Position } from 'geojson';

export type Area = Polygon | MultiPolygon;
export type BBox = [number, number, number, number];

/** One output feature: `id` like "CHL:ADM1:CL-RM", properties in house-style order. */
export interface OutFeature {
  id: string;
  properties: Record<string, string>;
  geometry: Area;
}

/** Returns `value` rounded to 6 decimals; JSON prints it without trailing zeros (e.g. -70.5). */
export function round6(value: number): number {
  const rounded = Math.round(value * 1e6) / 1e6;
  return rounded === 0 ? 0 : rounded; // no "-0"
}

/** Returns twice the signed planar area of a closed ring: > 0 when counter-clockwise. */
function signedArea2(ring: Position[]): number {
  let sum = 0;
  for (let i = 0; i + 1 < ring.length; i++) {
    sum += ring[i][0] * ring[i + 1][1] - ring[i + 1][0] * ring[i][1];
  }
  return sum;
}

/**
 * Returns the ring rounded to 6 decimals, without repeated consecutive
 * positions, closed, and wound counter-clockwise (`outer`) or clockwise
 * (hole) as RFC 7946 asks; or undefined when fewer than 3 distinct corners
 * or no area remain after rounding.
 */
function cleanRing(ring: Position[], outer: boolean): Position[] | undefined {
  const out: Position[] = [];
  for (const position of ring) {
    const point = [round6(position[0]), round6(position[1])];
    const last = out[out.length - 1];
    if (!last || last[0] !== point[0] || last[1] !== point[1]) out.push(point);
  }
  const first = out[0];
  const last = out[out.length - 1];
  if (first && (first[0] !== last[0] || first[1] !== last[1])) out.push([first[0], first[1]]);
  if (out.length < 4) return undefined;
  const area = signedArea2(out);
  if (area === 0) return undefined;
  if (area > 0 !== outer) out.reverse();
  return out;
}

/** Returns the polygon cleaned ring by ring; undefined when its outer ring vanished. */
function cleanPolygon(rings: Position[][]): Position[][] | undefined {
  const outer = rings[0] && cleanRing(rings[0], true);
  if (!outer) return undefined;
  const holes = rings
    .slice(1)
    .map((ring) => cleanRing(ring, false))
    .filter((ring) => ring !== undefined);
  return [outer, ...holes];
}

/**
 * Returns `geometry` cleaned (see cleanRing) as a Polygon when one polygon
 * remains and a MultiPolygon when several do, or undefined when none does.
 */
export function cleanArea(geometry: Area): Area | undefined {
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  const kept = polygons.map(cleanPolygon).filter((rings) => rings !== undefined);
  if (kept.length === 0) return undefined;
  if (kept.length === 1) return { type: 'Polygon', coordinates: kept[0] };
  return { type: 'MultiPolygon', coordinates: kept };
}

/** Returns the plain min/max `[west, south, east, north]` of every position of `geometries`. */
export function bboxOf(geometries: Area[]): BBox {
  const box: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  for (const geometry of geometries) {
    const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
    for (const ring of polygons.flat()) {
      for (const [x, y] of ring) {
        if (x < box[0]) box[0] = x;
        if (y < box[1]) box[1] = y;
        if (x > box[2]) box[2] = x;
        if (y > box[3]) box[3] = y;
      }
    }
  }
  return box;
}

/**
 * Returns the FeatureCollection text in the corpus layout: the header with a
 * top-level bbox on line 1, one feature per line, `]}` last, no final newline.
 */
export function featureCollectionText(features: OutFeature[]): string {
  const bbox = bboxOf(features.map((feature) => feature.geometry));
  const lines = features.map((feature) =>
    JSON.stringify({
      type: 'Feature',
      id: feature.id,
      properties: feature.properties,
      geometry: feature.geometry,
    }),
  );
  return `{"type":"FeatureCollection","bbox":${JSON.stringify(bbox)},"features":[\n${lines.join(',\n')}\n]}`;
}
