// One level's tiles, from its rings (read by level-rings.ts) to the bytes of
// its PMTiles archive: put them on the tile grid of the country's plane, find
// the shared arcs and weigh their points, cut the adaptive pyramid; the
// caller (tiles-worker.ts, world-tiles.ts) writes it.
import type { TileRoot } from '../core/shared/tiles.ts';
import type { Plane } from '../geo/map-plane.ts';
import { weightedArcs } from './arcs.ts';
import { gridRings } from './grid.ts';
import type { LevelRings } from './level-rings.ts';
import { LAYER } from './mvt.ts';
import { writeArchive } from './pmtiles.ts';
import { buildPyramid } from './pyramid.ts';

/** The archives' version, in their metadata (cached archives need no bump: build/core/cache.ts). */
const TILES_VERSION = 3; // 2: rings closing across the antimeridian cut are marked; 3: header bounds clamped per axis

/** What the page and the client need of a level's archive. */
export interface LevelTiles {
  root: TileRoot;
  levels: number; // the deepest level
  units: number; // features with a position, numbered as the units list numbers them
  tiles: number;
  bytes: number;
}

/** Returns the plain lon/lat bounds of the rings, for the archive's header. */
function bounds(rings: LevelRings): [number, number, number, number] {
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  const c = rings.coords.data;
  for (let i = 0; i < rings.coords.length; i += 2) {
    [w, e] = [Math.min(w, c[i]), Math.max(e, c[i])];
    [s, n] = [Math.min(s, c[i + 1]), Math.max(n, c[i + 1])];
  }
  return [w, s, e, n];
}

/** Returns the archive of rings already read, in `plane`; `name` goes into its metadata, e.g. "CHL_ADM1". */
export function levelArchive(
  rings: LevelRings,
  plane: Plane,
  name: string,
): { bytes: Buffer; tiles: LevelTiles } {
  const { grid, rings: onGrid } = gridRings(rings, plane);
  const pyramid = buildPyramid(onGrid, weightedArcs(onGrid), grid);
  const metadata = {
    name,
    description: `${name}: the units of one level, cut for the catalogue's own map. Tiles are in the map's plane (SVG user units of its page's picture), not Web Mercator: z/x/y is a quadtree cell of geoshelf.root; a feature's id is the unit's index in the level's units list.`,
    version: String(TILES_VERSION),
    vector_layers: [{ id: LAYER, fields: {}, minzoom: 0, maxzoom: grid.deepest }],
    geoshelf: { plane, root: grid.root, levels: grid.deepest, units: rings.units },
  };
  const bytes = writeArchive(pyramid, { bounds: bounds(rings), metadata });
  return {
    bytes,
    tiles: {
      root: grid.root,
      levels: grid.deepest,
      units: rings.units,
      tiles: pyramid.length,
      bytes: bytes.length,
    },
  };
}
