// Identity matching between two vintages of one level: which new unit is
// which old one (same place), which were merged or split, added or removed,
// and what changed on each identity pair. Phases, each over the units the
// previous ones left unmatched:
//   1. shape: exactly the same geometry, whatever the labels (codes and
//      names shuffled among units are renamed and re-coded, never merged);
//   2. code: the same code and an overlap of half the smaller unit, or the
//      same name and any overlap (or boxes within 5 km, or no geometry on one
//      side): small units whose simplified shapes barely overlap still match;
//   3. geometry first: a mutual best overlap (IoU ≥ 0.9) overrides a code
//      pair that is not settled (the same place drawn again, relabelled);
//   4. name: the same folded name and half the smaller unit → re-coded;
//   5. geometry: mutual best overlap (IoU ≥ 0.9) among the rest → re-coded;
//   6. merges and splits (build/identity/components.ts);
//   7. leftovers: removed (old) and added (new).
// Early exit: a code pair keeping 90 % of both areas is settled and never
// intersected with its neighbours. Overlap never decides alone between two
// units that both have partners: simplification noise is not a merge.
import { classifyGeometry, type GeometryChange } from './classify.ts';
import { BoxIndex } from './box-index.ts';
import { mergesAndSplits } from './components.ts';
import { area, Matcher, type MatchUnit } from './matcher.ts';
import { boxGapMetres, sameShape, type Shape } from './shape.ts';
import type { Thresholds } from './thresholds.ts';

export type { MatchUnit } from './matcher.ts';

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
  offsets: number[]; // ν of every identity pair with an area on both sides: the level's noise, for its lineage
}

/** Returns the names of the properties whose values differ, `ignored` left out. */
function changedKeys(a: Record<string, unknown>, b: Record<string, unknown>, ignored: Set<string>): string[] {
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

/** Phase 1: every unit whose geometry is exactly one unit's of the other side (repeated shapes decide nothing). */
function byShape(m: Matcher): void {
  const key = (s: Shape) => `${s.points}:${s.area}:${s.xy[0]}:${s.xy[1]}`;
  const index = (units: MatchUnit[]) => {
    const found = new Map<string, number>();
    units.forEach((u, i) => {
      if (!u.shape) return;
      const k = key(u.shape);
      found.set(k, found.has(k) ? -1 : i);
    });
    return found;
  };
  const olds = index(m.olds);
  for (const [k, n] of index(m.news)) {
    const o = olds.get(k);
    if (n < 0 || o === undefined || o < 0 || !sameShape(m.olds[o]!.shape!, m.news[n]!.shape!)) continue;
    m.pair(o, n, 'shape');
    m.setOverlap(o, n, m.olds[o]!.shape!.area);
    m.settle(o, n);
  }
}

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

/** Phase 2: the same code, and an overlap (or, for small units, the same name nearby). */
function byCode(m: Matcher): void {
  const oldCodes = uniqueCodes(m.olds);
  const newCodes = uniqueCodes(m.news);
  for (const [code, n] of newCodes) {
    const o = oldCodes.get(code);
    if (o === undefined || m.taken.has(o) || m.identity.has(n)) continue;
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
    const near = sameName && (i > 0 || boxGapMetres(ou.shape, nu.shape, m.perDegree) <= m.t.nearMetres);
    if (i / Math.min(ou.shape.area, nu.shape.area) >= m.t.codeShare || near) {
      m.pair(o, n, 'code');
      if (i >= (1 - m.t.settle) * ou.shape.area && i >= (1 - m.t.settle) * nu.shape.area) m.settle(o, n);
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

/**
 * Phase 3: a strict mutual best overlap beats a code pair that is not
 * settled: a unit drawn again whose code and name now point elsewhere keeps
 * the identity its geometry gives it.
 */
function byGeometryFirst(m: Matcher): void {
  m.news.forEach((u, n) => {
    if (m.settledNew[n] || !u.shape) return;
    const best = argmax(
      (m.candNew.get(n) ?? []).filter((o) => !m.settledOld[o]),
      (o) => m.iou(o, n),
    );
    if (best === undefined || m.identity.get(n) === best || m.iou(best, n) < m.t.geometryIoU) return;
    const back = argmax(
      (m.candOld.get(best) ?? []).filter((k) => !m.settledNew[k]),
      (k) => m.iou(best, k),
    );
    if (back !== n) return;
    m.unpair(best, n);
    m.pair(best, n, 'geometry');
  });
}

/** Phases 4 and 5: the same name and overlap, then a strict mutual best overlap. */
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
 * Phase 4, for a unit with no area on one side (simplification can flatten a
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

/**
 * Returns which new unit is which old one and every change between the
 * two vintages, distances in metres of a body of `perDegree` metres per
 * degree (METRES_PER_DEGREE in build/core/shared/crs.ts). `ignored`: properties that are the name, the code or
 * identifiers, left out of `attributes` changes. `lineage`: the noise of
 * the country's other levels, for a unit that has no neighbour in its own
 * (build/identity/classify.ts).
 */
export function matchUnits(
  olds: MatchUnit[],
  news: MatchUnit[],
  t: Thresholds,
  perDegree: number,
  ignored: Set<string> = new Set(),
  lineage?: number,
): MatchResult {
  const m = new Matcher(olds, news, t, perDegree);
  byShape(m);
  byCode(m);
  candidates(m);
  byGeometryFirst(m);
  byNameAndGeometry(m);
  const changes: Change[] = mergesAndSplits(m);
  const held = new Set(
    changes.flatMap((c) =>
      'links' in c ? [...c.old.map((o) => `o${o}`), ...c.new.map((n) => `n${n}`)] : [],
    ),
  );
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
  const pairs = [...m.identity].sort((a, b) => a[0] - b[0]);
  const drawn = pairs.map(([n, o]) => ({
    old: olds[o]!.shape,
    new: news[n]!.shape,
    shared: () => m.overlap(o, n),
  }));
  const geometry = classifyGeometry(drawn, t, perDegree, lineage);
  pairs.forEach(([n, o], k) => {
    const ou = olds[o]!;
    const nu = news[n]!;
    const spelling_only = ou.key === nu.key;
    if (ou.name !== nu.name)
      changes.push({ type: 'renamed', old: o, new: n, from: ou.name, to: nu.name, spelling_only });
    // By name when the unit kept its name (in spelling), else by its geometry alone.
    const by = spelling_only ? 'name' : 'geometry';
    if (ou.code !== nu.code)
      changes.push({ type: 'recoded', old: o, new: n, from: ou.code, to: nu.code, by });
    const keys = changedKeys(ou.properties, nu.properties, ignored);
    if (keys.length) changes.push({ type: 'attributes', old: o, new: n, keys });
    const g = geometry.changes[k];
    if (g) changes.push({ type: 'geometry', old: o, new: n, ...g });
  });
  return { identity: m.identity, changes, intersections: m.intersections, offsets: geometry.offsets };
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
