// Which shapes of a set have a part whose box meets a query box: the
// candidate pairs of matching one vintage against another. Each polygon's box
// is an item of the project's packed R-tree (build/geometry/box-tree.ts), so a
// multipolygon is listed per part and an archipelago's far islands do not
// make it a candidate everywhere between them. It was a uniform grid over the
// part boxes, which bench:libraries measured at 7.5× flatbush's build time
// and 4.3× its query time on 50,000 units (2026-11-27, load 9); the R-tree
// answers the same sets, and in position order, which does not depend on the
// index.
import { BoxTree } from '../geometry/box-tree.ts';
import type { Box, Shape } from './shape.ts';

export class BoxIndex {
  private readonly tree: BoxTree;
  private readonly owner: Int32Array; // the shape of each part box
  private readonly stamp: Int32Array; // the query that last found each shape
  private tick = 0;

  /** Indexes `shapes` (an entry may be undefined: a unit without area), each by its position. */
  constructor(shapes: (Shape | undefined)[]) {
    let parts = 0;
    for (const shape of shapes) parts += shape?.partBoxes.length ?? 0;
    const boxes = new Float64Array(4 * parts);
    this.owner = new Int32Array(parts);
    let k = 0;
    shapes.forEach((shape, i) => {
      for (const b of shape?.partBoxes ?? []) {
        boxes.set(b, 4 * k);
        this.owner[k++] = i;
      }
    });
    this.tree = new BoxTree(boxes);
    this.stamp = new Int32Array(shapes.length);
  }

  /** Returns the positions of the shapes with a part box meeting one of `boxes` (closed boxes), each once, ascending. */
  query(boxes: Box[]): number[] {
    const out: number[] = [];
    const t = ++this.tick;
    for (const q of boxes) {
      const count = this.tree.query(q[0], q[1], q[2], q[3]);
      const found = this.tree.found;
      for (let k = 0; k < count; k++) {
        const i = this.owner[found[k]!]!;
        if (this.stamp[i] === t) continue;
        this.stamp[i] = t;
        out.push(i);
      }
    }
    return out.sort((a, b) => a - b);
  }
}
