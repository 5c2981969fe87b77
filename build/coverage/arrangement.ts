// The faces that a level's unmatched segments (build/coverage/edges.ts) cut
// the plane into, and how many units cover each. Crossing a matched pair of
// segments leaves one unit and enters another, so the number of units over a
// point (its depth) changes only across unmatched segments: it is constant on
// each face of their arrangement. Faces of depth 0 that are bounded are the
// holes of the level's union; faces of depth 2 or more are overlaps. The
// segments are noded (noding.ts: split where they cross or touch, with GEOS's
// robust line intersector), joined into a planar graph whose edges are the
// paths between nodes and keep the net count of units on their left
// (graph.ts), and the faces are traced by turning at each node (exact angle
// order by orient2d). Depths follow from the unbounded face (depth 0) across
// edges, so no point-in-polygon test decides them.
import { orient2d } from 'robust-predicates';
import { BoxTree } from '../geometry/box-tree.ts';
import { buildGraph, type Graph } from './graph.ts';
import { nodeSegments, type Segments } from './noding.ts';

export type { Segments } from './noding.ts';

/** One face of the arrangement: its rings (the outer one counter-clockwise, holes clockwise, each closed) and depth. */
export interface Face {
  rings: Float64Array[]; // x0, y0, x1, y1, …, x0, y0
  depth: number; // units covering it
  units: number[]; // units with a segment on its boundary
}

/** A stretch of edge where units' segments run on both sides without changing the depth (a T-junction, a vertex one side lacks). */
interface SilentEdge {
  units: number[];
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

export interface Arrangement {
  faces: Face[]; // the bounded faces whose depth is not 1
  silent: SilentEdge[];
  consistent: boolean; // false when floating-point noding left the depths contradictory
}

/**
 * Returns the faces of depth ≠ 1 that `segments` cut the plane into, and the
 * edges along which units' segments do not match without changing the depth.
 */
export function arrange(segments: Segments): Arrangement {
  const g = buildGraph(segments, nodeSegments(segments));
  const next = nextHalfEdges(g);
  const order = pieceOrder(g);
  const cycles = traceCycles(g, next, order);
  const nesting = nestOutlines(g, cycles, order);
  const { depth, consistent } = faceDepths(g, cycles, nesting);
  const faces: Face[] = [];
  for (const c of nesting.bounded) {
    if (depth[c] === 1) continue;
    const rings = [c, ...(nesting.holes.get(c) ?? [])].map((k) => cycles.ring[k] ?? ringOf(g, next, cycles.first[k]!));
    const units = new Set<number>();
    for (let k = nesting.start[c]!; k < nesting.start[c + 1]!; k++) {
      const list = g.units(nesting.byFace[k]! >> 1);
      for (let i = 0; i < list.length; i += 2) units.add(list[i]!);
    }
    faces.push({ rings, depth: depth[c]!, units: [...units].sort((a, b) => a - b) });
  }
  return { faces, silent: silentEdges(g), consistent };
}

/** Half-edge h of edge e: 2e runs from → to, 2e + 1 back. */
const origin = (g: Graph, h: number) => (h & 1 ? g.to[h >> 1]! : g.from[h >> 1]!);
/** The point of g.pts that half-edge h heads for first (the next along its path). */
const ahead = (g: Graph, h: number) => (h & 1 ? g.first[(h >> 1) + 1]! - 2 : g.first[h >> 1]! + 1);

/** Returns the half-edge after each half-edge, turning so that each face lies on the left. */
function nextHalfEdges(g: Graph): Int32Array {
  const n = g.x.length;
  const h2 = 2 * g.from.length;
  const degree = new Int32Array(n + 1);
  for (let h = 0; h < h2; h++) degree[origin(g, h) + 1]!++;
  for (let v = 0; v < n; v++) degree[v + 1]! += degree[v]!;
  const out = new Int32Array(h2);
  const fill = degree.slice(0, n);
  for (let h = 0; h < h2; h++) out[fill[origin(g, h)]!++] = h;
  const slot = new Int32Array(h2); // position of h in its origin's list
  for (let v = 0; v < n; v++) {
    const list = out.subarray(degree[v]!, degree[v + 1]!);
    if (list.length > 2) list.sort((a, b) => compareAngle(g, v, a, b));
    else if (list.length === 2 && compareAngle(g, v, list[0]!, list[1]!) > 0) list.reverse();
    for (let i = 0; i < list.length; i++) slot[list[i]!] = degree[v]! + i;
  }
  const next = new Int32Array(h2);
  for (let h = 0; h < h2; h++) {
    const t = h ^ 1; // leaves the target of h
    const v = origin(g, t);
    const i = slot[t]!;
    // The outgoing half-edge just before h's twin counter-clockwise: the next one clockwise.
    next[h] = out[i === degree[v]! ? degree[v + 1]! - 1 : i - 1]!;
  }
  return next;
}

/** Orders the half-edges a and b leaving node v counter-clockwise by angle, from the +x axis. */
function compareAngle(g: Graph, v: number, a: number, b: number): number {
  const ox = g.x[v]!;
  const oy = g.y[v]!;
  const i = 2 * ahead(g, a);
  const j = 2 * ahead(g, b);
  const ax = g.pts[i]!;
  const ay = g.pts[i + 1]!;
  const bx = g.pts[j]!;
  const by = g.pts[j + 1]!;
  const qa = quadrant(ax - ox, ay - oy);
  const qb = quadrant(bx - ox, by - oy);
  if (qa !== qb) return qa - qb;
  return orient2d(ox, oy, ax, ay, bx, by); // > 0 when b is clockwise of a (robust-predicates' sign)
}

/** 0: angle in [0, 90°), 1: [90°, 180°), 2: [180°, 270°), 3: [270°, 360°). */
function quadrant(dx: number, dy: number): number {
  if (dy === 0 && dx > 0) return 0;
  if (dx <= 0 && dy > 0) return 1;
  if (dy <= 0 && dx < 0) return 2;
  if (dx >= 0 && dy < 0) return 3;
  return 0;
}

/** The cycles of half-edges: each one's first half-edge, closed ring, signed area (> 0: it bounds a face on its left) and box. */
interface Cycles {
  of: Int32Array; // half-edge → its cycle
  first: number[];
  ring: (Float64Array | undefined)[]; // kept for the cycles that bound a face
  area: number[];
  box: number[]; // 4 per cycle
}

/**
 * Returns the half-edges in the order of their first pieces, as a graph of
 * one edge per piece would number them (graph.ts keeps the pieces' order):
 * cycles are found, rings start, and faces are walked in that order, so the
 * sums over a face's rings add up exactly as they would piece by piece.
 */
function pieceOrder(g: Graph): Int32Array {
  const order = new Int32Array(2 * g.from.length);
  for (let e = 0; e < g.from.length; e++) {
    // A path's first piece runs from its first node to a point first seen after it; a lone
    // piece's, from whichever node was seen first.
    const low = g.first[e + 1]! - g.first[e]! > 2 || g.from[e]! < g.to[e]! ? 2 * e : 2 * e + 1;
    order[2 * e] = low;
    order[2 * e + 1] = low ^ 1;
  }
  return order;
}

/** Returns the cycles that `next` links the half-edges into, in the order of `order`. */
function traceCycles(g: Graph, next: Int32Array, order: Int32Array): Cycles {
  const h2 = order.length;
  const cycles: Cycles = { of: new Int32Array(h2).fill(-1), first: [], ring: [], area: [], box: [] };
  for (const h of order) {
    if (cycles.of[h]! >= 0) continue;
    const c = cycles.first.length;
    let k = h;
    do {
      cycles.of[k] = c;
      k = next[k]!;
    } while (k !== h);
    const ring = ringOf(g, next, h);
    const x0 = ring[0]!;
    const y0 = ring[1]!;
    let twice = 0;
    let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let i = 0; i + 2 < ring.length; i += 2) {
      const ax = ring[i]!;
      const ay = ring[i + 1]!;
      twice += (ax - x0) * (ring[i + 3]! - y0) - (ring[i + 2]! - x0) * (ay - y0);
      if (ax < w) w = ax;
      if (ay < s) s = ay;
      if (ax > e) e = ax;
      if (ay > n) n = ay;
    }
    cycles.first.push(h);
    cycles.area.push(twice / 2);
    cycles.ring.push(twice > 0 ? ring : undefined);
    cycles.box.push(w, s, e, n);
  }
  return cycles;
}

/** Which face each cycle belongs to, and the half-edges of each face. */
interface Nesting {
  bounded: number[]; // the cycles that bound a face (counter-clockwise), each that face's number
  faceOf: Int32Array; // cycle → its face, or −1 for the unbounded face
  holes: Map<number, number[]>; // bounded cycle → the outlines inside its face
  outside: number; // the unbounded face's number
  start: Int32Array; // the half-edges of face f: byFace[start[f]] … byFace[start[f + 1] − 1]
  byFace: Int32Array;
}

/**
 * Returns the face of each cycle: a counter-clockwise one bounds its own; a
 * clockwise one (a component's outline) lies in the face of the smallest
 * counter-clockwise cycle of another component around it, or in the
 * unbounded face.
 */
function nestOutlines(g: Graph, cycles: Cycles, order: Int32Array): Nesting {
  const count = cycles.first.length;
  const component = components(g);
  const bounded: number[] = [];
  for (let c = 0; c < count; c++) if (cycles.area[c]! > 0) bounded.push(c);
  const boxes = new Float64Array(4 * bounded.length);
  bounded.forEach((c, i) => boxes.set(cycles.box.slice(4 * c, 4 * c + 4), 4 * i));
  const tree = new BoxTree(boxes);
  const faceOf = new Int32Array(count);
  const holes = new Map<number, number[]>();
  const rings = new Map<number, ChunkedRing>(); // bounded cycles tested so far
  for (let i = 0; i < count; i++) {
    if (cycles.area[i]! > 0) {
      faceOf[i] = i;
      continue;
    }
    const v = origin(g, cycles.first[i]!);
    const px = g.x[v]!;
    const py = g.y[v]!;
    // The smallest cycle of another component around the point: candidates by box, smallest first.
    const found = tree.query(px, py, px, py);
    const around: number[] = [];
    for (let f = 0; f < found; f++) {
      const b = bounded[tree.found[f]!]!;
      if (component[origin(g, cycles.first[b]!)] !== component[v]) around.push(b);
    }
    around.sort((a, b) => cycles.area[a]! - cycles.area[b]!);
    let best = -1;
    for (const b of around) {
      let ring = rings.get(b);
      if (!ring) rings.set(b, (ring = new ChunkedRing(cycles.ring[b]!)));
      if (ring.contains(px, py)) {
        best = b;
        break;
      }
    }
    faceOf[i] = best;
    if (best < 0) continue;
    const inside = holes.get(best);
    if (inside) inside.push(i);
    else holes.set(best, [i]);
  }
  return { bounded, faceOf, holes, outside: count, ...halfEdgesByFace(cycles, faceOf, order) };
}

/** Returns the half-edges grouped by face, each face's in `order` (the unbounded face is number `faceOf.length`). */
function halfEdgesByFace(
  cycles: Cycles,
  faceOf: Int32Array,
  order: Int32Array,
): { start: Int32Array; byFace: Int32Array } {
  const outside = faceOf.length;
  const h2 = cycles.of.length;
  const face = new Int32Array(h2);
  for (let h = 0; h < h2; h++) {
    const f = faceOf[cycles.of[h]!]!;
    face[h] = f < 0 ? outside : f;
  }
  const start = new Int32Array(outside + 2);
  for (let h = 0; h < h2; h++) start[face[h]! + 1]!++;
  for (let f = 0; f <= outside; f++) start[f + 1]! += start[f]!;
  const byFace = new Int32Array(h2);
  const fill = start.slice(0, outside + 1);
  for (const h of order) byFace[fill[face[h]!]!++] = h;
  return { start, byFace };
}

/**
 * Returns the depth of each face (by number; a face no edge reaches from the
 * unbounded one counts as covered once), walking out from the unbounded face:
 * the face left of h is the one left of its twin plus h's winding.
 */
function faceDepths(g: Graph, cycles: Cycles, nesting: Nesting): { depth: Int32Array; consistent: boolean } {
  const { outside, start, byFace, faceOf } = nesting;
  const faceOfHalf = (h: number) => {
    const f = faceOf[cycles.of[h]!]!;
    return f < 0 ? outside : f;
  };
  const UNKNOWN = -0x40000000;
  const depth = new Int32Array(outside + 1).fill(UNKNOWN);
  depth[outside] = 0;
  let consistent = true;
  const queue = [outside];
  while (queue.length > 0) {
    const f = queue.pop()!;
    for (let k = start[f]!; k < start[f + 1]!; k++) {
      const h = byFace[k]!;
      const wind = h & 1 ? -g.wind[h >> 1]! : g.wind[h >> 1]!;
      const other = faceOfHalf(h ^ 1);
      const d = depth[f]! - wind;
      if (depth[other] === UNKNOWN) {
        depth[other] = d;
        queue.push(other);
      } else if (depth[other] !== d) consistent = false;
    }
  }
  for (let f = 0; f <= outside; f++) if (depth[f] === UNKNOWN) depth[f] = 1;
  return { depth, consistent };
}

/**
 * Returns the closed ring of the cycle through half-edge h, from the origin
 * of h's first piece: for h against its path, the path's second point.
 */
function ringOf(g: Graph, next: Int32Array, h: number): Float64Array {
  const { pts, first: start } = g;
  let n = 1;
  let k = h;
  do {
    n += start[(k >> 1) + 1]! - start[k >> 1]! - 1;
    k = next[k]!;
  } while (k !== h);
  const ring = new Float64Array(2 * n);
  let j = 0;
  do {
    const a = start[k >> 1]!;
    const b = start[(k >> 1) + 1]! - 1;
    if (k & 1) {
      for (let i = b; i > a; i--, j += 2) {
        ring[j] = pts[2 * i]!;
        ring[j + 1] = pts[2 * i + 1]!;
      }
    } else {
      for (let i = a; i < b; i++, j += 2) {
        ring[j] = pts[2 * i]!;
        ring[j + 1] = pts[2 * i + 1]!;
      }
    }
    k = next[k]!;
  } while (k !== h);
  // h runs from its path's last point back to the first: its first piece is the path's, from point 1.
  const r = h & 1 ? 2 * (start[(h >> 1) + 1]! - start[h >> 1]! - 2) : 0;
  if (r > 0) {
    const head = ring.slice(0, r);
    ring.copyWithin(0, r, j);
    ring.set(head, j - r);
  }
  ring[j] = ring[0]!;
  ring[j + 1] = ring[1]!;
  return ring;
}

/** Edges per chunk of a ChunkedRing: a point tested against a coastline skips most of it 32 edges at a time. */
const RING_CHUNK = 32;

/** A closed ring with the y range and greatest x of each run of RING_CHUNK edges, for point-in-ring tests. */
class ChunkedRing {
  private readonly box: Float64Array; // minY, maxY, maxX per chunk

  constructor(private readonly xy: Float64Array) {
    const edges = xy.length / 2 - 1;
    this.box = new Float64Array(3 * Math.ceil(edges / RING_CHUNK));
    for (let c = 0; c * RING_CHUNK < edges; c++) {
      let minY = Infinity;
      let maxY = -Infinity;
      let maxX = -Infinity;
      for (let i = c * RING_CHUNK, end = Math.min(edges, i + RING_CHUNK); i <= end; i++) {
        minY = Math.min(minY, xy[2 * i + 1]!);
        maxY = Math.max(maxY, xy[2 * i + 1]!);
        maxX = Math.max(maxX, xy[2 * i]!);
      }
      this.box.set([minY, maxY, maxX], 3 * c);
    }
  }

  /** Whether (px, py) lies inside the ring (even-odd, a ray to +x; the point is never on the ring). */
  contains(px: number, py: number): boolean {
    const { xy, box } = this;
    const edges = xy.length / 2 - 1;
    let inside = false;
    for (let c = 0; c < box.length / 3; c++) {
      if (box[3 * c]! > py || box[3 * c + 1]! < py || box[3 * c + 2]! < px) continue;
      for (let i = c * RING_CHUNK, end = Math.min(edges, i + RING_CHUNK); i < end; i++) {
        const ax = xy[2 * i]!;
        const ay = xy[2 * i + 1]!;
        const bx = xy[2 * i + 2]!;
        const by = xy[2 * i + 3]!;
        if (ay > py === by > py) continue;
        const o = orient2d(ax, ay, bx, by, px, py); // < 0 when p is left of a→b
        if (by > ay ? o < 0 : o > 0) inside = !inside;
      }
    }
    return inside;
  }
}

/** Returns each node's component (union-find over the edges). */
function components(g: Graph): Int32Array {
  const parent = Int32Array.from({ length: g.x.length }, (_, i) => i);
  const find = (v: number): number => {
    while (parent[v] !== v) v = parent[v] = parent[parent[v]!]!;
    return v;
  };
  for (let e = 0; e < g.from.length; e++) parent[find(g.from[e]!)] = find(g.to[e]!);
  for (let v = 0; v < parent.length; v++) parent[v] = find(v);
  return parent;
}

/**
 * Returns the edges along which two or more units run, each one way, without
 * changing the depth: the two sides' vertices differ. (A unit that runs
 * along an edge both ways, a spike, is the geometry rule's.)
 */
function silentEdges(g: Graph): SilentEdge[] {
  const silent: SilentEdge[] = [];
  for (let e = 0; e < g.from.length; e++) {
    if (g.wind[e] !== 0) continue; // a path of more than one piece is one unit's: winding 1
    const list = g.units(e);
    const units: number[] = [];
    for (let i = 0; i < list.length; i += 2) if (list[i + 1] !== 0) units.push(list[i]!);
    if (units.length < 2) continue;
    units.sort((a, b) => a - b);
    const [x1, y1, x2, y2] = [g.x[g.from[e]!]!, g.y[g.from[e]!]!, g.x[g.to[e]!]!, g.y[g.to[e]!]!];
    silent.push({ units, x1, y1, x2, y2 });
  }
  return silent;
}
