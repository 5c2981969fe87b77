// The standard pyramid of the Web Mercator archives (mercator.ts): every
// zoom from 0 to the deepest stored, each tile simplified to its zoom's
// tolerance, none a leaf. Where pyramid.ts clips each level's simplified
// rings whole into every tile they cross, this one carries each point's
// Douglas-Peucker weight (arcs.ts) down the quadtree with the full-detail
// pieces, so a tile's content is its own pieces' points heavier than the
// zoom's tolerance: each point is clipped once per zoom, never a whole ring
// per tile. Both neighbours of a border keep the same points (the same arc
// weights), and clip points (on the buffer's edges, outside the tile) are
// computed alike on both sides (clip.ts), so shared borders stay identical.
import { TILE_BUFFER, TILE_EXTENT } from '../core/shared/tiles.ts';
import { DoubleList, IntList } from '../geo/topology.ts';
import { ringWeighted, type Arcs } from './arcs.ts';
import { RingClipper, type Box } from './clip.ts';
import type { GridRings } from './grid.ts';
import type { UnitProperties } from './mvt.ts';
import { gzipTile } from './pmtiles.ts';
import { encodeTile, NodeBuilder, type PyramidTile } from './pyramid.ts';

/** Pieces of rings inside one tile, at full detail with their weights: piece i is [starts[i], starts[i + 1]) of ring[i]. */
interface Node {
  x: number;
  y: number;
  xs: Int32Array;
  ys: Int32Array;
  ws: Float64Array;
  starts: Int32Array;
  ring: Int32Array;
}

/** Collects clipped pieces with their weights, rounded to the grid (a repeat keeps the heavier weight). */
class WeightedBuilder {
  xs = new IntList(256);
  ys = new IntList(256);
  ws = new DoubleList(256);
  starts = new IntList(16);
  ring = new IntList(16);
  constructor() {
    this.starts.push(0);
  }
  /** Adds the clipped piece (x, y, w)[0, n) of ring `ring`. */
  add(x: Float64Array, y: Float64Array, w: Float64Array, n: number, ring: number): void {
    const base = this.xs.length;
    for (let i = 0; i < n; i++) this.point(Math.round(x[i]), Math.round(y[i]), w[i], base);
    this.close(base, ring);
  }
  /** Adds points [s, e) of a parent's piece whole (it lies inside the child's box: add() would round nothing). */
  addWhole(xs: Int32Array, ys: Int32Array, ws: Float64Array, s: number, e: number, ring: number): void {
    const base = this.xs.length;
    for (let i = s; i < e; i++) this.point(xs[i], ys[i], ws[i], base);
    this.close(base, ring);
  }
  private point(gx: number, gy: number, w: number, base: number): void {
    const last = this.xs.length - 1;
    if (last >= base && this.xs.data[last] === gx && this.ys.data[last] === gy) {
      this.ws.data[last] = Math.max(this.ws.data[last], w);
      return;
    }
    this.xs.push(gx);
    this.ys.push(gy);
    this.ws.push(w);
  }
  private close(base: number, ring: number): void {
    if (this.xs.length - base < 3) {
      this.xs.length = this.ys.length = this.ws.length = base; // a sliver of the buffer
      return;
    }
    this.starts.push(this.xs.length);
    this.ring.push(ring);
  }
  node(x: number, y: number): Node {
    return {
      x,
      y,
      xs: this.xs.data.slice(0, this.xs.length),
      ys: this.ys.data.slice(0, this.ys.length),
      ws: this.ws.data.slice(0, this.ws.length),
      starts: this.starts.data.slice(0, this.starts.length),
      ring: this.ring.data.slice(0, this.ring.length),
    };
  }
}

/** Returns each piece's extent in `node`: [x0, y0, x1, y1] at 4 · i. */
function pieceBoxes(node: Node): Float64Array {
  const boxes = new Float64Array(4 * node.ring.length);
  for (let i = 0; i < node.ring.length; i++) {
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let k = node.starts[i]; k < node.starts[i + 1]; k++) {
      const [x, y] = [node.xs[k], node.ys[k]];
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
    boxes.set([x0, y0, x1, y1], 4 * i);
  }
  return boxes;
}

/** Returns the root node: every ring at full detail, with its points' weights. */
function rootNode(rings: GridRings, arcs: Arcs): Node {
  const [xs, ys, ws] = [new IntList(rings.x.length + 1), new IntList(rings.y.length + 1), [] as number[]];
  const starts = [0];
  for (let r = 0; r < rings.rings; r++) {
    ringWeighted(arcs, r, xs, ys, ws);
    starts.push(xs.length);
  }
  return {
    x: 0,
    y: 0,
    xs: xs.data.subarray(0, xs.length),
    ys: ys.data.subarray(0, ys.length),
    ws: Float64Array.from(ws),
    starts: Int32Array.from(starts),
    ring: Int32Array.from({ length: rings.rings }, (_, i) => i),
  };
}

/** What nodeTile reuses from tile to tile: a tile's content is encoded before the next one is built. */
class TileScratch {
  out = new NodeBuilder();
  x = new Float64Array(1024);
  y = new Float64Array(1024);
}

/** Returns the tile of `node` at `scale` grid units per tile unit: its points heavier than `tolerance2`. */
function nodeTile(
  rings: GridRings,
  node: Node,
  scale: number,
  tolerance2: number,
  properties: UnitProperties,
  scratch: TileScratch,
): Uint8Array {
  const [ox, oy] = [node.x * TILE_EXTENT * scale, node.y * TILE_EXTENT * scale];
  const out = scratch.out.clear();
  for (let i = 0; i < node.ring.length; i++) {
    const [s, e] = [node.starts[i], node.starts[i + 1]];
    if (e - s > scratch.x.length)
      [scratch.x, scratch.y] = [new Float64Array(2 * (e - s)), new Float64Array(2 * (e - s))];
    const { x, y } = scratch;
    let n = 0;
    for (let k = s; k < e; k++) {
      if (node.ws[k] <= tolerance2) continue;
      x[n] = (node.xs[k] - ox) / scale;
      y[n++] = (node.ys[k] - oy) / scale;
    }
    if (n > 0) out.add(x, y, n, node.ring[i], true); // an island smaller than a tile unit stays, as a point
  }
  const t = out.node(0, 0);
  return encodeTile(
    rings,
    t.ring.length,
    (i) => t.ring[i],
    (i) => [t.xs, t.ys, t.starts[i], t.starts[i + 1]],
    TILE_EXTENT,
    { ox, oy, k: scale },
    properties,
  );
}

/**
 * Returns every non-empty tile of zooms 0 to `deepest` of `rings` (on a grid
 * of 4096 · 2^deepest units), each simplified to `tolerance` tile units.
 */
export function mercatorPyramid(
  rings: GridRings,
  arcs: Arcs,
  deepest: number,
  tolerance: number,
  properties: UnitProperties,
): PyramidTile[] {
  const clipper = new RingClipper();
  const scratch = new TileScratch();
  const tiles: PyramidTile[] = [];
  let nodes = [rootNode(rings, arcs)];
  for (let z = 0; z <= deepest && nodes.length > 0; z++) {
    const scale = 2 ** (deepest - z);
    const next: Node[] = [];
    for (const node of nodes) {
      const raw = nodeTile(rings, node, scale, (tolerance * scale) ** 2, properties, scratch);
      tiles.push({
        z,
        x: node.x,
        y: node.y,
        data: gzipTile(raw),
        leaf: false,
        extent: TILE_EXTENT,
      });
      if (z === deepest) continue;
      const half = (TILE_EXTENT * scale) / 2;
      const boxes = pieceBoxes(node);
      const buffer = (TILE_BUFFER * scale) / 2;
      for (let c = 0; c < 4; c++) {
        const [cx, cy] = [2 * node.x + (c & 1), 2 * node.y + (c >> 1)];
        const box: Box = [
          cx * half - buffer,
          cy * half - buffer,
          (cx + 1) * half + buffer,
          (cy + 1) * half + buffer,
        ];
        const child = new WeightedBuilder();
        for (let i = 0; i < node.ring.length; i++) {
          const [s, e] = [node.starts[i], node.starts[i + 1]];
          const [x0, y0, x1, y1] = [boxes[4 * i], boxes[4 * i + 1], boxes[4 * i + 2], boxes[4 * i + 3]];
          // As RingClipper.clip decides: wholly outside, wholly inside, or cut.
          if (x1 < box[0] || x0 > box[2] || y1 < box[1] || y0 > box[3]) continue;
          if (x0 >= box[0] && x1 <= box[2] && y0 >= box[1] && y1 <= box[3]) {
            child.addWhole(node.xs, node.ys, node.ws, s, e, node.ring[i]);
            continue;
          }
          const { x, y, w, n } = clipper.clip(node.xs, node.ys, s, e, box, node.ws);
          if (n > 0) child.add(x, y, w, n, node.ring[i]);
        }
        if (child.ring.length > 0) next.push(child.node(cx, cy));
      }
    }
    nodes = next;
  }
  return tiles;
}
