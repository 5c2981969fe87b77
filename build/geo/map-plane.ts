// The plane a level's maps are drawn in: its projection, and where the
// projected shapes sit in the SVG's user units (the frame is MAP_WIDTH wide,
// its height follows the shape). The build-time SVG (build/site/map-svg.ts) and the
// tiles (build/tiles/) both project through planeOf's result, computed from
// the same file, so the tiles land exactly on the picture they replace.
//
// Projection: Lambert azimuthal equal-area centred on the main mass, or on
// the pole when the mass comes within 5° of it: areas compare truly
// everywhere and polar countries keep their shape (Antarctica is a disc, not
// a strip). The world view uses Equal Earth. Both are continuous across the
// antimeridian, so Fiji and Russia stay whole without shifting longitudes.
// Other bodies' maps use plate carrée (x = longitude, y = latitude), the
// cylindrical map their quadrangle schemes are drawn on as rectangles.
import { MAP_WIDTH } from '../core/shared/tiles.ts';
import { mainFrame, type Box } from './map-frame.ts';
import { longitudeSpan } from './map-frame.ts';

export { MAP_WIDTH };
const MIN_HEIGHT = 300;
export const MAX_HEIGHT = 600;
const PAD = 12;
const RAD = Math.PI / 180;
/** A main mass reaching this close to a pole (degrees) is drawn around that pole. */
const POLAR = 5;

export type Projection =
  | { name: 'laea'; lon0: number; lat0: number } // degrees
  | { name: 'equal-earth' }
  | { name: 'plate-carree' };

/** The projections a whole-globe plane can be drawn in: Earth's world map, another body's map. */
export type WholeProjection = 'equal-earth' | 'plate-carree';

/** A level's plane: projection, then the affine map onto SVG units (y down). JSON-able. */
export interface Plane {
  projection: Projection;
  height: number; // the frame's height; its width is MAP_WIDTH
  scale: number; // SVG units per projected unit
  x0: number; // projected x at SVG x = offsetX
  y1: number; // projected y at SVG y = offsetY
  offsetX: number;
  offsetY: number;
  extent: [number, number, number, number]; // everything drawn and the frame, SVG units
}

/**
 * Rings as flat lists: ring r has the points [starts[r], starts[r + 1]) of
 * `coords`, stored [lon, lat, lon, lat, …]. Only polygons' outer rings are
 * needed to frame a plane.
 */
export interface FlatRings {
  coords: ArrayLike<number>;
  starts: ArrayLike<number>; // rings + 1 entries
  rings: number;
}

type Position = number[];
type Ring = Position[];

/** Returns the polygons (lists of rings) of a GeoJSON geometry, ignoring other types. */
export function polygonsOf(geometry: unknown): Ring[][] {
  const g = geometry as { type?: string; coordinates?: unknown; geometries?: unknown[] } | null;
  if (!g) return [];
  if (g.type === 'Polygon' && Array.isArray(g.coordinates)) return [g.coordinates as Ring[]];
  if (g.type === 'MultiPolygon' && Array.isArray(g.coordinates)) return g.coordinates as Ring[][];
  if (g.type === 'GeometryCollection' && Array.isArray(g.geometries)) return g.geometries.flatMap(polygonsOf);
  return [];
}

/** Collects the outer rings of features, in order, as FlatRings: what planeOf frames. */
export class OuterRings implements FlatRings {
  coords: number[] = [];
  starts: number[] = [0];

  /** Adds the outer ring of every polygon of a GeoJSON geometry (positions of fewer than two numbers skipped). */
  add(geometry: unknown): void {
    for (const polygon of polygonsOf(geometry)) {
      for (const p of Array.isArray(polygon[0]) ? polygon[0] : []) {
        if (Array.isArray(p) && p.length >= 2) this.coords.push(p[0], p[1]);
      }
      this.starts.push(this.coords.length / 2);
    }
  }

  get rings(): number {
    return this.starts.length - 1;
  }
}

type Raw = (lon: number, lat: number, out: Float64Array) => void;

/**
 * Returns the projection's raw function: [lon, lat] in degrees → [x, y] on the unit sphere, y up.
 * Written out rather than d3-geo's raw functions (d3-geo stays the tests' oracle): it
 * writes into a reused array and rotates in closed form, 0.39–0.84× d3-geo's time on
 * 2,000,000 points, within 5e-13 of it (bench:libraries, 2026-11-27, load 12–16).
 */
export function rawProjection(p: Projection): Raw {
  if (p.name === 'plate-carree') {
    return (lon, lat, out) => {
      out[0] = lon * RAD;
      out[1] = lat * RAD;
    };
  }
  if (p.name === 'equal-earth') {
    // Šavrič, Patterson & Jenny (2018).
    const [a1, a2, a3, a4, m] = [1.340264, -0.081106, 0.000893, 0.003796, Math.sqrt(3) / 2];
    return (lon, lat, out) => {
      const t = Math.asin(m * Math.sin(lat * RAD));
      const t2 = t * t;
      const t6 = t2 * t2 * t2;
      out[0] = (lon * RAD * Math.cos(t)) / (m * (a1 + 3 * a2 * t2 + t6 * (7 * a3 + 9 * a4 * t2)));
      out[1] = t * (a1 + a2 * t2 + t6 * (a3 + a4 * t2));
    };
  }
  const [s0, c0] = [Math.sin(p.lat0 * RAD), Math.cos(p.lat0 * RAD)];
  const lon0 = p.lon0;
  return (lon, lat, out) => {
    const l = (lon - lon0) * RAD;
    const f = lat * RAD;
    const [sf, cf, cl] = [Math.sin(f), Math.cos(f), Math.cos(l)];
    // The antipode has no image: points next to it go far out, never to infinity.
    const k = Math.sqrt(2 / Math.max(1e-12, 1 + s0 * sf + c0 * cf * cl));
    out[0] = k * cf * Math.sin(l);
    out[1] = k * (c0 * sf - s0 * cf * cl);
  };
}

/** Returns the function from [lon, lat] to SVG user units of `plane`, writing into `out`. */
export function projector(plane: Plane): Raw {
  const raw = rawProjection(plane.projection);
  const { scale, x0, y1, offsetX, offsetY } = plane;
  return (lon, lat, out) => {
    raw(lon, lat, out);
    out[0] = offsetX + (out[0] - x0) * scale;
    out[1] = offsetY + (y1 - out[1]) * scale;
  };
}

/** Returns each ring's box and area in the projection `raw`. */
function boxes(rings: FlatRings, raw: Raw): Box[] {
  const out: Box[] = [];
  const p = new Float64Array(2);
  for (let r = 0; r < rings.rings; r++) {
    const [s, e] = [rings.starts[r], rings.starts[r + 1]];
    if (e <= s) continue;
    let [x0, y0, x1, y1, twice] = [Infinity, Infinity, -Infinity, -Infinity, 0];
    raw(rings.coords[2 * (e - 1)], rings.coords[2 * (e - 1) + 1], p);
    let [px, py] = [p[0], p[1]];
    for (let i = s; i < e; i++) {
      raw(rings.coords[2 * i], rings.coords[2 * i + 1], p);
      const [x, y] = [p[0], p[1]];
      [x0, x1, y0, y1] = [Math.min(x0, x), Math.max(x1, x), Math.min(y0, y), Math.max(y1, y)];
      twice += px * y - x * py;
      [px, py] = [x, y];
    }
    if (Number.isFinite(x0)) out.push({ x0, y0, x1, y1, area: Math.abs(twice) / 2 });
  }
  return out;
}

/**
 * Returns where to centre a country's projection, [lon, lat], and the main
 * mass's south and north: the centre of its largest polygon when that holds
 * half the area or more (the lower 48 of the USA, mainland France), else of
 * the frame (an archipelago such as Kiribati or Indonesia). Framed first in the equirectangular
 * projection (x = lon × cos of the middle latitude, western longitudes moved
 * east across the antimeridian).
 */
function massCentre(rings: FlatRings): [number, number, number, number] {
  const lons: number[] = [];
  let [south, north] = [Infinity, -Infinity];
  for (let i = 0; i < rings.coords.length; i += 2) {
    lons.push(rings.coords[i]);
    [south, north] = [Math.min(south, rings.coords[i + 1]), Math.max(north, rings.coords[i + 1])];
  }
  const shift = longitudeSpan(lons).crosses ? 360 : 0;
  const cos = Math.max(Math.cos(((south + north) / 2) * RAD), 0.05);
  const all = boxes(rings, (lon, lat, out) => {
    out[0] = (shift && lon < 0 ? lon + shift : lon) * cos;
    out[1] = lat;
  });
  const frame = mainFrame(all);
  const largest = all.reduce((best, b) => (b.area > best.area ? b : best), all[0]);
  const total = all.reduce((n, b) => n + b.area, 0);
  const centre = largest.area >= total / 2 ? largest : frame;
  const lon = (centre.x0 + centre.x1) / 2 / cos;
  return [lon > 180 ? lon - 360 : lon, (centre.y0 + centre.y1) / 2, frame.y0, frame.y1];
}

/**
 * Returns the plane of a level from its polygons' outer rings: a country's
 * (no `whole`) is centred on its main mass and framed on it (map-frame.ts);
 * with `whole` (Equal Earth for the world, plate carrée for another body) it
 * is framed on everything. Undefined when there is nothing to frame.
 */
export function planeOf(rings: FlatRings, whole?: WholeProjection): Plane | undefined {
  if (rings.coords.length === 0) return undefined;
  const world = whole !== undefined;
  let projection: Projection = { name: whole ?? 'equal-earth' };
  if (!world) {
    const [lon, lat, south, north] = massCentre(rings);
    const lat0 = south < -90 + POLAR ? -90 : north > 90 - POLAR ? 90 : lat;
    projection = { name: 'laea', lon0: Math.abs(lat0) === 90 ? 0 : lon, lat0 };
  }
  const raw = rawProjection(projection);
  const all = boxes(rings, raw);
  if (all.length === 0) return undefined;
  const frame = world
    ? all.reduce((f, b) => ({
        x0: Math.min(f.x0, b.x0),
        y0: Math.min(f.y0, b.y0),
        x1: Math.max(f.x1, b.x1),
        y1: Math.max(f.y1, b.y1),
        area: 0,
      }))
    : mainFrame(all);
  const width = Math.max(frame.x1 - frame.x0, 1e-9);
  const tall = Math.max(frame.y1 - frame.y0, 1e-9);
  // The frame is MAP_WIDTH wide; its height follows the shape, within bounds
  // (Chile gets a tall frame, Russia a wide one).
  const height = Math.round(
    Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, (MAP_WIDTH - 2 * PAD) * (tall / width) + 2 * PAD)),
  );
  const scale = Math.min((MAP_WIDTH - 2 * PAD) / width, (height - 2 * PAD) / tall);
  const offsetX = (MAP_WIDTH - width * scale) / 2;
  const offsetY = (height - tall * scale) / 2;
  const toX = (x: number) => offsetX + (x - frame.x0) * scale;
  const toY = (y: number) => offsetY + (frame.y1 - y) * scale;
  const ex = all.reduce(
    (e, b) => [
      Math.min(e[0], toX(b.x0)),
      Math.min(e[1], toY(b.y1)),
      Math.max(e[2], toX(b.x1)),
      Math.max(e[3], toY(b.y0)),
    ],
    [0, 0, MAP_WIDTH, height],
  );
  const extent = ex.map((v, i) => (i < 2 ? Math.floor(v) : Math.ceil(v))) as Plane['extent'];
  return { projection, height, scale, x0: frame.x0, y1: frame.y1, offsetX, offsetY, extent };
}
