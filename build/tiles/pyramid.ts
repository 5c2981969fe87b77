// The adaptive tile pyramid of one level. Level L cuts the root square into
// 2^L × 2^L tiles, each drawn 512–1024 px wide. A tile whose full-detail
// content (every source point inside it and its buffer) is at most
// LEAF_POINTS points is a leaf: it is stored at full detail, at an MVT extent
// of 4096 · 2^(deepest − L) (its coordinates are the grid's own integers), and
// nothing is stored under it; the map draws it at every deeper zoom. Any
// other tile holds the level's simplified shapes (the arcs' points heavier
// than 0.5 px at 1024 px, extent 4096) and is split into four. Empty tiles are
// not stored. One pass per level clips the previous level's full-detail pieces
// into the next one's tiles, so each point is clipped once per level. A ring
// meeting the antimeridian cut is written to close across it (mvt.ts).
import { TILE_BUFFER, TILE_EXTENT } from '../core/shared/tiles.ts';
import { IntList } from '../geo/topology.ts';
import { ringAt, type Arcs } from './arcs.ts';
import { RingClipper, type Box } from './clip.ts';
import type { CutLine } from './cut-line.ts';
import type { GridRings, TileGrid } from './grid.ts';
import { TileEncoder, type UnitProperties } from './mvt.ts';
import { gzipTile, type ArchiveTile } from './pmtiles.ts';

/** A tile holding at most this many points at full detail is a leaf. */
const LEAF_POINTS = 4000;
/** Tolerance of a level's simplification, in its tile units: 0.5 px on a tile drawn 1024 px wide. */
const TOLERANCE = TILE_EXTENT / 1024 / 2;

export interface PyramidTile extends ArchiveTile {
  leaf: boolean;
  extent: number;
}

/** Pieces of rings inside one tile: piece i has the points [starts[i], starts[i + 1]) and comes from ring[i]. */
interface Node {
  x: number;
  y: number;
  xs: Int32Array;
  ys: Int32Array;
  starts: Int32Array;
  ring: Int32Array;
}

/** Collects clipped pieces (rounded to the grid, repeats dropped) into a Node. */
export class NodeBuilder {
  xs = new IntList();
  ys = new IntList();
  starts = new IntList();
  ring = new IntList();
  constructor() {
    this.starts.push(0);
  }
  /** Adds a piece; one of fewer than three distinct points (a sliver of the buffer) is left out. */
  add(x: Float64Array, y: Float64Array, n: number, ring: number, keepTiny: boolean): void {
    const base = this.xs.length;
    for (let i = 0; i < n; i++) {
      const [gx, gy] = [Math.round(x[i]), Math.round(y[i])];
      const last = this.xs.length - 1;
      if (last >= base && this.xs.data[last] === gx && this.ys.data[last] === gy) continue;
      this.xs.push(gx);
      this.ys.push(gy);
    }
    let kept = this.xs.length - base;
    if (
      kept > 1 &&
      this.xs.data[base] === this.xs.data[base + kept - 1] &&
      this.ys.data[base] === this.ys.data[base + kept - 1]
    ) {
      this.xs.length--;
      this.ys.length--;
      kept--;
    }
    if (kept < 3 && !(keepTiny && kept > 0)) {
      this.xs.length = base;
      this.ys.length = base;
      return;
    }
    for (; kept < 3; kept++) {
      this.xs.push(this.xs.data[base]);
      this.ys.push(this.ys.data[base]);
    }
    this.starts.push(this.xs.length);
    this.ring.push(ring);
  }
  get points(): number {
    return this.xs.length;
  }
  /** Empties the builder for the next tile (a tile's content is encoded before the next one is built). */
  clear(): this {
    this.xs.length = this.ys.length = this.starts.length = this.ring.length = 0;
    this.starts.push(0);
    return this;
  }
  node(x: number, y: number): Node {
    return {
      x,
      y,
      xs: this.xs.data.subarray(0, this.xs.length),
      ys: this.ys.data.subarray(0, this.ys.length),
      starts: this.starts.data.subarray(0, this.starts.length),
      ring: this.ring.data.subarray(0, this.ring.length),
    };
  }
}

/** Where a tile's coordinates lie on the grid: grid = tile · k + o, give or take k / 2 (rounding). */
interface Placement {
  ox: number;
  oy: number;
  k: number;
}

/**
 * Returns piece [s, e) of `xs`/`ys` turned to end where its one run of edges
 * along the antimeridian cut begins and to start where it ends (so that its
 * closing edge is the cut), or undefined when it has no such run, or several.
 */
function openAtCut(
  cuts: CutLine,
  place: Placement,
  xs: ArrayLike<number>,
  ys: ArrayLike<number>,
  s: number,
  e: number,
): [Int32Array, Int32Array] | undefined {
  const n = e - s;
  const tolerance = Math.max(1, place.k);
  const on = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    on[i] = cuts.near(xs[s + i] * place.k + place.ox, ys[s + i] * place.k + place.oy, tolerance) ? 1 : 0;
  }
  const cut = (i: number) => on[i % n] === 1 && on[(i + 1) % n] === 1;
  let [runs, start] = [0, -1];
  for (let i = 0; i < n; i++) {
    if (cut(i) && !cut(i + n - 1)) [runs, start] = [runs + 1, i];
  }
  if (runs !== 1) return undefined;
  let end = start;
  while (cut(end)) end++;
  const count = start + n - end + 1;
  if (count < 3) return undefined;
  const [ox, oy] = [new Int32Array(count), new Int32Array(count)];
  for (let k = 0; k < count; k++) {
    ox[k] = xs[s + ((end + k) % n)];
    oy[k] = ys[s + ((end + k) % n)];
  }
  return [ox, oy];
}

/**
 * Writes the pieces (pieceRing[i] is piece i's ring) as one MVT tile: one
 * feature per unit, each polygon's outer ring before its holes. `at(i)`
 * gives piece i's points [start, end) of `xs`/`ys`; `place` where they lie
 * on the grid, to find the rings that close across the antimeridian cut;
 * `properties`, the units' feature properties (mercator-pyramid.ts).
 */
export function encodeTile(
  rings: GridRings,
  pieces: number,
  pieceRing: (i: number) => number,
  at: (i: number) => [ArrayLike<number>, ArrayLike<number>, number, number],
  extent: number,
  place: Placement,
  properties?: UnitProperties,
): Uint8Array {
  // By unit, then polygon, its outer ring first, then piece: keys made once, not per comparison.
  const keys = new Float64Array(3 * pieces);
  for (let i = 0; i < pieces; i++) {
    const r = pieceRing(i);
    keys[3 * i] = rings.unit[r];
    keys[3 * i + 1] = rings.outer[r];
    keys[3 * i + 2] = r === rings.outer[r] ? 0 : 1;
  }
  const order = Array.from({ length: pieces }, (_, i) => i);
  order.sort(
    (a, b) =>
      keys[3 * a] - keys[3 * b] ||
      keys[3 * a + 1] - keys[3 * b + 1] ||
      keys[3 * a + 2] - keys[3 * b + 2] ||
      a - b,
  );
  const encoder = new TileEncoder(extent, properties);
  let unit = -1;
  let outerSeen = -1; // the last polygon whose outer ring is in this tile
  for (const i of order) {
    const r = pieceRing(i);
    if (rings.unit[r] !== unit) encoder.feature((unit = rings.unit[r]));
    const outer = r === rings.outer[r];
    if (outer) outerSeen = r;
    else if (outerSeen !== rings.outer[r]) continue; // a hole whose outer ring lies outside the tile
    const [xs, ys, s, e] = at(i);
    const open = rings.cuts.empty ? undefined : openAtCut(rings.cuts, place, xs, ys, s, e);
    if (open) encoder.ring(open[0], open[1], 0, open[0].length, outer, true);
    else encoder.ring(xs, ys, s, e, outer);
  }
  return encoder.finish();
}

/** Returns the stored tiles of the adaptive pyramid of `rings` (its arcs weighted by arcs.ts). */
export function buildPyramid(
  rings: GridRings,
  arcs: Arcs,
  grid: TileGrid,
  leafPoints = LEAF_POINTS,
): PyramidTile[] {
  const clipper = new RingClipper();
  const scratch = new NodeBuilder(); // each split tile's content, encoded before the next
  const tiles: PyramidTile[] = [];
  let nodes: Node[] = [
    {
      x: 0,
      y: 0,
      xs: rings.x.data.subarray(0, rings.x.length),
      ys: rings.y.data.subarray(0, rings.y.length),
      starts: rings.ringStart.data.subarray(0, rings.rings + 1),
      ring: Int32Array.from({ length: rings.rings }, (_, i) => i),
    },
  ];
  for (let level = 0; level <= grid.deepest && nodes.length > 0; level++) {
    const scale = 2 ** (grid.deepest - level); // grid units per tile unit of this level
    const side = TILE_EXTENT * scale;
    const buffered = (x: number, y: number, s: number, b: number): Box => [
      x * s - b,
      y * s - b,
      (x + 1) * s + b,
      (y + 1) * s + b,
    ];
    const simplified = new Map<number, [Int32Array, Int32Array]>(); // ring → its points kept at this level
    const next: Node[] = [];
    for (const node of nodes) {
      const pieces = node.ring.length;
      const points = node.starts[pieces];
      if (pieces === 0) continue;
      const [ox, oy] = [node.x * side, node.y * side];
      const leaf = points <= leafPoints || level === grid.deepest;
      let raw: Uint8Array;
      if (leaf) {
        const local = (v: Int32Array, o: number) => v.map((g) => g - o);
        const [lx, ly] = [local(node.xs, ox), local(node.ys, oy)];
        raw = encodeTile(
          rings,
          pieces,
          (i) => node.ring[i],
          (i) => [lx, ly, node.starts[i], node.starts[i + 1]],
          side,
          { ox, oy, k: 1 },
        );
      } else {
        raw = simplifiedTile(
          rings,
          arcs,
          node,
          level,
          scale,
          simplified,
          clipper,
          buffered(node.x, node.y, side, TILE_BUFFER * scale),
          scratch.clear(),
        );
        for (let c = 0; c < 4; c++) {
          const [cx, cy] = [2 * node.x + (c & 1), 2 * node.y + (c >> 1)];
          const box = buffered(cx, cy, side / 2, (TILE_BUFFER * scale) / 2);
          const child = new NodeBuilder();
          for (let i = 0; i < pieces; i++) {
            const { x, y, n } = clipper.clip(node.xs, node.ys, node.starts[i], node.starts[i + 1], box);
            if (n > 0) child.add(x, y, n, node.ring[i], false);
          }
          if (child.points > 0) next.push(child.node(cx, cy));
        }
      }
      const extent = leaf ? side : TILE_EXTENT;
      tiles.push({ z: level, x: node.x, y: node.y, data: gzipTile(raw), leaf, extent });
    }
    nodes = next;
  }
  return tiles;
}

/** Returns the tile of a split node: its rings at this level's detail, clipped to it, in tile units. */
function simplifiedTile(
  rings: GridRings,
  arcs: Arcs,
  node: Node,
  level: number,
  scale: number,
  simplified: Map<number, [Int32Array, Int32Array]>,
  clipper: RingClipper,
  box: Box,
  out: NodeBuilder, // empty
): Uint8Array {
  const tolerance2 = (TOLERANCE * scale) ** 2;
  const [ox, oy] = [box[0] + TILE_BUFFER * scale, box[1] + TILE_BUFFER * scale];
  for (const r of new Set(node.ring)) {
    let kept = simplified.get(r);
    if (!kept) {
      const [xs, ys] = [new IntList(64), new IntList(64)];
      ringAt(arcs, r, tolerance2, xs, ys);
      kept = [xs.data.slice(0, xs.length), ys.data.slice(0, ys.length)];
      simplified.set(r, kept);
    }
    const { x, y, n } = clipper.clip(kept[0], kept[1], 0, kept[0].length, box);
    if (n === 0) continue;
    for (let i = 0; i < n; i++) {
      x[i] = (x[i] - ox) / scale;
      y[i] = (y[i] - oy) / scale;
    }
    out.add(x, y, n, r, true); // an island smaller than a tile unit stays, as a point
  }
  const node2 = out.node(0, 0);
  return encodeTile(
    rings,
    node2.ring.length,
    (i) => node2.ring[i],
    (i) => [node2.xs, node2.ys, node2.starts[i], node2.starts[i + 1]],
    TILE_EXTENT,
    { ox, oy, k: scale },
  );
}
