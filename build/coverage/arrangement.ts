// The faces that a level's unmatched segments (build/coverage/edges.ts) cut
// the plane into, and how many units cover each. Crossing a matched pair of
// segments leaves one unit and enters another, so the number of units over a
// point (its depth) changes only across unmatched segments: it is constant on
// each face of their arrangement. Faces of depth 0 that are bounded are the
// holes of the level's union; faces of depth 2 or more are overlaps. The
// segments are noded (split where they cross or touch, with GEOS's robust
// line intersector), joined into a planar graph whose edges keep the net
// count of units on their left, and the faces are traced by turning at each
// node (exact angle order by orient2d). Depths follow from the unbounded
// face (depth 0) across edges, so no point-in-polygon test decides them.
import { orient2d } from 'robust-predicates';
import { BoxTree } from '../geometry/box-tree.ts';
import { intersect } from '../geometry/intersections.ts';
import { PointTable } from './point-table.ts';

/** A segment of a unit's ring, running with the unit's interior on its left. */
export interface DirectedSegment {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  unit: number;
}

/** One face of the arrangement: its rings (the outer one counter-clockwise, holes clockwise, each closed) and depth. */
export interface Face {
  rings: Float64Array[]; // x0, y0, x1, y1, …, x0, y0
  depth: number; // units covering it
  units: number[]; // units with a segment on its boundary
}

/** A stretch of edge where units' segments run on both sides without changing the depth (a T-junction, a vertex one side lacks). */
export interface SilentEdge {
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
export function arrange(segments: DirectedSegment[]): Arrangement {
  const graph = nodeSegments(segments);
  return traceFaces(graph);
}

interface Graph {
  x: Float64Array; // node coordinates
  y: Float64Array;
  from: Int32Array; // edge e runs from[e] → to[e]
  to: Int32Array;
  wind: Int32Array; // units along from → to, minus those along to → from
  units: (e: number) => number[]; // the units with a segment on edge e, each followed by its net winding along from → to
}

/** Splits the segments where they meet and returns the planar graph of the pieces, equal pieces merged. */
function nodeSegments(segments: DirectedSegment[]): Graph {
  const m = segments.length;
  const boxes = new Float64Array(4 * m);
  segments.forEach((s, k) => {
    boxes[4 * k] = Math.min(s.x1, s.x2);
    boxes[4 * k + 1] = Math.min(s.y1, s.y2);
    boxes[4 * k + 2] = Math.max(s.x1, s.x2);
    boxes[4 * k + 3] = Math.max(s.y1, s.y2);
  });
  const splits: (number[] | undefined)[] = new Array(m);
  const cuts = (k: number) => (splits[k] ??= []);
  const tree = new BoxTree(boxes);
  for (let k = 0; k < m; k++) {
    const s = segments[k]!;
    const count = tree.query(boxes[4 * k]!, boxes[4 * k + 1]!, boxes[4 * k + 2]!, boxes[4 * k + 3]!);
    for (let f = 0; f < count; f++) {
      const j = tree.found[f]!;
      if (j <= k) continue;
      const t = segments[j]!;
      if (touchOnlyAtEnd(s, t)) continue; // consecutive segments of a ring: the usual case
      const hit = intersect(s.x1, s.y1, s.x2, s.y2, t.x1, t.y1, t.x2, t.y2);
      if (!hit) continue;
      if (hit.count === 2) {
        // Collinear: each endpoint of one inside the other splits it.
        addIfInside(cuts, k, s, t.x1, t.y1);
        addIfInside(cuts, k, s, t.x2, t.y2);
        addIfInside(cuts, j, t, s.x1, s.y1);
        addIfInside(cuts, j, t, s.x2, s.y2);
      } else {
        addIfInside(cuts, k, s, hit.at[0], hit.at[1]);
        addIfInside(cuts, j, t, hit.at[0], hit.at[1]);
      }
    }
  }
  const nodes = new PointTable(2 * m);
  const edges = new PointTable(m); // (from, to) node pairs, from < to: an edge's id is its pair's
  const from: number[] = [];
  const to: number[] = [];
  const wind: number[] = [];
  const unit1: number[] = []; // the first unit with a segment on each edge, and its winding along it
  const wind1: number[] = [];
  const more = new Map<number, number[]>(); // edge → further units, each followed by its winding
  const addPiece = (ax: number, ay: number, bx: number, by: number, unit: number) => {
    const a = nodes.id(ax, ay);
    const b = nodes.id(bx, by);
    if (a === b) return;
    const e = a < b ? edges.id(a, b) : edges.id(b, a);
    const along = a < b ? 1 : -1;
    if (e === from.length) {
      from.push(Math.min(a, b));
      to.push(Math.max(a, b));
      wind.push(along);
      unit1.push(unit);
      wind1.push(along);
      return;
    }
    wind[e]! += along;
    if (unit1[e] === unit) {
      wind1[e]! += along;
      return;
    }
    const list = more.get(e) ?? [];
    if (list.length === 0) more.set(e, list);
    let i = 0;
    while (i < list.length && list[i] !== unit) i += 2;
    if (i < list.length) list[i + 1]! += along;
    else list.push(unit, along);
  };
  segments.forEach((s, k) => {
    const at = splits[k];
    if (!at) return addPiece(s.x1, s.y1, s.x2, s.y2, s.unit);
    const dx = s.x2 - s.x1;
    const dy = s.y2 - s.y1;
    const along: [number, number, number][] = [];
    for (let i = 0; i < at.length; i += 2) {
      along.push([(at[i]! - s.x1) * dx + (at[i + 1]! - s.y1) * dy, at[i]!, at[i + 1]!]);
    }
    along.sort((p, q) => p[0] - q[0]);
    let px = s.x1;
    let py = s.y1;
    for (const [, x, y] of along) {
      addPiece(px, py, x, y, s.unit);
      px = x;
      py = y;
    }
    addPiece(px, py, s.x2, s.y2, s.unit);
  });
  return {
    x: nodes.xs(),
    y: nodes.ys(),
    from: Int32Array.from(from),
    to: Int32Array.from(to),
    wind: Int32Array.from(wind),
    units: (e) => [unit1[e]!, wind1[e]!, ...(more.get(e) ?? [])],
  };
}

/** Adds (x, y) to the cuts of segment k when it is not an endpoint of it (the intersector found it on `s`). */
function addIfInside(cuts: (k: number) => number[], k: number, s: DirectedSegment, x: number, y: number): void {
  if ((x === s.x1 && y === s.y1) || (x === s.x2 && y === s.y2)) return;
  if (x < Math.min(s.x1, s.x2) || x > Math.max(s.x1, s.x2)) return;
  if (y < Math.min(s.y1, s.y2) || y > Math.max(s.y1, s.y2)) return;
  cuts(k).push(x, y);
}

/**
 * Whether two segments that share an endpoint meet there only: the other end
 * of each is off the other's line (so neither splits the other).
 */
function touchOnlyAtEnd(s: DirectedSegment, t: DirectedSegment): boolean {
  const s1t1 = s.x1 === t.x1 && s.y1 === t.y1;
  const s1t2 = s.x1 === t.x2 && s.y1 === t.y2;
  const s2t1 = s.x2 === t.x1 && s.y2 === t.y1;
  const s2t2 = s.x2 === t.x2 && s.y2 === t.y2;
  if (!(s1t1 || s1t2 || s2t1 || s2t2)) return false;
  // All three points: the shared one, and both far ends, are on one line or not.
  const tx = s1t1 || s2t1 ? t.x2 : t.x1;
  const ty = s1t1 || s2t1 ? t.y2 : t.y1;
  return orient2d(s.x1, s.y1, s.x2, s.y2, tx, ty) !== 0;
}

/** Half-edge h of edge e: 2e runs from → to, 2e + 1 back. */
const origin = (g: Graph, h: number) => (h & 1 ? g.to[h >> 1]! : g.from[h >> 1]!);
const target = (g: Graph, h: number) => (h & 1 ? g.from[h >> 1]! : g.to[h >> 1]!);

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
  const ax = g.x[target(g, a)]!;
  const ay = g.y[target(g, a)]!;
  const bx = g.x[target(g, b)]!;
  const by = g.y[target(g, b)]!;
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

/** Traces the cycles of the graph, nests each component in the face around it, and counts depths. */
function traceFaces(g: Graph): Arrangement {
  const h2 = 2 * g.from.length;
  const next = nextHalfEdges(g);
  const cycleOf = new Int32Array(h2).fill(-1);
  const cycles: { first: number; area: number; box: number[] }[] = [];
  for (let h = 0; h < h2; h++) {
    if (cycleOf[h]! >= 0) continue;
    const c = cycles.length;
    const x0 = g.x[origin(g, h)]!;
    const y0 = g.y[origin(g, h)]!;
    let twice = 0;
    const box = [Infinity, Infinity, -Infinity, -Infinity];
    let k = h;
    do {
      cycleOf[k] = c;
      const ax = g.x[origin(g, k)]!;
      const ay = g.y[origin(g, k)]!;
      const bx = g.x[target(g, k)]!;
      const by = g.y[target(g, k)]!;
      twice += (ax - x0) * (by - y0) - (bx - x0) * (ay - y0);
      box[0] = Math.min(box[0]!, ax);
      box[1] = Math.min(box[1]!, ay);
      box[2] = Math.max(box[2]!, ax);
      box[3] = Math.max(box[3]!, ay);
      k = next[k]!;
    } while (k !== h);
    cycles.push({ first: h, area: twice / 2, box });
  }
  const component = components(g);
  // Each cycle that bounds no face (clockwise: a component's outline) lies in the face of the
  // smallest counter-clockwise cycle of another component around it, or in the unbounded face (−1).
  const bounded = cycles.map((c, i) => (c.area > 0 ? i : -1)).filter((i) => i >= 0);
  const boxes = new Float64Array(4 * bounded.length);
  bounded.forEach((c, i) => boxes.set(cycles[c]!.box, 4 * i));
  const tree = new BoxTree(boxes);
  const faceOfCycle = cycles.map((c, i) => (c.area > 0 ? i : -1));
  const holes = new Map<number, number[]>(); // bounded cycle → the outlines inside its face
  const rings = new Map<number, ChunkedRing>(); // bounded cycles tested so far
  cycles.forEach((c, i) => {
    if (c.area > 0) return;
    const v = origin(g, c.first);
    const px = g.x[v]!;
    const py = g.y[v]!;
    // The smallest cycle of another component around the point: candidates by box, smallest first.
    const count = tree.query(px, py, px, py);
    const around: number[] = [];
    for (let f = 0; f < count; f++) {
      const b = bounded[tree.found[f]!]!;
      if (component[origin(g, cycles[b]!.first)] !== component[v]) around.push(b);
    }
    around.sort((a, b) => cycles[a]!.area - cycles[b]!.area);
    let best = -1;
    for (const b of around) {
      let ring = rings.get(b);
      if (!ring) rings.set(b, (ring = new ChunkedRing(ringOf(g, next, cycles[b]!.first))));
      if (ring.contains(px, py)) {
        best = b;
        break;
      }
    }
    faceOfCycle[i] = best;
    if (best < 0) return;
    const inside = holes.get(best);
    if (inside) inside.push(i);
    else holes.set(best, [i]);
  });
  // Faces by number: bounded cycle c is face c, the unbounded face is face `outside`.
  const outside = cycles.length;
  const faceOf = (h: number) => {
    const f = faceOfCycle[cycleOf[h]!]!;
    return f < 0 ? outside : f;
  };
  // The half-edges of each face, grouped (counting sort by face).
  const start = new Int32Array(outside + 2);
  for (let h = 0; h < h2; h++) start[faceOf(h) + 1]!++;
  for (let f = 0; f <= outside; f++) start[f + 1]! += start[f]!;
  const byFace = new Int32Array(h2);
  const fill = start.slice(0, outside + 1);
  for (let h = 0; h < h2; h++) byFace[fill[faceOf(h)]!++] = h;
  // Depths from the unbounded face: left of h minus left of its twin is h's winding.
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
      const other = faceOf(h ^ 1);
      const d = depth[f]! - wind;
      if (depth[other] === UNKNOWN) {
        depth[other] = d;
        queue.push(other);
      } else if (depth[other] !== d) consistent = false;
    }
  }
  const faces: Face[] = [];
  for (const c of bounded) {
    const d = depth[c] === UNKNOWN ? 1 : depth[c]!;
    if (d === 1) continue;
    const rings = [c, ...(holes.get(c) ?? [])].map((k) => ringOf(g, next, cycles[k]!.first));
    const units = new Set<number>();
    for (let k = start[c]!; k < start[c + 1]!; k++) {
      const list = g.units(byFace[k]! >> 1);
      for (let i = 0; i < list.length; i += 2) units.add(list[i]!);
    }
    faces.push({ rings, depth: d, units: [...units].sort((a, b) => a - b) });
  }
  return { faces, silent: silentEdges(g), consistent };
}

/** Returns the closed ring of the cycle through half-edge h. */
function ringOf(g: Graph, next: Int32Array, h: number): Float64Array {
  const xy: number[] = [];
  let k = h;
  do {
    xy.push(g.x[origin(g, k)]!, g.y[origin(g, k)]!);
    k = next[k]!;
  } while (k !== h);
  xy.push(xy[0]!, xy[1]!);
  return Float64Array.from(xy);
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
    if (g.wind[e] !== 0) continue;
    const list = g.units(e);
    const units: number[] = [];
    for (let i = 0; i < list.length; i += 2) if (list[i + 1] !== 0) units.push(list[i]!);
    if (units.length < 2) continue;
    const ax = g.x[g.from[e]!]!;
    const ay = g.y[g.from[e]!]!;
    const bx = g.x[g.to[e]!]!;
    const by = g.y[g.to[e]!]!;
    units.sort((a, b) => a - b);
    silent.push({ units, x1: ax, y1: ay, x2: bx, y2: by });
  }
  return silent;
}
