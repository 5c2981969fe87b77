// The state of one matching run between two vintages of a level
// (build/identity/match.ts runs the phases): which new unit is which old
// one so far, how each pair was found, which pairs are settled, and the
// overlap areas computed once each.
import { intersectionArea } from './overlap.ts';
import type { Shape } from './shape.ts';
import type { Thresholds } from './thresholds.ts';

/** One unit of a level as matching sees it. */
export interface MatchUnit {
  code: string; // "" when none (or not unique in its level)
  name: string;
  key: string; // the folded name, without spaces or punctuation, e.g. "donaana"
  parent?: string; // the parent's code, e.g. "US-VA"
  properties: Record<string, unknown>;
  shape?: Shape; // undefined: no area
}

/** How a pair was found: the same shape, the same code, the same name, or overlap alone. */
export type How = 'shape' | 'code' | 'name' | 'geometry';

export class Matcher {
  readonly identity = new Map<number, number>(); // new → old
  readonly taken = new Map<number, number>(); // old → new
  readonly how = new Map<number, How>(); // by new
  readonly settledOld: Uint8Array;
  readonly settledNew: Uint8Array;
  readonly candNew = new Map<number, number[]>(); // new → old units it overlaps
  readonly candOld = new Map<number, number[]>(); // old → new units it overlaps
  private readonly overlaps = new Map<number, number>();
  intersections = 0;

  constructor(
    readonly olds: MatchUnit[],
    readonly news: MatchUnit[],
    readonly t: Thresholds,
    readonly perDegree: number, // metres per degree on the body (METRES_PER_DEGREE)
  ) {
    this.settledOld = new Uint8Array(olds.length);
    this.settledNew = new Uint8Array(news.length);
  }

  /** Returns the area of old unit o ∩ new unit n (computed once). */
  overlap(o: number, n: number): number {
    const k = o * (this.news.length + 1) + n;
    let v = this.overlaps.get(k);
    if (v === undefined) {
      const a = this.olds[o]!.shape;
      const b = this.news[n]!.shape;
      v = a && b ? intersectionArea(a, b) : 0;
      if (a && b) this.intersections++;
      this.overlaps.set(k, v);
    }
    return v;
  }

  setOverlap(o: number, n: number, v: number): void {
    this.overlaps.set(o * (this.news.length + 1) + n, v);
  }

  pair(o: number, n: number, how: How): void {
    this.identity.set(n, o);
    this.taken.set(o, n);
    this.how.set(n, how);
  }

  settle(o: number, n: number): void {
    this.settledOld[o] = 1;
    this.settledNew[n] = 1;
  }

  unpair(o: number | undefined, n: number | undefined): void {
    if (n !== undefined && this.identity.has(n)) this.taken.delete(this.identity.get(n)!);
    if (o !== undefined && this.taken.has(o)) this.identity.delete(this.taken.get(o)!);
    if (n !== undefined) this.identity.delete(n);
    if (o !== undefined) this.taken.delete(o);
  }

  share(o: number, n: number): number {
    return this.overlap(o, n) / Math.min(area(this.olds[o]!), area(this.news[n]!));
  }

  iou(o: number, n: number): number {
    const i = this.overlap(o, n);
    return i / (area(this.olds[o]!) + area(this.news[n]!) - i);
  }
}

/** Returns a unit's area (degree²), 0 without a shape. */
export const area = (u: MatchUnit): number => u.shape?.area ?? 0;
