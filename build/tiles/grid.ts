// A level's rings on the tiles' integer grid: projected into the map's
// plane, then quantised to 1/4096 of a tile of the deepest level, so a point
// is within 1/8 px of where the source puts it even at the deepest zoom, and
// every level's coordinates are these integers divided by a power of two.
// Repeated points and spikes (a → b → a) are removed: projecting Antarctica
// around the pole folds its ring's walk along the antimeridian and the pole
// line into a spike, which is no border and must not be drawn.
import { deepestLevel, MAP_WIDTH, TILE_EXTENT, type TileRoot } from '../core/shared/tiles.ts';
import { IntList, type RingPoints } from '../geo/topology.ts';
import { projector, type Plane } from '../geo/map-plane.ts';
import { CutLine } from './cut-line.ts';
import type { LevelRings } from './level-rings.ts';

/** The square a level's tiles divide, its deepest level, and grid units across it (4096 · 2^deepest). */
export interface TileGrid {
  root: TileRoot;
  deepest: number;
  size: number;
}

/** A level's rings on the grid (topology.ts's input), with each ring's unit and polygon. */
export interface GridRings extends RingPoints {
  unit: Int32Array; // per ring
  outer: Int32Array; // per ring: its polygon's outer ring
  cuts: CutLine; // where the data is cut at the antimeridian
}

/**
 * Returns the root square holding every point (`xs`, `ys`, SVG units) and the
 * home frame, slightly enlarged so that no point lies on its far edges.
 */
function rootSquare(xs: Float64Array, ys: Float64Array, frameHeight: number): TileRoot {
  let [x0, y0, x1, y1] = [0, 0, MAP_WIDTH, frameHeight];
  for (let i = 0; i < xs.length; i++) {
    if (xs[i] < x0) x0 = xs[i];
    if (xs[i] > x1) x1 = xs[i];
    if (ys[i] < y0) y0 = ys[i];
    if (ys[i] > y1) y1 = ys[i];
  }
  const side = Math.max(x1 - x0, y1 - y0) * 1.001;
  return [x0 - (side - (x1 - x0)) / 2, y0 - (side - (y1 - y0)) / 2, side];
}

/** Appends ring [s, e) of `gx`/`gy` to `out` without repeats or spikes; returns how many points it kept. */
function cleanRing(gx: Int32Array, gy: Int32Array, s: number, e: number, out: RingPoints): number {
  const x = out.x;
  const y = out.y;
  const base = x.length;
  for (let i = s; i < e; i++) {
    const n = x.length - base;
    if (n > 0 && x.data[x.length - 1] === gx[i] && y.data[y.length - 1] === gy[i]) continue;
    if (n > 1 && x.data[x.length - 2] === gx[i] && y.data[y.length - 2] === gy[i]) {
      x.length--; // the last point was a spike's tip
      y.length--;
      continue;
    }
    x.push(gx[i]);
    y.push(gy[i]);
  }
  // Where the ring closes: a repeated first point, or a spike across the start.
  let lo = base;
  const same = (a: number, b: number) => x.data[a] === x.data[b] && y.data[a] === y.data[b];
  for (let changed = true; changed && x.length - lo >= 3;) {
    const hi = x.length - 1;
    let drop = 0;
    if (same(hi, lo)) drop = 1;
    else if (same(hi, lo + 1)) {
      lo++; // the first point was a tip
      drop = 1;
    } else if (same(hi - 1, lo)) drop = 2; // the last point was a tip
    x.length -= drop;
    y.length -= drop;
    changed = drop > 0;
  }
  if (lo > base) {
    x.data.copyWithin(base, lo, x.length);
    y.data.copyWithin(base, lo, y.length);
    x.length -= lo - base;
    y.length -= lo - base;
  }
  const kept = x.length - base;
  for (let n = kept; n < 3; n++) {
    // A ring smaller than the grid stays a (degenerate) triangle: it still marks where its unit is.
    x.push(x.data[base] ?? 0);
    y.push(y.data[base] ?? 0);
  }
  return kept;
}

/** Returns the rings of `level` projected into `plane` and quantised to the tile grid. */
export function gridRings(level: LevelRings, plane: Plane): { grid: TileGrid; rings: GridRings } {
  const points = level.points;
  const xs = new Float64Array(points);
  const ys = new Float64Array(points);
  const project = projector(plane);
  const at = new Float64Array(2);
  const c = level.coords.data;
  for (let i = 0; i < points; i++) {
    project(c[2 * i], c[2 * i + 1], at);
    xs[i] = at[0];
    ys[i] = at[1];
  }
  const root = rootSquare(xs, ys, plane.height);
  const deepest = deepestLevel(root[2]);
  const size = TILE_EXTENT * 2 ** deepest;
  const k = size / root[2];
  const gx = new Int32Array(points);
  const gy = new Int32Array(points);
  for (let i = 0; i < points; i++) {
    gx[i] = Math.round((xs[i] - root[0]) * k);
    gy[i] = Math.round((ys[i] - root[1]) * k);
  }
  return { grid: { root, deepest, size }, rings: ringsOnGrid(level, gx, gy, deepest) };
}

/**
 * Returns the rings of `level` whose points lie at (gx[i], gy[i]) on a grid
 * of 4096 · 2^deepest units, cleaned of repeats and spikes, with their
 * units, polygons and antimeridian cut (for any plane: gridRings, mercator.ts).
 */
export function ringsOnGrid(level: LevelRings, gx: Int32Array, gy: Int32Array, deepest: number): GridRings {
  const points = level.points;
  const out: RingPoints = {
    x: new IntList(points + 3 * level.rings + 1),
    y: new IntList(points + 3 * level.rings + 1),
    ringStart: new IntList(level.rings + 1),
    rings: level.rings,
  };
  out.ringStart.push(0);
  const starts = level.ringStart.data;
  for (let r = 0; r < level.rings; r++) {
    cleanRing(gx, gy, starts[r], starts[r + 1], out);
    out.ringStart.push(out.x.length);
  }
  return {
    ...out,
    rings: level.rings,
    unit: level.ringUnit.data.slice(0, level.rings),
    outer: level.ringOuter.data.slice(0, level.rings),
    cuts: CutLine.of(level, gx, gy, 2 ** deepest), // a tile unit of the root level, the coarsest asked
  };
}
