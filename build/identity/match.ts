// Identity matching between two vintages of one level: which new unit is
// which old one (same place), which were merged or split, added or removed,
// and what changed on each identity pair. Phases, each over the units the
// previous ones left unmatched:
//   1. code: the same code and an overlap of half the smaller unit, or the
//      same name and any overlap (or boxes within 5 km, or no geometry on one
//      side): small units whose simplified shapes barely overlap still match;
//   2. name: the same folded name and half the smaller unit → re-coded;
//   3. geometry: mutual best overlap (IoU ≥ 0.9) → re-coded (and renamed);
//   4. merges and splits: components of the graph of significant overlaps
//      that hold an unmatched unit; their new units get new identities;
//   5. leftovers: removed (old) and added (new).
// Early exit: a code pair keeping 90 % of both areas is settled and never
// intersected with its neighbours. Overlap never decides alone between two
// units that both have partners: simplification noise is not a merge.
import type { GeometryChangeMetrics } from '../core/shared/api.ts';
import { BoxIndex } from './box-index.ts';
import { hausdorffAndOffset, perimeter } from './distance.ts';
import { intersectionArea } from './overlap.ts';
import { boxGapMetres, sameShape, scaleAt, type Shape } from './shape.ts';
import { isRedigitised, type Thresholds } from './thresholds.ts';

/** One unit of a level as matching sees it. */
export interface MatchUnit {
  code: string; // "" when none (or not unique in its level)
  name: string;
  key: string; // the folded name, e.g. "dona ana"
  parent?: string; // the parent's code, e.g. "US-VA"
  properties: Record<string, unknown>;
  shape?: Shape; // undefined: no area
}

/** What changed on one identity pair's geometry (the published shape). */
export type GeometryChange = GeometryChangeMetrics;

/** A change between the vintages; `old` and `new` are positions in the two unit lists. */
export type Change =
  | { type: 'added'; new: number; derived_from?: number[] }
  | { type: 'removed'; old: number }
  | { type: 'renamed'; old: number; new: number; from: string; to: string; spelling_only: boolean }
  | { type: 'recoded'; old: number; new: number; from: string; to: string; by: 'name' | 'geometry' }
  | { type: 'attributes'; old: number; new: number; keys: string[] }
  | ({ type: 'geometry'; old: number; new: number } & GeometryChange)
  | { type: 'merged' | 'split' | 'reorganised'; old: number[]; new: number[]; links: [number, number][] };

export interface MatchResult {
  identity: Map<number, number>; // new position → old position (the same place)
  changes: Change[];
  intersections: number; // overlap computations, for benchmarks
}

/** Returns the names of the properties whose values differ, `ignored` left out. */
export function changedKeys(
  a: Record<string, unknown>,
  b: Record<string, unknown>,
  ignored: Set<string>,
): string[] {
  const out: string[] = [];
  const differ = (x: unknown, y: unknown) =>
    x !== y &&
    (typeof x !== 'object' ||
      typeof y !== 'object' ||
      x === null ||
      y === null ||
      JSON.stringify(x) !== JSON.stringify(y));
  for (const k of Object.keys(a)) if (!ignored.has(k) && differ(a[k], b[k])) out.push(k);
  for (const k of Object.keys(b)) if (!ignored.has(k) && !Object.hasOwn(a, k)) out.push(k);
  return out.sort();
}

type How = 'code' | 'name' | 'geometry';

/** The state of one matching run. */
class Matcher {
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
  ) {
    this.settledOld = new Uint8Array(olds.length);
    this.settledNew = new Uint8Array(news.length);
  }

  /** Returns the area of old unit o ∩ new unit n (computed once). */
  overlap(o: number, n: number): number {
    const k = o * (this.news.length + 1) + n;
    let v = this.overlaps.get(k);
    if (v === undefined) {
      const a = this.olds[o].shape;
      const b = this.news[n].shape;
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

  unpair(o: number | undefined, n: number | undefined): void {
    if (n !== undefined && this.identity.has(n)) this.taken.delete(this.identity.get(n)!);
    if (o !== undefined && this.taken.has(o)) this.identity.delete(this.taken.get(o)!);
    if (n !== undefined) this.identity.delete(n);
    if (o !== undefined) this.taken.delete(o);
  }

  share(o: number, n: number): number {
    return this.overlap(o, n) / Math.min(area(this.olds[o]), area(this.news[n]));
  }

  iou(o: number, n: number): number {
    const i = this.overlap(o, n);
    return i / (area(this.olds[o]) + area(this.news[n]) - i);
  }
}

const area = (u: MatchUnit) => u.shape?.area ?? 0;

/** Returns the codes that name exactly one unit of `units` (a repeated code decides nothing). */
function uniqueCodes(units: MatchUnit[]): Map<string, number> {
  const seen = new Map<string, number>();
  const repeated = new Set<string>();
  units.forEach((u, i) => {
    if (!u.code) return;
    if (seen.has(u.code)) repeated.add(u.code);
    seen.set(u.code, i);
  });
  for (const code of repeated) seen.delete(code);
  return seen;
}

/** Phase 1: the same code, and an overlap (or, for small units, the same name nearby). */
function byCode(m: Matcher): void {
  const oldCodes = uniqueCodes(m.olds);
  const newCodes = uniqueCodes(m.news);
  for (const [code, n] of newCodes) {
    const o = oldCodes.get(code);
    if (o === undefined) continue;
    const ou = m.olds[o];
    const nu = m.news[n];
    const sameName = ou.key === nu.key;
    if (!ou.shape || !nu.shape) {
      if (sameName) m.pair(o, n, 'code');
      continue;
    }
    let i: number;
    if (sameShape(ou.shape, nu.shape)) {
      i = ou.shape.area; // unchanged: no overlay
      m.setOverlap(o, n, i);
    } else i = m.overlap(o, n);
    const near = sameName && (i > 0 || boxGapMetres(ou.shape, nu.shape) <= m.t.nearMetres);
    if (i / Math.min(ou.shape.area, nu.shape.area) >= m.t.codeShare || near) {
      m.pair(o, n, 'code');
      if (i >= (1 - m.t.settle) * ou.shape.area && i >= (1 - m.t.settle) * nu.shape.area) {
        m.settledOld[o] = 1;
        m.settledNew[n] = 1;
      }
    }
  }
}

/** Finds every overlapping pair with at least one unsettled unit (a settled pair is never significant). */
function candidates(m: Matcher): void {
  const link = (o: number, n: number) => {
    if (m.overlap(o, n) <= 0) return;
    const a = m.candNew.get(n) ?? [];
    const b = m.candOld.get(o) ?? [];
    if (!a.includes(o)) a.push(o);
    if (!b.includes(n)) b.push(n);
    m.candNew.set(n, a);
    m.candOld.set(o, b);
  };
  const oldIndex = new BoxIndex(m.olds.map((u) => u.shape));
  const newIndex = new BoxIndex(m.news.map((u) => u.shape));
  m.news.forEach((u, n) => {
    if (m.settledNew[n] || !u.shape) return;
    for (const o of oldIndex.query(u.shape.partBoxes)) link(o, n);
  });
  m.olds.forEach((u, o) => {
    if (m.settledOld[o] || !u.shape) return;
    for (const n of newIndex.query(u.shape.partBoxes)) link(o, n);
  });
}

/** Phases 2 and 3: the same name and overlap, then a strict mutual best overlap. */
function byNameAndGeometry(m: Matcher): void {
  m.news.forEach((u, n) => {
    if (m.identity.has(n) || !u.shape) return;
    let best = -1;
    let bestShare = 0;
    for (const o of m.candNew.get(n) ?? []) {
      if (m.taken.has(o) || m.olds[o].key !== u.key) continue;
      const share = m.share(o, n);
      if (share > bestShare) [best, bestShare] = [o, share];
    }
    if (best >= 0 && bestShare >= m.t.nameShare) m.pair(best, n, 'name');
  });
  byNameWithoutArea(m);
  m.news.forEach((_, n) => {
    if (m.identity.has(n)) return;
    const best = argmax(
      (m.candNew.get(n) ?? []).filter((o) => !m.taken.has(o)),
      (o) => m.iou(o, n),
    );
    if (best === undefined || m.iou(best, n) < m.t.geometryIoU) return;
    const back = argmax(
      (m.candOld.get(best) ?? []).filter((k) => !m.identity.has(k)),
      (k) => m.iou(best, k),
    );
    if (back === n) m.pair(best, n, 'geometry');
  });
}

/**
 * Phase 2, for a unit with no area on one side (simplification can flatten a
 * small city): the same name and parent, when that pair names one unit on
 * each side ("Richmond" is a county and a city of one state: no match).
 */
function byNameWithoutArea(m: Matcher): void {
  const index = (units: MatchUnit[], free: (i: number) => boolean) => {
    const found = new Map<string, number>();
    units.forEach((u, i) => {
      if (!free(i) || !u.key) return;
      const k = `${u.parent ?? ''}\n${u.key}`;
      found.set(k, found.has(k) ? -1 : i);
    });
    return found;
  };
  const olds = index(m.olds, (o) => !m.taken.has(o));
  const news = index(m.news, (n) => !m.identity.has(n));
  for (const [k, n] of news) {
    const o = olds.get(k);
    if (n < 0 || o === undefined || o < 0) continue;
    if (!m.olds[o].shape || !m.news[n].shape) m.pair(o, n, 'name');
  }
}

/** Phase 4: merges, splits and reorganisations; returns their changes and the units they hold. */
function mergesAndSplits(m: Matcher): { changes: Change[]; held: Set<string> } {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let p = parent.get(x) ?? x;
    if (p !== x) {
      p = find(p);
      parent.set(x, p);
    }
    return p;
  };
  const involved = new Set<string>();
  const join = (o: number, n: number) => {
    const [a, b] = [find(`o${o}`), find(`n${n}`)];
    if (a !== b) parent.set(a, b);
    involved.add(`o${o}`);
    involved.add(`n${n}`);
  };
  m.olds.forEach((u, o) => {
    if (m.taken.has(o) || !u.shape) return;
    for (const n of m.candOld.get(o) ?? []) if (m.overlap(o, n) >= m.t.significant * u.shape.area) join(o, n);
  });
  m.news.forEach((u, n) => {
    if (m.identity.has(n) || !u.shape) return;
    for (const o of m.candNew.get(n) ?? []) if (m.overlap(o, n) >= m.t.significant * u.shape.area) join(o, n);
  });
  // The partners of involved units join their component.
  for (const key of [...involved]) {
    const i = Number(key.slice(1));
    if (key[0] === 'o' && m.taken.has(i)) join(i, m.taken.get(i)!);
    if (key[0] === 'n' && m.identity.has(i)) join(m.identity.get(i)!, i);
  }
  const components = new Map<string, { old: number[]; new: number[] }>();
  for (const key of involved) {
    const root = find(key);
    const c = components.get(root) ?? { old: [], new: [] };
    (key[0] === 'o' ? c.old : c.new).push(Number(key.slice(1)));
    components.set(root, c);
  }
  const changes: Change[] = [];
  const held = new Set<string>();
  for (const c of components.values()) {
    if (c.old.length < 2 && c.new.length < 2) continue; // a lone pair: identity, added or removed
    c.old.sort((a, b) => a - b);
    c.new.sort((a, b) => a - b);
    const links: [number, number][] = [];
    for (const o of c.old) {
      for (const n of c.new) {
        if (m.overlap(o, n) > 0.01 * Math.min(area(m.olds[o]), area(m.news[n]))) links.push([o, n]);
      }
    }
    const type = c.new.length === 1 ? 'merged' : c.old.length === 1 ? 'split' : 'reorganised';
    changes.push({ type, old: c.old, new: c.new, links });
    for (const o of c.old) {
      held.add(`o${o}`);
      m.unpair(o, undefined);
    }
    for (const n of c.new) {
      held.add(`n${n}`);
      m.unpair(undefined, n);
    }
  }
  return { changes, held };
}

/** Returns what changed on the geometry of one identity pair, or undefined when it is the same. */
function geometryChange(m: Matcher, o: number, n: number): GeometryChange | undefined {
  const a = m.olds[o].shape;
  const b = m.news[n].shape;
  if (!a && !b) return undefined;
  if (!a || !b) {
    const none = { area_change: null, symmetric_difference: null, max_distance_m: null, offset_m: null };
    return { kind: 'boundary', ...none };
  }
  if (sameShape(a, b)) return undefined;
  const [kx, ky] = scaleAt((a.box[1] + a.box[3]) / 2);
  const { hausdorff, offset } = hausdorffAndOffset(a, b, kx, ky);
  const i = m.overlap(o, n);
  const relativeArea = (b.area - a.area) / a.area;
  const kind = isRedigitised(
    { relativeArea, hausdorff, offset, perimeter: perimeter(a, kx, ky), areaM2: a.area * kx * ky },
    m.t,
  )
    ? 'redigitised'
    : 'boundary';
  return {
    kind,
    area_change: relativeArea,
    symmetric_difference: (a.area + b.area - 2 * i) / a.area,
    max_distance_m: hausdorff,
    offset_m: offset,
  };
}

/**
 * Returns which new unit is which old one and every change between the
 * two vintages. `ignored`: properties that are the name, the code or
 * identifiers, left out of `attributes` changes.
 */
export function matchUnits(
  olds: MatchUnit[],
  news: MatchUnit[],
  t: Thresholds,
  ignored: Set<string> = new Set(),
): MatchResult {
  const m = new Matcher(olds, news, t);
  byCode(m);
  candidates(m);
  byNameAndGeometry(m);
  const { changes, held } = mergesAndSplits(m);
  olds.forEach((_, o) => {
    if (!m.taken.has(o) && !held.has(`o${o}`)) changes.push({ type: 'removed', old: o });
  });
  news.forEach((u, n) => {
    if (m.identity.has(n) || held.has(`n${n}`)) return;
    const from = (m.candNew.get(n) ?? [])
      .filter((o) => m.overlap(o, n) > 0.01 * area(u))
      .sort((a, b) => a - b);
    changes.push({ type: 'added', new: n, ...(from.length ? { derived_from: from } : {}) });
  });
  for (const [n, o] of [...m.identity].sort((a, b) => a[0] - b[0])) {
    const ou = olds[o];
    const nu = news[n];
    if (ou.name !== nu.name) {
      changes.push({
        type: 'renamed',
        old: o,
        new: n,
        from: ou.name,
        to: nu.name,
        spelling_only: ou.key === nu.key,
      });
    }
    if (ou.code !== nu.code && m.how.get(n) !== 'code') {
      const by = m.how.get(n) === 'geometry' ? 'geometry' : 'name';
      changes.push({ type: 'recoded', old: o, new: n, from: ou.code, to: nu.code, by });
    }
    const keys = changedKeys(ou.properties, nu.properties, ignored);
    if (keys.length) changes.push({ type: 'attributes', old: o, new: n, keys });
    const geometry = geometryChange(m, o, n);
    if (geometry) changes.push({ type: 'geometry', old: o, new: n, ...geometry });
  }
  return { identity: m.identity, changes, intersections: m.intersections };
}

function argmax<T>(xs: T[], f: (x: T) => number): T | undefined {
  let best: T | undefined;
  let value = -Infinity;
  for (const x of xs) {
    const v = f(x);
    if (v > value) [best, value] = [x, v];
  }
  return best;
}
