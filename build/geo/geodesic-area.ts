// The area of a unit on its body, as a GIS measures it: on the Earth the
// WGS 84 ellipsoid, on the Moon and Mars their IAU sphere. Latitudes are
// mapped to authalic latitudes (the sphere of the ellipsoid's area, radius
// R_q = 6,371,007.181 m, keeps every zone's area), so a polygon's spherical
// area there is its area on the ellipsoid, up to how its edges are drawn
// between vertices (here great-circle arcs of that sphere; for the short
// edges of boundary data within a few mm² of the geodesics GeographicLib draws).
import { BODY_RADIUS_M } from '../core/shared/crs.ts';
import type { Body } from '../core/shared/manifest.ts';

const RAD = Math.PI / 180;

/** WGS 84: semi-major axis (m) and flattening. */
const WGS84_A = 6_378_137;
const WGS84_F = 1 / 298.257223563;
const E2 = WGS84_F * (2 - WGS84_F);
const E = Math.sqrt(E2);

/** Returns q(φ) of the authalic latitude (Snyder, Map Projections: A Working Manual, eq. 3-12) for sin φ. */
function authalicQ(sinPhi: number): number {
  const es = E * sinPhi;
  return (1 - E2) * (sinPhi / (1 - es * es) - Math.log((1 - es) / (1 + es)) / (2 * E));
}

const Q_POLE = authalicQ(1);

/** The radius of the sphere with the WGS 84 ellipsoid's area, R_q = a·√(q_p/2) ≈ 6,371,007.181 m. */
export const WGS84_AUTHALIC_RADIUS_M = WGS84_A * Math.sqrt(Q_POLE / 2);

/** Returns the authalic latitude (radians) of the WGS 84 geodetic latitude `lat` (degrees). */
function authalicLatitude(lat: number): number {
  const q = authalicQ(Math.sin(lat * RAD));
  return Math.asin(Math.max(-1, Math.min(1, q / Q_POLE)));
}

/** How a body's latitudes reach its area sphere, and that sphere's radius in metres. */
interface AreaSphere {
  radius: number;
  latitude: (lat: number) => number; // degrees → radians on the sphere
}

const SPHERES: Record<Body, AreaSphere> = {
  earth: { radius: WGS84_AUTHALIC_RADIUS_M, latitude: authalicLatitude },
  moon: { radius: BODY_RADIUS_M.moon, latitude: (lat) => lat * RAD },
  mars: { radius: BODY_RADIUS_M.mars, latitude: (lat) => lat * RAD },
};

type Position = number[];

/**
 * Returns the area in steradians of one ring (lon/lat degrees, closed or
 * not, wound either way) on the unit sphere, with latitudes mapped by
 * `latitude`: the smaller of the two regions it bounds (a unit never covers
 * more than a hemisphere). Each edge is the great-circle arc its vertices
 * span the short way, so a ring that steps across ±180° is measured as drawn
 * across it, and one that goes round a pole (Antarctica's) encloses it.
 */
function ringSteradians(ring: Position[], latitude: (lat: number) => number): number {
  const n = ring.length;
  if (n < 3) return 0;
  let excess = 0; // the signed area between each edge and the equator, summed (tan-half formula)
  let turns = 0; // how far the ring goes round in longitude: ±2π round a pole, else 0
  let [lon0, t0] = [NaN, NaN];
  for (let i = 0; i <= n; i++) {
    const p = ring[i % n]!;
    const lon = p[0]! * RAD;
    const t = Math.tan(latitude(p[1]!) / 2);
    if (i > 0 && Number.isFinite(lon) && Number.isFinite(t0)) {
      let dLon = lon - lon0;
      if (dLon > Math.PI) dLon -= 2 * Math.PI;
      else if (dLon < -Math.PI) dLon += 2 * Math.PI;
      excess += 2 * Math.atan2(Math.tan(dLon / 2) * (t0 + t), 1 + t0 * t);
      turns += dLon;
    }
    [lon0, t0] = [lon, t];
  }
  const round = Math.round(turns / (2 * Math.PI));
  let area = 2 * Math.PI * round - excess; // counter-clockwise: positive
  area = ((area % (4 * Math.PI)) + 4 * Math.PI) % (4 * Math.PI);
  return Math.min(area, 4 * Math.PI - area);
}

/**
 * Returns the area in m² of a Polygon's rings on `body`: its outer ring less
 * its holes. A polygon whose holes measure more than its outer ring (only an
 * invalid one: world-atlas's Antarctica, a cap round the pole with the coast
 * as its hole) counts as the difference, as GeographicLib's signed sum does.
 */
export function polygonAreaM2(rings: Position[][], body: Body): number {
  const { radius, latitude } = SPHERES[body];
  let sr = 0;
  rings.forEach((ring, i) => {
    const a = Array.isArray(ring) ? ringSteradians(ring, latitude) : 0;
    sr += i === 0 ? a : -a;
  });
  return Math.abs(sr) * radius * radius;
}

/** Returns the polygons of a GeoJSON geometry (Polygon, MultiPolygon, or those in a GeometryCollection), as rings. */
export function polygonsOf(geometry: unknown): Position[][][] {
  const g = geometry as { type?: string; coordinates?: unknown; geometries?: unknown[] } | null;
  if (!g || typeof g !== 'object') return [];
  if (g.type === 'Polygon' && Array.isArray(g.coordinates)) return [g.coordinates as Position[][]];
  if (g.type === 'MultiPolygon' && Array.isArray(g.coordinates)) return g.coordinates as Position[][][];
  if (g.type === 'GeometryCollection' && Array.isArray(g.geometries)) return g.geometries.flatMap(polygonsOf);
  return [];
}

/** Returns the geodesic area in m² of a GeoJSON geometry on `body`: holes subtract, the polygons of a multipolygon add. */
export function geometryAreaM2(geometry: unknown, body: Body): number {
  let total = 0;
  for (const polygon of polygonsOf(geometry)) total += polygonAreaM2(polygon, body);
  return total;
}
