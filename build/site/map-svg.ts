// Draws a GeoJSON FeatureCollection as a small inline SVG at build time, so a
// country page shows its outline offline, with no tile server and no script.
// Projection: equirectangular with x scaled by cos(mid-latitude); the path is
// snapped to the pixel grid, which drops every vertex finer than a pixel.
// The frame holds the main mass (build/site/map-frame.ts); outlying shapes are
// drawn outside it, and the SVG's data-extent gives the box of everything.
import { mainFrame, type Box } from './map-frame.ts';
import { longitudeSpan } from './units.ts';

type Position = number[];
type Ring = Position[];

export interface MapSvg {
  svg: string; // e.g. '<svg viewBox="0 0 600 450" …><path …/></svg>'
  features: number; // features drawn
}

/** Frame of every map, in SVG user units; the content is centred in it. */
export const MAP_WIDTH = 600;
export const MIN_HEIGHT = 300;
export const MAX_HEIGHT = 600;
const PAD = 12;

/** Returns the polygons (lists of rings) of a GeoJSON geometry, ignoring other types. */
function polygonsOf(geometry: unknown): Ring[][] {
  const g = geometry as { type?: string; coordinates?: unknown; geometries?: unknown[] } | null;
  if (!g) return [];
  if (g.type === 'Polygon' && Array.isArray(g.coordinates)) return [g.coordinates as Ring[]];
  if (g.type === 'MultiPolygon' && Array.isArray(g.coordinates)) return g.coordinates as Ring[][];
  if (g.type === 'GeometryCollection' && Array.isArray(g.geometries)) return g.geometries.flatMap(polygonsOf);
  return [];
}

/** Returns a feature's display name from the usual property keys, or undefined. */
function featureName(properties: unknown): string | undefined {
  const p = (properties ?? {}) as Record<string, unknown>;
  for (const key of ['shapeName', 'name', 'NAME', 'name_en', 'NAME_EN', 'shapeISO', 'iso_a3']) {
    if (typeof p[key] === 'string' && p[key]) return p[key] as string;
  }
  return undefined;
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
}

/**
 * Returns the longitude shift that keeps a shape crossing the antimeridian
 * together: 360 when moving western longitudes east makes it narrower
 * (Fiji: -180…180 becomes 177…182), else 0.
 */
function antimeridianShift(lons: number[]): number {
  return longitudeSpan(lons).crosses ? 360 : 0;
}

/** Returns the box and area of a polygon's outer ring in projected units (x = lon × cos). */
function outerBox(polygon: Ring[], lon: (p: Position) => number, cos: number): Box {
  const ring = (polygon[0] ?? []).filter((p) => Array.isArray(p) && p.length >= 2);
  let [x0, y0, x1, y1, twice] = [Infinity, Infinity, -Infinity, -Infinity, 0];
  ring.forEach((p, i) => {
    const x = lon(p) * cos;
    [x0, x1, y0, y1] = [Math.min(x0, x), Math.max(x1, x), Math.min(y0, p[1]), Math.max(y1, p[1])];
    const q = ring[(i + 1) % ring.length];
    twice += x * q[1] - lon(q) * cos * p[1];
  });
  return { x0, y0, x1, y1, area: Math.abs(twice) / 2 };
}

/** Returns one ring as relative path commands on the pixel grid, or a dot when it collapses. */
function ringPath(ring: Ring, project: (p: Position) => [number, number]): string {
  const points: [number, number][] = [];
  for (const position of ring) {
    const [x, y] = project(position);
    const last = points[points.length - 1];
    if (last && last[0] === x && last[1] === y) continue;
    // Drop the middle one of three collinear points: it adds nothing at this scale.
    const before = points[points.length - 2];
    if (before && last && (last[0] - before[0]) * (y - last[1]) === (last[1] - before[1]) * (x - last[0])) {
      points[points.length - 1] = [x, y];
      continue;
    }
    points.push([x, y]);
  }
  if (points.length > 1 && points[0][0] === points.at(-1)![0] && points[0][1] === points.at(-1)![1])
    points.pop();
  if (points.length < 3) {
    // An island smaller than a pixel: keep it visible as a 2×2 dot.
    const [x, y] = points[0] ?? project(ring[0]);
    return `M${x - 1} ${y - 1}h2v2h-2z`;
  }
  let d = `M${points[0][0]} ${points[0][1]}`;
  for (let i = 1; i < points.length; i++) {
    const dx = points[i][0] - points[i - 1][0];
    const dy = points[i][1] - points[i - 1][1];
    d += `l${dx}${dy < 0 ? '' : ' '}${dy}`;
  }
  return `${d}z`;
}

/**
 * Returns an SVG of every (Multi)Polygon feature of `collection`, one `<path>`
 * per feature with its name as tooltip, fitted into a frame MAP_WIDTH wide
 * and MIN_HEIGHT to MAX_HEIGHT high; `title` labels the image for screen readers. Undefined when the
 * collection has no polygon to draw.
 */
export function renderMapSvg(
  collection: unknown,
  title: string,
  ids: (string | undefined)[] = [],
): MapSvg | undefined {
  const features = ((collection as { features?: unknown[] })?.features ?? []) as {
    geometry?: unknown;
    properties?: unknown;
  }[];
  const shapes = features
    .map((feature, i) => ({
      id: ids[i],
      name: featureName(feature.properties),
      polygons: polygonsOf(feature.geometry),
    }))
    .filter((shape) => shape.polygons.length > 0);
  const all = shapes.flatMap((s) => s.polygons.flat(2)).filter((p) => Array.isArray(p) && p.length >= 2);
  if (all.length === 0) return undefined;

  const shift = antimeridianShift(all.map((p) => p[0]));
  const lon = (p: Position) => (shift && p[0] < 0 ? p[0] + shift : p[0]);
  let [south, north] = [Infinity, -Infinity];
  for (const p of all) [south, north] = [Math.min(south, p[1]), Math.max(north, p[1])];
  const cos = Math.max(Math.cos((((south + north) / 2) * Math.PI) / 180), 0.05);
  const boxes: Box[] = shapes.flatMap((s) => s.polygons.map((polygon) => outerBox(polygon, lon, cos)));
  const frame = mainFrame(boxes.filter((b) => Number.isFinite(b.x0)));
  const west = frame.x0 / cos;
  const east = frame.x1 / cos;
  [south, north] = [frame.y0, frame.y1];
  const width = Math.max((east - west) * cos, 1e-9);
  const height = Math.max(north - south, 1e-9);
  // The frame is MAP_WIDTH wide; its height follows the shape, within bounds
  // (Chile gets a tall frame, Russia a wide one).
  const frameHeight = Math.round(
    Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, (MAP_WIDTH - 2 * PAD) * (height / width) + 2 * PAD)),
  );
  const scale = Math.min((MAP_WIDTH - 2 * PAD) / width, (frameHeight - 2 * PAD) / height);
  const offsetX = (MAP_WIDTH - width * scale) / 2;
  const offsetY = (frameHeight - height * scale) / 2;
  const project = (p: Position): [number, number] => [
    Math.round(offsetX + (lon(p) - west) * cos * scale),
    Math.round(offsetY + (north - p[1]) * scale),
  ];

  const paths = shapes.map((shape) => {
    const d = shape.polygons
      .flat()
      .filter((ring) => Array.isArray(ring) && ring.length > 0)
      .map((ring) => ringPath(ring, project))
      .join('');
    const tooltip = shape.name ? `<title>${escapeXml(shape.name)}</title>` : '';
    const id = shape.id ? ` data-u="${escapeXml(shape.id)}"` : '';
    return `<path class="f"${id} fill-rule="evenodd" d="${d}">${tooltip}</path>`;
  });
  // Everything drawn, in SVG units, for zooming out to the outlying shapes.
  const [ex0, ey0] = project([
    Math.min(...boxes.map((b) => b.x0)) / cos,
    Math.max(...boxes.map((b) => b.y1)),
  ]);
  const [ex1, ey1] = project([
    Math.max(...boxes.map((b) => b.x1)) / cos,
    Math.min(...boxes.map((b) => b.y0)),
  ]);
  const extent = [Math.min(ex0, 0), Math.min(ey0, 0), Math.max(ex1, MAP_WIDTH), Math.max(ey1, frameHeight)];
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${MAP_WIDTH} ${frameHeight}" data-extent="${extent.join(' ')}" role="img" aria-labelledby="map-title">` +
    `<title id="map-title">${escapeXml(title)}</title>${paths.join('')}</svg>`;
  return { svg, features: shapes.length };
}
