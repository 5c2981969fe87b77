// The map tiles' geometry, shared by the build (build/tiles/ writes them) and
// the browser (src/client/tile-layer.ts draws them). Tiles live in a map's
// own plane (the SVG user units of its build-time picture, 600 wide at 1×):
// level L cuts the root square into 2^L × 2^L tiles, and tile z/x/y of a
// PMTiles archive is that quadtree cell, not a Web Mercator tile.

/** Width of every map's home frame in SVG user units; 1× shows it 600 px wide. */
export const MAP_WIDTH = 600;
/** Deepest zoom the map allows, relative to its home frame. */
const MAX_ZOOM = 64;
/** A tile's side in MVT units, at every level but a leaf's (see TilesInfo). */
export const TILE_EXTENT = 4096;
/** A level is drawn while its tiles are 512 to 1024 px wide on screen. */
const TILE_MAX_PX = 1024;
/** Geometry kept around a tile, in 4096ths of its side, so its strokes end outside it. */
export const TILE_BUFFER = 64;

/**
 * Largest level (its full files together) the build cuts into tiles. Cutting
 * holds the level's positions in typed arrays, several times over, on the
 * tiles worker thread (build/tiles/cut-level.ts; about 60 bytes a position,
 * where GeoJSON spends about 25: docs/benchmarks.md), so this bounds that
 * thread's memory to a few GB. A larger level keeps its picture at every
 * zoom, and its page says why.
 */
export const MAX_TILED_BYTES = 2 ** 30;

/** The tile feature property naming its rings that close across the antimeridian cut, e.g. "0,3". */
export const CUT_KEY = 'cut';

/** The square every level of a map divides: its top-left corner and side, in SVG user units. */
export type TileRoot = [ox: number, oy: number, side: number];

/** Where a map level's tiles are, as the page and its script read them. */
export interface TilesInfo {
  url: string; // e.g. "/earth/CHL/map-ADM1.pmtiles"
  bytes: number;
  root: TileRoot;
  levels: number; // the deepest level, e.g. 6
  named: boolean; // whether a tile feature's id is the unit's index in the country document's units[level]
  ids?: string[]; // the unit of each tile feature id, when no country document numbers them (the world map)
}

/** Returns the deepest level of a root square of side `side`: its tiles stay ≤ TILE_MAX_PX wide at MAX_ZOOM. */
export function deepestLevel(side: number): number {
  return Math.max(0, Math.min(20, Math.ceil(Math.log2((MAX_ZOOM * side) / TILE_MAX_PX))));
}

/** Returns the level drawn at `pxPerUnit` screen pixels per SVG unit: the one whose tiles are 512–1024 px wide. */
export function levelAt(side: number, pxPerUnit: number, deepest: number): number {
  const level = Math.ceil(Math.log2((pxPerUnit * side) / TILE_MAX_PX) - 1e-9);
  return Math.max(0, Math.min(deepest, level));
}

/** Returns the tiles [x, y] of `level` that a box [x0, y0, x1, y1] (SVG units) overlaps. */
export function tilesUnder(root: TileRoot, level: number, box: number[]): [number, number][] {
  const [ox, oy, side] = root;
  const n = 2 ** level;
  const cell = (v: number, o: number) => Math.max(0, Math.min(n - 1, Math.floor(((v - o) / side) * n)));
  const out: [number, number][] = [];
  if (box[2] < ox || box[3] < oy || box[0] > ox + side || box[1] > oy + side) return out;
  for (let x = cell(box[0], ox); x <= cell(box[2], ox); x++)
    for (let y = cell(box[1], oy); y <= cell(box[3], oy); y++) out.push([x, y]);
  return out;
}

/**
 * Returns the PMTiles id of tile z/x/y: the tiles of lower levels first,
 * then the position along the level's Hilbert curve (PMTiles v3 spec).
 */
export function tileId(z: number, x: number, y: number): number {
  let id = (4 ** z - 1) / 3;
  let [tx, ty] = [x, y];
  for (let s = 2 ** (z - 1); s >= 1; s /= 2) {
    const rx = tx & s ? 1 : 0;
    const ry = ty & s ? 1 : 0;
    id += s * s * ((3 * rx) ^ ry);
    if (ry === 0) {
      if (rx === 1) [tx, ty] = [s - 1 - tx, s - 1 - ty];
      [tx, ty] = [ty, tx];
    }
  }
  return id;
}
