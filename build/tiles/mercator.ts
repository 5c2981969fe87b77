// A level's tiles in Web Mercator (EPSG:3857), the standard z/x/y scheme that
// MapLibre GL JS, Leaflet and OpenLayers read: the same arcs as the
// catalogue's own tiles (arcs.ts; mercator-pyramid.ts), on the world's square
// instead of the country's plane, with every zoom from 0 to the level's
// maximum stored (a standard reader over-zooms only past the archive's
// maximum, so no tile is a leaf above it). Each feature carries its unit's
// release ID, code and name. Latitudes are clamped to ±85.0511°.
import { escapeHtml } from '../core/escape-html.ts';
import { TILE_EXTENT } from '../core/shared/tiles.ts';
import { weightedArcs } from './arcs.ts';
import { ringsOnGrid } from './grid.ts';
import type { LevelRings } from './level-rings.ts';
import type { LevelTiles } from './level-tiles.ts';
import { LAYER, type UnitProperties } from './mvt.ts';
import { writeArchive } from './pmtiles.ts';
import { mercatorPyramid } from './mercator-pyramid.ts';

/** Web Mercator's latitude limit: the world is a square. */
export const MAX_LATITUDE = 85.0511287798066;
/** The deepest zoom an archive stores; readers over-zoom past it. */
const MAX_ZOOM = 12;
/** The maximum zoom is where a level's median segment is this many px long, 512 px per tile. */
const SEGMENT_PX = 4;
/** Simplification at every zoom, the deepest too: 0.5 px of a tile drawn 512 px wide, in its 4096 units. */
const TOLERANCE = TILE_EXTENT / 512 / 2;
/** The feature properties, in this order, as the style and docs name them. */
export const MERCATOR_KEYS = ['unit_id', 'code', 'name'];

/** Returns [x, y] of lon/lat as fractions of the world square (0..1, y down), the latitude clamped. */
export function mercator(lon: number, lat: number): [number, number] {
  const phi = (Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat)) * Math.PI) / 180;
  return [(lon + 180) / 360, (1 - Math.log(Math.tan(Math.PI / 4 + phi / 2)) / Math.PI) / 2];
}

/** Returns every point of `level` in world fractions (xs, ys). */
function projected(level: LevelRings): [Float64Array, Float64Array] {
  const c = level.coords.data;
  const [xs, ys] = [new Float64Array(level.points), new Float64Array(level.points)];
  for (let i = 0; i < level.points; i++) [xs[i], ys[i]] = mercator(c[2 * i], c[2 * i + 1]);
  return [xs, ys];
}

/**
 * Returns the zoom at which the level's median segment is SEGMENT_PX long
 * (512 px tiles): past it, over-zooming shows nothing the data lacks. At
 * most MAX_ZOOM, at least 0.
 */
function mercatorMaxZoom(level: LevelRings, xs: Float64Array, ys: Float64Array, cap: number): number {
  const all = new Float64Array(level.points);
  let n = 0;
  const starts = level.ringStart.data;
  for (let r = 0; r < level.rings; r++) {
    for (let i = starts[r] + 1; i < starts[r + 1]; i++) {
      const d = Math.hypot(xs[i] - xs[i - 1], ys[i] - ys[i - 1]);
      if (d > 0) all[n++] = d;
    }
  }
  if (n === 0) return 0;
  const median = all.subarray(0, n).sort()[Math.floor(n / 2)];
  return Math.max(0, Math.min(cap, Math.ceil(Math.log2(SEGMENT_PX / (512 * median)))));
}

/** Returns the lon/lat bounds of the level, latitudes clamped to Web Mercator's. */
function bounds(level: LevelRings): [number, number, number, number] {
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  const c = level.coords.data;
  for (let i = 0; i < level.coords.length; i += 2) {
    [w, e] = [Math.min(w, c[i]), Math.max(e, c[i])];
    [s, n] = [Math.min(s, c[i + 1]), Math.max(n, c[i + 1])];
  }
  const lat = (v: number) => Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, v));
  return [w, lat(s), e, lat(n)];
}

/** Returns the zoom at which `b` fits one 512 px tile, for the header's centre. */
function fitZoom([w, s, e, n]: [number, number, number, number], maxZoom: number): number {
  const [x0, y1] = mercator(w, s);
  const [x1, y0] = mercator(e, n);
  const span = Math.max(x1 - x0, y1 - y0, 1e-9);
  return Math.max(0, Math.min(maxZoom, Math.floor(Math.log2(1 / span))));
}

/** What the archive's metadata says besides its layer, e.g. {name: "CHL_ADM1", attribution: "Natural Earth"}. */
export interface MercatorLabel {
  name: string;
  attribution?: string;
}

/**
 * Returns the Web Mercator archive of `level` (each unit's feature
 * properties given by `properties`, keyed by MERCATOR_KEYS), and its record.
 * Its deepest zoom is where the median segment is SEGMENT_PX long, at most
 * `maxZoom` (the world's archive asks for less: world-tiles.ts).
 */
export function mercatorArchive(
  level: LevelRings,
  properties: UnitProperties,
  label: MercatorLabel,
  maxZoom = MAX_ZOOM,
): { bytes: Buffer; tiles: LevelTiles } {
  const [xs, ys] = projected(level);
  const deepest = mercatorMaxZoom(level, xs, ys, Math.min(maxZoom, MAX_ZOOM));
  const size = TILE_EXTENT * 2 ** deepest;
  const [gx, gy] = [new Int32Array(level.points), new Int32Array(level.points)];
  for (let i = 0; i < level.points; i++) {
    gx[i] = Math.round(xs[i] * size);
    gy[i] = Math.round(ys[i] * size);
  }
  const rings = ringsOnGrid(level, gx, gy, deepest);
  const pyramid = mercatorPyramid(rings, weightedArcs(rings), deepest, TOLERANCE, properties);
  const box = bounds(level);
  const fields = Object.fromEntries(properties.keys.map((k) => [k, 'String']));
  const metadata = {
    name: label.name,
    description: `${label.name}: one feature per unit, in Web Mercator (EPSG:3857) tiles.`,
    // MapLibre GL JS and Leaflet show it as HTML: the data's text, escaped.
    ...(label.attribution ? { attribution: escapeHtml(label.attribution) } : {}),
    type: 'overlay',
    format: 'pbf',
    vector_layers: [{ id: LAYER, fields, minzoom: 0, maxzoom: deepest }],
  };
  const bytes = writeArchive(pyramid, { bounds: box, metadata, centerZoom: fitZoom(box, deepest) });
  return {
    bytes,
    tiles: {
      root: [0, 0, 1],
      levels: deepest,
      units: level.units,
      tiles: pyramid.length,
      bytes: bytes.length,
    },
  };
}
