// The planar graph of a level's noded segments (noding.ts) for the
// arrangement (arrangement.ts). Its edges are paths between nodes: a stretch
// of one unit's ring that nothing else meets is one edge however many
// segments it has (an island is one edge from a node to itself), so tracing
// faces walks a coastline once rather than turning at each of its vertices.
// Pieces that run between the same two nodes without anything between them
// are one edge, with the net count of units along it.
import { END, START, type Noding, type Segments } from './noding.ts';
import { PointTable } from './point-table.ts';

export interface Graph {
  x: Float64Array; // node coordinates
  y: Float64Array;
  from: Int32Array; // edge e runs from[e] → to[e]…
  to: Int32Array;
  first: Int32Array; // …through points first[e] … first[e + 1] − 1 of pts (from's first, to's last)
  pts: Float64Array; // x, y, …
  wind: Int32Array; // units along from → to, minus those along to → from
  units: (e: number) => number[]; // the units with a segment on edge e, each followed by its net winding along from → to
}

/** Returns the graph of `segments` split as `noding` says: an edge per path between nodes. */
export function buildGraph(segments: Segments, noding: Noding): Graph {
  const { xy, unit } = segments;
  const { joined, node, cuts } = noding;
  const m = unit.length;
  const graph = new GraphBuilder(m);
  for (let k = 0; k < m; k++) {
    // A path ends where a ring's segments stop joining, or at a node.
    if (k === 0 || joined[k - 1] === 0 || (node[k - 1]! & END) !== 0 || (node[k]! & START) !== 0) {
      if (k > 0) graph.close();
      graph.open(xy[4 * k]!, xy[4 * k + 1]!, unit[k]!);
    }
    const at = cuts[k];
    if (at) {
      // Each cut is a node: the pieces between them are edges of their own.
      for (const [x, y] of alongSegment(xy, k, at)) {
        graph.add(x, y);
        graph.close();
        graph.open(x, y, unit[k]!);
      }
    }
    graph.add(xy[4 * k + 2]!, xy[4 * k + 3]!);
  }
  if (m > 0) graph.close();
  return graph.graph();
}

/** Returns the cut points of segment k in order from its start (by their projection on it). */
function alongSegment(xy: Float64Array, k: number, at: number[]): [number, number][] {
  const x1 = xy[4 * k]!;
  const y1 = xy[4 * k + 1]!;
  const dx = xy[4 * k + 2]! - x1;
  const dy = xy[4 * k + 3]! - y1;
  const along: [number, number, number][] = [];
  for (let i = 0; i < at.length; i += 2) along.push([(at[i]! - x1) * dx + (at[i + 1]! - y1) * dy, at[i]!, at[i + 1]!]);
  along.sort((p, q) => p[0] - q[0]);
  return along.map(([, x, y]) => [x, y]);
}

/** Builds a Graph path by path: open, add points, close. */
class GraphBuilder {
  private readonly nodes: PointTable;
  private readonly pairs: PointTable; // the node pairs (a < b) of one-piece edges…
  private readonly pairEdge: number[] = []; // …and their edges
  private readonly from: number[] = [];
  private readonly to: number[] = [];
  private readonly wind: number[] = [];
  private readonly first: number[] = [0];
  private pts: Float64Array;
  private count = 0; // points in pts
  private start = 0; // the open path's first point
  private unit = 0; // the open path's unit
  private readonly unit1: number[] = []; // the first unit with a segment on each edge, and its winding along it
  private readonly wind1: number[] = [];
  private readonly more = new Map<number, number[]>(); // edge → further units, each followed by its winding

  constructor(segments: number) {
    this.nodes = new PointTable(64);
    this.pairs = new PointTable(64);
    this.pts = new Float64Array(2 * (segments + 16));
  }

  /** Starts a path at (x, y), along a ring of `unit`. */
  open(x: number, y: number, unit: number): void {
    this.start = this.count;
    this.unit = unit;
    this.push(x, y);
  }

  /** Continues the open path to (x, y) (a point equal to the last adds nothing). */
  add(x: number, y: number): void {
    const i = 2 * this.count;
    if (this.pts[i - 2] === x && this.pts[i - 1] === y) return;
    this.push(x, y);
  }

  /** Ends the open path: an edge of its own, or one more unit along a one-piece edge met before. */
  close(): void {
    const n = this.count - this.start;
    if (n < 2) {
      this.count = this.start; // no length
      return;
    }
    const pts = this.pts;
    const a = this.nodes.id(pts[2 * this.start]!, pts[2 * this.start + 1]!);
    const b = this.nodes.id(pts[2 * this.count - 2]!, pts[2 * this.count - 1]!);
    if (n === 2) {
      const pair = a < b ? this.pairs.id(a, b) : this.pairs.id(b, a);
      if (pair < this.pairEdge.length) {
        this.count = this.start; // the edge has these points already
        const e = this.pairEdge[pair]!;
        this.addUnit(e, this.from[e] === a ? 1 : -1);
        return;
      }
      this.pairEdge.push(this.from.length);
    }
    this.from.push(a);
    this.to.push(b);
    this.wind.push(1);
    this.first.push(this.count);
    this.unit1.push(this.unit);
    this.wind1.push(1);
  }

  graph(): Graph {
    const { unit1, wind1, more } = this;
    return {
      x: this.nodes.xs(),
      y: this.nodes.ys(),
      from: Int32Array.from(this.from),
      to: Int32Array.from(this.to),
      first: Int32Array.from(this.first),
      pts: this.pts.slice(0, 2 * this.count),
      wind: Int32Array.from(this.wind),
      units: (e) => [unit1[e]!, wind1[e]!, ...(more.get(e) ?? [])],
    };
  }

  private addUnit(e: number, along: number): void {
    this.wind[e]! += along;
    if (this.unit1[e] === this.unit) {
      this.wind1[e]! += along;
      return;
    }
    const list = this.more.get(e) ?? [];
    if (list.length === 0) this.more.set(e, list);
    let i = 0;
    while (i < list.length && list[i] !== this.unit) i += 2;
    if (i < list.length) list[i + 1]! += along;
    else list.push(this.unit, along);
  }

  private push(x: number, y: number): void {
    if (2 * this.count + 2 > this.pts.length) {
      const bigger = new Float64Array(2 * this.pts.length);
      bigger.set(this.pts);
      this.pts = bigger;
    }
    this.pts[2 * this.count] = x;
    this.pts[2 * this.count + 1] = y;
    this.count++;
  }
}
