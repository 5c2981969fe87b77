// Where rings lie in one another, as GEOS's IsValidOp checks it: every hole
// inside its shell (checkHolesInShell), no hole inside another
// (IndexedNestedHoleTester), no polygon inside another outside its holes
// (IndexedNestedPolygonTester). Candidate pairs come from an R-tree of
// envelopes once there are many rings, as GEOS's come from an STRtree, so a
// shell with 100,000 holes is not 10^10 envelope tests; the first problem
// reported is the one the pairwise loops report.
import { BoxTree, grow, sortAscending } from './box-tree.ts';
import { indexLimits, work } from './limits.ts';
import { EXTERIOR, INTERIOR, Locator } from './locate.ts';
import type { XY } from './orientation.ts';
import { covers, type Ring, type Rings } from './rings.ts';

/** The nesting checks of one geometry, sharing its point locator and envelope indexes. */
export class Nesting {
  private readonly locator: Locator;
  private readonly holeTrees = new Map<Ring[], BoxTree>();
  private around: Int32Array = new Int32Array(16); // holesAround's answer
  private outers: Int32Array = new Int32Array(16); // outerCandidates' answer

  constructor(private readonly g: Rings) {
    this.locator = new Locator(g);
  }

  /** Returns the first hole (polygon by polygon) not inside its shell. */
  findHoleOutsideShell(): Ring | undefined {
    for (const polygon of this.g.polygons) {
      const shell = polygon[0]!;
      for (let h = 1; h < polygon.length; h++) {
        const hole = polygon[h]!;
        if (!covers(shell, hole) || !this.locator.isRingNested(hole, shell)) return hole;
      }
    }
    return undefined;
  }

  /** Returns the first hole (polygon by polygon) that lies inside another hole of its polygon. */
  findNestedHole(): Ring | undefined {
    for (const polygon of this.g.polygons) {
      for (let h = 1; h < polygon.length; h++) {
        const hole = polygon[h]!;
        const count = this.holesAround(polygon, hole);
        for (let k = 0; k < count; k++) {
          const other = polygon[this.around[k]!]!;
          if (other !== hole && this.locator.isRingNested(hole, other)) return hole;
        }
      }
    }
    return undefined;
  }

  /** Returns the first shell that lies inside another polygon, outside its holes, and a point of it inside. */
  findNestedShell(): { shell: Ring; at: XY } | undefined {
    const { polygons } = this.g;
    if (polygons.length < 2) return undefined;
    const tree = polygons.length >= indexLimits.ringsForIndex ? shellTree(polygons) : undefined;
    for (let p = 0; p < polygons.length; p++) {
      const shell = polygons[p]![0]!;
      const count = tree ? this.outerCandidates(tree, shell) : polygons.length;
      if (!tree) work.tests += count;
      for (let k = 0; k < count; k++) {
        const outer = polygons[tree ? this.outers[k]! : k]!;
        if (outer === polygons[p] || !covers(outer[0]!, shell)) continue;
        const at = this.nestedPoint(shell, outer);
        if (at) return { shell, at };
      }
    }
    return undefined;
  }

  /**
   * Returns how many holes of `polygon` have an envelope covering `ring`'s,
   * their indexes in the polygon in `around` (from its hole tree once it has many).
   */
  private holesAround(polygon: Ring[], ring: Ring): number {
    let count = 0;
    if (polygon.length - 1 < indexLimits.ringsForIndex) {
      work.tests += polygon.length - 1;
      for (let h = 1; h < polygon.length; h++)
        if (covers(polygon[h]!, ring)) count = this.addAround(count, h);
      return count;
    }
    let tree = this.holeTrees.get(polygon);
    if (!tree) {
      tree = new BoxTree(envelopes(polygon, 1));
      this.holeTrees.set(polygon, tree);
    }
    const found = tree.query(ring.minX, ring.minY, ring.maxX, ring.maxY);
    for (let k = 0; k < found; k++) {
      const h = 1 + tree.found[k]!;
      if (covers(polygon[h]!, ring)) count = this.addAround(count, h);
    }
    return count;
  }

  private addAround(count: number, h: number): number {
    if (count === this.around.length) this.around = grow(this.around);
    this.around[count] = h;
    return count + 1;
  }

  /** Returns how many polygons' shell envelopes meet `shell`'s, their indexes ascending in `outers` (the pairwise loop's order). */
  private outerCandidates(tree: BoxTree, shell: Ring): number {
    const found = tree.query(shell.minX, shell.minY, shell.maxX, shell.maxY);
    while (this.outers.length < found) this.outers = grow(this.outers);
    for (let k = 0; k < found; k++) this.outers[k] = tree.found[k]!;
    sortAscending(this.outers, found);
    return found;
  }

  /** GEOS's findNestedPoint: a point of `shell` inside polygon `outer`, or undefined if it is not nested there. */
  private nestedPoint(shell: Ring, outer: Ring[]): XY | undefined {
    const { g, locator } = this;
    const p0: XY = [g.xs[shell.start]!, g.ys[shell.start]!];
    for (const p of [p0, [shell.raw1x, shell.raw1y] as const]) {
      const loc = locator.locateInPolygon(outer, p[0], p[1]);
      if (loc === EXTERIOR) return undefined;
      if (loc === INTERIOR) return p;
    }
    // Both points are on the outer polygon's boundary: the incident segments decide.
    if (!locator.isRingNested(shell, outer[0]!)) return undefined;
    const count = this.holesAround(outer, shell);
    for (let k = 0; k < count; k++) {
      if (locator.isRingNested(shell, outer[this.around[k]!]!)) return undefined;
    }
    return p0;
  }
}

/** The envelopes of rings[from…], as a BoxTree takes them. */
function envelopes(rings: Ring[], from: number): Float64Array {
  const boxes = new Float64Array(4 * (rings.length - from));
  for (let k = 0; from + k < rings.length; k++) {
    const ring = rings[from + k]!;
    boxes[4 * k] = ring.minX;
    boxes[4 * k + 1] = ring.minY;
    boxes[4 * k + 2] = ring.maxX;
    boxes[4 * k + 3] = ring.maxY;
  }
  return boxes;
}

function shellTree(polygons: Ring[][]): BoxTree {
  return new BoxTree(
    envelopes(
      polygons.map((polygon) => polygon[0]!),
      0,
    ),
  );
}
