// Which unit of the level above holds each unit: the one its parent code
// (parentISO) names, else the one it overlaps most; and how much of the unit
// lies inside that parent. One rule for a release's parent_id
// (build/identity/registry.ts) and validate's nesting warning
// (build/manifest/validate-nesting.ts), so the two never disagree.
import type { Level } from '../core/shared/manifest.ts';
import { BoxTree } from '../geometry/box-tree.ts';
import type { LevelUnit } from './level.ts';
import { intersectionArea } from './overlap.ts';

/** The levels that nest, in order: a unit's parent is in the nearest level before its own (QUAD does not nest). */
const NESTED: Level[] = ['ADM0', 'ADM1', 'ADM2', 'ADM3', 'ADM4', 'ADM5'];

/**
 * Returns, for each level of `levels` that has one, the level its units'
 * parents are in: the nearest one before it that is present (ADM2's is ADM1,
 * or ADM0 when a country has no ADM1).
 */
export function parentLevels(levels: Level[]): Map<Level, Level> {
  const present = NESTED.filter((level) => levels.includes(level));
  return new Map(present.slice(1).map((level, i) => [level, present[i]!]));
}

/** A unit's parent: its index in the level above (-1: none), how it was found, and the area they share. */
export interface ParentOf {
  parent: number;
  by: 'code' | 'overlap';
  inside: number; // area of unit ∩ parent, in coordinate units² (0 without a parent or a shape)
  covered?: number; // with find(u, true): area of the unit inside any unit of the level above
}

/** Part boxes of the candidate parents, in one R-tree, each part mapped back to its unit. */
class PartIndex {
  private readonly tree: BoxTree;
  private readonly unitOf: Int32Array; // tree item → index of its unit
  private readonly stamp: Int32Array;
  private tick = 0;

  constructor(units: LevelUnit[]) {
    const parts = units.reduce((n, u) => n + (u.shape?.partBoxes.length ?? 0), 0);
    const boxes = new Float64Array(4 * parts);
    this.unitOf = new Int32Array(parts);
    let k = 0;
    units.forEach((u, i) => {
      for (const box of u.shape?.partBoxes ?? []) {
        boxes.set(box, 4 * k);
        this.unitOf[k++] = i;
      }
    });
    this.tree = new BoxTree(boxes);
    this.stamp = new Int32Array(units.length);
  }

  /** Returns the units with a part whose box meets one of `unit`'s part boxes, each once. */
  candidates(unit: LevelUnit): number[] {
    const out: number[] = [];
    const t = ++this.tick;
    for (const [w, s, e, n] of unit.shape?.partBoxes ?? []) {
      const count = this.tree.query(w, s, e, n);
      for (let j = 0; j < count; j++) {
        const i = this.unitOf[this.tree.found[j]!]!;
        if (this.stamp[i] === t) continue;
        this.stamp[i] = t;
        out.push(i);
      }
    }
    return out;
  }
}

/**
 * Finds parents among the units of one level (the level above the units
 * asked about): the one unit whose code is a unit's parent code, otherwise
 * the one it overlaps most (exact intersection areas of the candidates whose
 * boxes meet its own). A parent code that names no unit, or names several,
 * falls back to overlap. `inside` is measured for parents by code too, so
 * that a unit whose data names a parent it does not lie in shows as outside.
 */
export class ParentFinder {
  private readonly byCode = new Map<string, number>();
  private index?: PartIndex;

  constructor(private readonly parents: LevelUnit[]) {
    parents.forEach((u, i) => {
      if (u.code) this.byCode.set(u.code, this.byCode.has(u.code) ? -1 : i);
    });
  }

  /**
   * Returns the parent of `u` (by its parent code when that names one unit);
   * with `cover`, also how much of `u` lies in any unit of the level above
   * (the other candidates are measured too).
   */
  find(u: LevelUnit, cover = false): ParentOf {
    const named = u.parent ? (this.byCode.get(u.parent) ?? -1) : -1;
    if (named < 0) return this.largestOverlap(u);
    const shape = this.parents[named]!.shape;
    const inside = u.shape && shape ? intersectionArea(shape, u.shape) : 0;
    const found: ParentOf = { parent: named, by: 'code', inside };
    if (cover && u.shape) {
      this.index ??= new PartIndex(this.parents);
      found.covered = inside;
      for (const i of this.index.candidates(u))
        if (i !== named) found.covered += intersectionArea(this.parents[i]!.shape!, u.shape);
    }
    return found;
  }

  /** Returns the unit `u` overlaps most, whatever its parent code says (and, as `covered`, its area in any). */
  largestOverlap(u: LevelUnit): ParentOf {
    let best: ParentOf = { parent: -1, by: 'overlap', inside: 0 };
    if (!u.shape) return best;
    this.index ??= new PartIndex(this.parents);
    let covered = 0;
    for (const i of this.index.candidates(u)) {
      const inside = intersectionArea(this.parents[i]!.shape!, u.shape);
      covered += inside;
      // Ties (rare) go to the first in file order, whatever order the index answers in.
      if (inside > best.inside || (inside === best.inside && inside > 0 && i < best.parent))
        best = { parent: i, by: 'overlap', inside };
    }
    return { ...best, covered };
  }
}

/** Returns the parent of each of `units` among `parents` (see ParentFinder). */
export function findParents(units: LevelUnit[], parents: LevelUnit[]): ParentOf[] {
  const finder = new ParentFinder(parents);
  return units.map((u) => finder.find(u));
}
