// Known defects injected into a real level, for the coverage oracle
// (oracle.test.ts): an overlap (a triangle of one unit inside another), a
// gap (a 60 m square hole in a unit) and an edge nudged (a vertex two units
// share moved by 1e-7° in one of them).
import { inscribedCircle } from '../../build/coverage/measure.ts';

const R = 6_371_008.8;

type Position = [number, number];
type Polygon = Position[][];
export interface Feature {
  type: 'Feature';
  properties: Record<string, unknown>;
  geometry: { type: 'Polygon'; coordinates: Polygon } | { type: 'MultiPolygon'; coordinates: Polygon[] } | null;
}
export interface Collection {
  type: 'FeatureCollection';
  features: Feature[];
}

/** Returns each unit's polygons (a Polygon as one). */
const polygons = (f: Feature): Polygon[] =>
  !f.geometry ? [] : f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates;

/** Returns the largest circle inside a polygon's outer ring: its centre (lon, lat) and diameter in metres. */
function roomIn(polygon: Polygon): { point: Position; widthM: number } {
  const rings = polygon.map((ring) => Float64Array.from(ring.flat()));
  const { point, widthM } = inscribedCircle(rings, R, 10);
  return { point, widthM };
}

/** Returns the polygon of `features` with the most room inside, among units `among`. */
function roomiest(features: Feature[], among: number[]): { unit: number; polygon: number; point: Position; widthM: number } {
  let best = { unit: -1, polygon: -1, point: [0, 0] as Position, widthM: 0 };
  for (const unit of among) {
    polygons(features[unit]!).forEach((p, polygon) => {
      const room = roomIn(p);
      if (room.widthM > best.widthM) best = { unit, polygon, ...room };
    });
  }
  return best;
}

/** Returns a vertex that exactly two units share with both its ring neighbours (inside a shared edge), and where. */
function sharedVertex(features: Feature[]): { unit: number; polygon: number; ring: number; index: number } {
  const owners = new Map<string, Set<number>>();
  features.forEach((f, u) =>
    polygons(f).forEach((p) =>
      p.forEach((ring) => ring.forEach(([x, y]) => owners.set(`${x},${y}`, (owners.get(`${x},${y}`) ?? new Set()).add(u)))),
    ),
  );
  const two = (q: Position) => owners.get(`${q[0]},${q[1]}`)!.size === 2;
  for (let u = 0; u < features.length; u++) {
    const ps = polygons(features[u]!);
    for (let polygon = 0; polygon < ps.length; polygon++) {
      for (let ring = 0; ring < ps[polygon]!.length; ring++) {
        const r = ps[polygon]![ring]!;
        for (let index = 2; index + 2 < r.length; index++) {
          if (two(r[index - 1]!) && two(r[index]!) && two(r[index + 1]!)) return { unit: u, polygon, ring, index };
        }
      }
    }
  }
  throw new Error('no vertex inside a shared edge');
}

/** Returns a copy of `fc` with an overlap, a gap and a nudged edge, and which units each involves. */
export function injectDefects(fc: Collection): { fc: Collection; overlap: number[]; gap: number; edge: number } {
  const out = structuredClone(fc);
  const features = out.features;
  const edge = sharedVertex(features);
  const all = features.map((_, i) => i).filter((i) => i !== edge.unit && features[i]!.geometry);
  // The overlap: a triangle of unit A inside unit B, a quarter of B's room across.
  const b = roomiest(features, all);
  const a = all.find((i) => i !== b.unit)!;
  const d = b.widthM / 4 / (R * (Math.PI / 180)); // degrees of latitude
  const [x, y] = b.point;
  const triangle: Position[] = [
    [x - d, y - d / 2],
    [x + d, y - d / 2],
    [x, y + d / 2],
    [x - d, y - d / 2],
  ];
  features[a]!.geometry = { type: 'MultiPolygon', coordinates: [...polygons(features[a]!), [triangle]] };
  // The gap: a hole 60 m across in unit G, where it has room.
  const g = roomiest(
    features,
    all.filter((i) => i !== a && i !== b.unit),
  );
  const [gx, gy] = g.point;
  const hy = 30 / (R * (Math.PI / 180));
  const hx = hy / Math.cos((gy * Math.PI) / 180);
  const hole: Position[] = [
    [gx - hx, gy - hy],
    [gx - hx, gy + hy],
    [gx + hx, gy + hy],
    [gx + hx, gy - hy],
    [gx - hx, gy - hy],
  ];
  const gPolygons = polygons(features[g.unit]!);
  gPolygons[g.polygon] = [...gPolygons[g.polygon]!, hole];
  features[g.unit]!.geometry = { type: 'MultiPolygon', coordinates: gPolygons };
  // The edge: one unit's copy of a vertex it shares with one neighbour, moved 1e-7° east.
  const ePolygons = polygons(features[edge.unit]!);
  const vertex = ePolygons[edge.polygon]![edge.ring]![edge.index]!;
  ePolygons[edge.polygon]![edge.ring]![edge.index] = [vertex[0] + 1e-7, vertex[1]];
  features[edge.unit]!.geometry = { type: 'MultiPolygon', coordinates: ePolygons };
  return { fc: out, overlap: [a, b.unit].sort((p, q) => p - q), gap: g.unit, edge: edge.unit };
}

