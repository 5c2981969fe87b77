// Whether holes disconnect a polygon's interior, as GEOS decides it
// (PolygonRing): rings of one polygon may touch, but two rings touching at
// two different points, or touches that chain rings into a cycle, cut the
// interior in pieces. Only polygons with holes take part, as in GEOS.
import type { XY } from './orientation.ts';
import type { Rings } from './rings.ts';

interface Node {
  ring: number; // index in Rings.rings
  touches: Map<number, XY> | undefined; // ring index in the polygon → where they touch (the first point found); made at the first touch
  root: Node | undefined; // the touch set this ring was reached from
}

export class TouchGraph {
  /** Set when two rings touch at two different points; the second point found. */
  doubleTouch: { at: XY; polygon: number } | undefined;
  private readonly nodes: (Node | undefined)[];
  private readonly firstRing: number[] = []; // per polygon, the index of its shell in Rings.rings

  constructor(private readonly g: Rings) {
    g.rings.forEach((ring, r) => {
      if (ring.index === 0) this.firstRing[ring.polygon] = r;
    });
    // A ring's node is made at its first touch: a ring that touches none
    // takes no part in a cycle (and a feature may have a million rings).
    this.nodes = new Array<Node | undefined>(g.rings.length);
  }

  /** Records that rings r0 and r1 touch at `at` (rings of other polygons, and of polygons without holes, are ignored). */
  add(r0: number, r1: number, at: XY): void {
    const ring0 = this.g.rings[r0]!;
    const ring1 = this.g.rings[r1]!;
    if (ring0.polygon !== ring1.polygon || this.g.polygons[ring0.polygon]!.length < 2) return;
    const n0 = (this.nodes[r0] ??= { ring: r0, touches: undefined, root: undefined });
    const n1 = (this.nodes[r1] ??= { ring: r1, touches: undefined, root: undefined });
    const t01 = n0.touches?.get(ring1.index);
    const t10 = n1.touches?.get(ring0.index);
    if ((t01 && !same(t01, at)) || (t10 && !same(t10, at))) {
      this.doubleTouch = { at, polygon: ring0.polygon };
      return;
    }
    if (!t01) (n0.touches ??= new Map()).set(ring1.index, at);
    if (!t10) (n1.touches ??= new Map()).set(ring0.index, at);
  }

  /** Returns where touching rings form a cycle (the interior is disconnected), or undefined. */
  findHoleCycle(): { at: XY; polygon: number } | undefined {
    for (const node of this.nodes) {
      if (!node || node.root) continue;
      const at = this.scanFrom(node);
      if (at) return { at, polygon: this.g.rings[node.ring]!.polygon };
    }
    return undefined;
  }

  private nodeOf(polygonOf: number, index: number): Node {
    return this.nodes[this.firstRing[polygonOf]! + index]!;
  }

  private touchesOf(node: Node): [Node, XY][] {
    const polygon = this.g.rings[node.ring]!.polygon;
    // GEOS keeps touches in a map ordered by ring id (shell first, then holes).
    if (!node.touches) return [];
    return [...node.touches.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([index, at]) => [this.nodeOf(polygon, index), at]);
  }

  private scanFrom(root: Node): XY | undefined {
    root.root = root;
    const stack: [Node, XY][] = [];
    for (const touch of this.touchesOf(root)) {
      touch[0].root = root;
      stack.push(touch);
    }
    while (stack.length > 0) {
      const [ring, entry] = stack.pop()!;
      for (const touch of this.touchesOf(ring)) {
        if (same(touch[1], entry)) continue; // touches at the entry point were scanned with the previous ring
        if (touch[0].root === root) return touch[1];
        touch[0].root = root;
        stack.push(touch);
      }
    }
    return undefined;
  }
}

function same(a: XY, b: XY): boolean {
  return a[0] === b[0] && a[1] === b[1];
}
