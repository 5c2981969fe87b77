// Geometry for `split`: bounding boxes, areas, and the area a feature shares
// with a candidate parent (polygon-clipping's intersection). Areas are only
// compared with each other (the largest overlap, its share of the feature),
// so they are in degrees² scaled to one latitude, and no body's radius enters.
import polygonClipping, { type MultiPolygon } from 'polygon-clipping';

export type Box = [number, number, number, number]; // [west, south, east, north]

export interface Shape {
  polygons: MultiPolygon; // GeoJSON Polygon coordinates wrapped as a one-polygon MultiPolygon
  box: Box;
}

/** Returns the feature's geometry as polygons with their bbox, or undefined for a null/empty geometry. */
export function shapeOf(geometry: { type: string; coordinates?: unknown } | null): Shape | undefined {
  if (!geometry) return undefined;
  const polygons = (
    geometry.type === 'Polygon'
      ? [geometry.coordinates]
      : geometry.type === 'MultiPolygon'
        ? geometry.coordinates
        : []
  ) as MultiPolygon;
  const box: Box = [Infinity, Infinity, -Infinity, -Infinity];
  for (const polygon of polygons) {
    for (const [x, y] of polygon[0] ?? []) {
      if (x < box[0]) box[0] = x;
      if (y < box[1]) box[1] = y;
      if (x > box[2]) box[2] = x;
      if (y > box[3]) box[3] = y;
    }
  }
  return box[0] === Infinity ? undefined : { polygons, box };
}

export function boxesMeet(a: Box, b: Box): boolean {
  return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}

/**
 * Returns the area of `polygons` (outer rings minus holes) in degrees² of
 * latitude, on an equirectangular projection true at latitude `lat0`: close
 * enough to compare a feature's overlaps with its candidate parents, which
 * share `lat0`.
 */
export function planarArea(polygons: MultiPolygon, lat0: number): number {
  const kx = Math.cos((lat0 * Math.PI) / 180);
  let total = 0;
  for (const polygon of polygons) {
    polygon.forEach((ring, i) => {
      let twice = 0;
      for (let j = 0, n = ring.length; j < n; j++) {
        const [x1, y1] = ring[j]!;
        const [x2, y2] = ring[(j + 1) % n]!;
        twice += x1 * y2 - x2 * y1;
      }
      total += (i === 0 ? 1 : -1) * Math.abs(twice / 2);
    });
  }
  return Math.max(0, total) * kx;
}

/** Returns `polygons` clipped to `box` (Sutherland–Hodgman per ring; area-exact). */
function clipToBox(polygons: MultiPolygon, box: Box): MultiPolygon {
  const out: MultiPolygon = [];
  for (const polygon of polygons) {
    const outer = clipRing(polygon[0]!, box);
    if (outer.length < 4) continue;
    const holes = polygon.slice(1).map((ring) => clipRing(ring, box));
    out.push([outer, ...holes.filter((ring) => ring.length >= 4)]);
  }
  return out;
}

function clipRing(ring: [number, number][], box: Box): [number, number][] {
  const edges: [
    (p: [number, number]) => boolean,
    (a: [number, number], b: [number, number]) => [number, number],
  ][] = [
    [(p) => p[0] >= box[0], (a, b) => atX(a, b, box[0])],
    [(p) => p[0] <= box[2], (a, b) => atX(a, b, box[2])],
    [(p) => p[1] >= box[1], (a, b) => atY(a, b, box[1])],
    [(p) => p[1] <= box[3], (a, b) => atY(a, b, box[3])],
  ];
  let points = ring.slice(0, -1);
  for (const [inside, cut] of edges) {
    const next: [number, number][] = [];
    for (let i = 0; i < points.length; i++) {
      const a = points[(i + points.length - 1) % points.length]!;
      const b = points[i]!;
      if (inside(b)) {
        if (!inside(a)) next.push(cut(a, b));
        next.push(b);
      } else if (inside(a)) next.push(cut(a, b));
    }
    points = next;
    if (points.length === 0) return [];
  }
  return [...points, points[0]!];
}

const atX = (a: [number, number], b: [number, number], x: number): [number, number] => [
  x,
  a[1] + ((b[1] - a[1]) * (x - a[0])) / (b[0] - a[0]),
];
const atY = (a: [number, number], b: [number, number], y: number): [number, number] => [
  a[0] + ((b[0] - a[0]) * (y - a[1])) / (b[1] - a[1]),
  y,
];

/**
 * Returns the area (planarArea's) that `feature` shares with `parent`. The parent is
 * first cut down to the feature's bbox (a large province against a small
 * district), then polygon-clipping intersects the two exactly.
 */
export function overlapArea(feature: Shape, parent: Shape, lat0: number): number {
  const near = clipToBox(parent.polygons, feature.box);
  if (near.length === 0) return 0;
  return planarArea(polygonClipping.intersection(feature.polygons, near), lat0);
}
