// Draws a GeoJSON FeatureCollection as a small inline SVG at build time, so a
// country page shows its outline offline, with no tile server and no script.
// The projection and frame come from build/geo/map-plane.ts (the plane the tiles share);
// the path is snapped to the pixel grid, which drops every vertex finer than a
// pixel. The frame holds the main mass (build/geo/map-frame.ts); outlying shapes are
// drawn outside it, and the SVG's data-extent gives the box of everything.
// Edges along the antimeridian, where crossing data is cut, are filled but not
// stroked (antimeridian.ts).
import { openAtCut } from '../geo/antimeridian.ts';
import { labelPlace } from './label-point.ts';
import { MAP_WIDTH, OuterRings, planeOf, polygonsOf, projector, type Plane } from '../geo/map-plane.ts';

export { MAP_WIDTH, MAX_HEIGHT } from '../geo/map-plane.ts';

type Position = number[];
type Ring = Position[];

export interface MapSvg {
  svg: string; // e.g. '<svg viewBox="0 0 600 450" …><path …/></svg>'
  features: number; // features drawn
  plane: Plane; // the projection and frame it was drawn in
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
 * Returns one ring as relative path commands on the pixel grid, or a dot when
 * it collapses; `open` leaves out the closing "z", so the edge from its last
 * point back to its first is filled but not stroked (a cut: antimeridian.ts).
 */
function ringPath(ring: Ring, project: (p: Position) => [number, number], open = false): string {
  const points: [number, number][] = [];
  for (const position of ring) {
    if (!Array.isArray(position) || position.length < 2) continue;
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
  if (!open && points.length > 1 && points[0][0] === points.at(-1)![0] && points[0][1] === points.at(-1)![1])
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
  return open ? d : `${d}z`;
}

/** A polygon smaller than this (SVG units, its box's longer side) is drawn with a marker around it. */
const MARKER_BELOW = 6;
/** Markers of one unit closer than this (SVG units) are drawn once. */
const MARKER_CELL = 8;

/**
 * Returns a marker (a ring around it, data-s its size) for every polygon
 * smaller than MARKER_BELOW at the widest view, "Show all" (the whole extent,
 * `zoomOut` times the frame), so islands and tiny units that the pixel grid
 * shrinks to a speck stay visible (every island of Tuvalu or Kiribati, whose
 * outer islands lie thousands of units from the frame); one per cell of
 * MARKER_CELL × zoomOut per unit, so a chain of islets is a few rings, not a
 * smear, and none that near a larger polygon of the same unit (the islets
 * along a coast are seen with it). A marker whose polygon is large enough to
 * see at the frame starts hidden; the script shows and sizes them as the
 * reader zooms (src/client/markers.ts).
 */
function tinyMarkers(
  polygons: Ring[][],
  toPlane: ReturnType<typeof projector>,
  id: string | undefined,
  zoomOut: number,
): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const at = new Float64Array(2);
  const [below, cell] = [MARKER_BELOW * zoomOut, MARKER_CELL * zoomOut];
  const boxes = polygons.map((polygon) => {
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const p of Array.isArray(polygon[0]) ? polygon[0] : []) {
      if (!Array.isArray(p) || p.length < 2) continue;
      toPlane(p[0], p[1], at);
      [x0, y0, x1, y1] = [Math.min(x0, at[0]), Math.min(y0, at[1]), Math.max(x1, at[0]), Math.max(y1, at[1])];
    }
    return [x0, y0, x1, y1];
  });
  const large = boxes.filter(([x0, y0, x1, y1]) => Math.max(x1 - x0, y1 - y0) >= below);
  for (const [x0, y0, x1, y1] of boxes) {
    const size = Math.max(x1 - x0, y1 - y0);
    if (!(size < below)) continue;
    const [cx, cy] = [(x0 + x1) / 2, (y0 + y1) / 2];
    const c = cell;
    if (large.some(([a, b, e, f]) => cx >= a - c && cx <= e + c && cy >= b - c && cy <= f + c)) continue;
    const key = `${Math.floor(cx / cell)} ${Math.floor(cy / cell)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const u = id ? ` data-u="${escapeXml(id)}"` : '';
    const cls = size < MARKER_BELOW ? 'm' : 'm hidden'; // seen by itself at the frame: a ring only when zoomed out
    out.push(
      `<circle class="${cls}"${u} cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="4" data-s="${size.toFixed(2)}"/>`,
    );
  }
  return out;
}

/**
 * Returns the attributes that say where a feature's label goes
 * (src/client/labels.ts): data-box, its largest polygon's box, when it has
 * several (the USA's lower 48, not Alaska to Guam); data-at, a point inside
 * that polygon, when the box's centre is not (Valparaíso's mainland, not the
 * ocean between it and Easter Island). Neither when the path's own box serves.
 */
function labelAttributes(polygons: Ring[][], toPlane: ReturnType<typeof projector>): string {
  // On the pixel grid, as the path is drawn: a point inside the unrounded shape may be outside the drawn one.
  const drawn = polygons.map((polygon) =>
    (Array.isArray(polygon) ? polygon : []).map((ring) => openAtCut(ring).ring),
  );
  const place = labelPlace(drawn, (lon, lat, out) => {
    toPlane(lon, lat, out);
    [out[0], out[1]] = [Math.round(out[0]!), Math.round(out[1]!)];
  });
  if (!place) return '';
  const box = polygons.length > 1 ? ` data-box="${place.box.join(' ')}"` : '';
  const at = place.centred ? '' : ` data-at="${place.at.map((v) => +v.toFixed(1)).join(' ')}"`;
  return `${box}${at}`;
}

/**
 * Returns an SVG of every (Multi)Polygon feature of `collection`, one `<path>`
 * per feature with its name as tooltip (and `ids[i]` as data-u), in `plane`
 * (the country's, so every level lines up), else the one planeOf frames for
 * the collection itself; `title` labels the image for screen readers.
 * Undefined when the collection has no polygon to draw.
 */
export function renderMapSvg(
  collection: unknown,
  title: string,
  ids: (string | undefined)[] = [],
  given?: Plane,
): MapSvg | undefined {
  const features = ((collection as { features?: unknown[] })?.features ?? []) as {
    geometry?: unknown;
    properties?: unknown;
  }[];
  const outer = new OuterRings();
  for (const feature of features) outer.add(feature.geometry);
  const plane = outer.coords.length > 0 ? (given ?? planeOf(outer)) : undefined;
  if (!plane) return undefined;
  const toPlane = projector(plane);
  const at = new Float64Array(2);
  const project = (p: Position): [number, number] => {
    toPlane(p[0], p[1], at);
    return [Math.round(at[0]), Math.round(at[1])];
  };
  const paths: string[] = [];
  const markers: string[] = [];
  // How many times the frame "Show all" zooms out to: markers are needed down to that scale.
  const [ex0, ey0, ex1, ey1] = plane.extent;
  const zoomOut = Math.max(1, (ex1 - ex0) / MAP_WIDTH, (ey1 - ey0) / plane.height);
  features.forEach((feature, i) => {
    const polygons = polygonsOf(feature.geometry);
    if (polygons.length === 0) return;
    markers.push(...tinyMarkers(polygons, toPlane, ids[i], zoomOut));
    const d = [
      // A Set: specks on the same pixel are one dot (two would cancel out under the even-odd fill).
      ...new Set(
        polygons
          .flat()
          .filter((ring) => Array.isArray(ring) && ring.some((p) => Array.isArray(p) && p.length >= 2))
          .map((ring) => {
            const cut = openAtCut(ring);
            return ringPath(cut.ring, project, cut.open);
          }),
      ),
    ].join('');
    if (!d) return;
    const name = featureName(feature.properties);
    const tooltip = name ? `<title>${escapeXml(name)}</title>` : '';
    const id = ids[i] ? ` data-u="${escapeXml(ids[i]!)}"` : '';
    const label = labelAttributes(polygons, toPlane);
    paths.push(`<path class="f"${id}${label} fill-rule="evenodd" d="${d}">${tooltip}</path>`);
  });
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${MAP_WIDTH} ${plane.height}" data-extent="${plane.extent.join(' ')}" role="img" aria-labelledby="map-title">` +
    `<title id="map-title">${escapeXml(title)}</title>${paths.join('')}${markers.length ? `<g class="markers">${markers.join('')}</g>` : ''}</svg>`;
  return { svg, features: paths.length, plane };
}
