// Where a level's data is cut at the antimeridian, on the tile grid: the
// edges whose two ends lie at ±180 (build/geo/antimeridian.ts says why they
// are no border), so that a tile's rings can leave them unstroked. Tiles clip
// and simplify rings into new points, so a point is asked about by where it
// is (near a cut edge), not by where it came from. Edges are bucketed in
// square cells, so asking costs a few comparisons.
import { onAntimeridian } from '../geo/antimeridian.ts';
import type { LevelRings } from './level-rings.ts';

const CELL = 1024; // grid units

export class CutLine {
  private edges: number[] = []; // x0, y0, x1, y1, …
  private cells = new Map<number, number[]>(); // cell key → edge indices
  private reach = 0; // the largest tolerance cells were filled for

  /** Whether there is no cut at all (most levels): then nothing need be asked. */
  get empty(): boolean {
    return this.edges.length === 0;
  }

  /** Adds the cut edges of `level`, whose points are at (gx[i], gy[i]) on the grid; `reach` is the largest tolerance asked. */
  static of(level: LevelRings, gx: Int32Array, gy: Int32Array, reach: number): CutLine {
    const line = new CutLine();
    line.reach = reach;
    const c = level.coords.data;
    const on = (i: number) => onAntimeridian([c[2 * i], c[2 * i + 1]]);
    for (let r = 0; r < level.rings; r++) {
      const [s, e] = [level.ringStart.data[r], level.ringStart.data[r + 1]];
      for (let i = s; i < e; i++) {
        const j = i + 1 < e ? i + 1 : s;
        if (on(i) && on(j) && (gx[i] !== gx[j] || gy[i] !== gy[j])) line.add(gx[i], gy[i], gx[j], gy[j]);
      }
    }
    return line;
  }

  private add(x0: number, y0: number, x1: number, y1: number): void {
    const k = this.edges.length / 4;
    this.edges.push(x0, y0, x1, y1);
    const r = this.reach;
    for (let cx = cell(Math.min(x0, x1) - r); cx <= cell(Math.max(x0, x1) + r); cx++) {
      for (let cy = cell(Math.min(y0, y1) - r); cy <= cell(Math.max(y0, y1) + r); cy++) {
        const key = cx * 0x800000 + cy;
        const list = this.cells.get(key);
        if (list) list.push(k);
        else this.cells.set(key, [k]);
      }
    }
  }

  /** Whether grid point (x, y) lies within `tolerance` grid units (at most `reach`) of a cut edge. */
  near(x: number, y: number, tolerance: number): boolean {
    const list = this.cells.get(cell(x) * 0x800000 + cell(y));
    if (!list) return false;
    const e = this.edges;
    for (const k of list) {
      const [ax, ay, bx, by] = [e[4 * k], e[4 * k + 1], e[4 * k + 2], e[4 * k + 3]];
      const [dx, dy] = [bx - ax, by - ay];
      const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)));
      if (Math.hypot(x - ax - t * dx, y - ay - t * dy) <= tolerance) return true;
    }
    return false;
  }
}

function cell(v: number): number {
  return Math.floor(v / CELL);
}
