// Random edit scripts over one model level, with the change feed they must
// produce (the truth): renames (real ones and respellings), re-codes, code
// swaps, labels rotated among three units, moved shared borders, units moved
// or scaled whole, re-digitised units, merges, splits, attribute edits,
// removals, additions and restorations of removed units. Each edit checks
// its preconditions on the geometry, so that the truth is what a careful
// reader of the two files would say (docs/releases.md, "The change feed",
// lists the limits these scripts stay within).
import { areaOf, OracleFailure, overlapArea } from './geometry.ts';
import { EDITS, type Edit } from './edits.ts';
import { makeLevel, type ModelUnit } from './level.ts';
import { Writer, type ModelState, type Script, type Truth } from './writer.ts';

export type { ModelState, Script, Truth } from './writer.ts';

/** Returns the first state of a level: a grid of 3 × 3 or 4 × 3 cells. */
export function initialState(random: () => number): ModelState {
  return stateOf(makeLevel(random, 3 + Math.floor(random() * 2), 3));
}

/** Returns the first state of a level made of `units` (tokens u0, u1…, as makeLevel gives them). */
export function stateOf(units: ModelUnit[]): ModelState {
  return {
    units,
    retired: [],
    tokens: units.length,
    codes: new Set(units.map((u) => u.code)),
    names: new Set(units.map((u) => u.name)),
    slots: 0,
  };
}

/**
 * Returns a script of 1 to `most` edits on `state` (drawn from `edits`, by
 * weight), the truth it must produce, and the state after it (no edit when
 * none of `edits` can be made). A script that gives a unit the code of
 * another unit while holding half of that unit's old area is written again:
 * by the code rule that is the other unit (docs/releases.md), and its truth
 * would be a matter of opinion.
 */
export function editScript(
  state: ModelState,
  random: () => number,
  most = 4,
  edits: [string, number, Edit][] = EDITS,
): Script {
  for (let oracleFailures = 0; ;) {
    const w = new Writer(state, random);
    const wanted = 1 + Math.floor(random() * most);
    const total = edits.reduce((n, [, weight]) => n + weight, 0);
    try {
      for (let tries = 0, done = 0; done < wanted && tries < 40; tries++) {
        let r = random() * total;
        const [, , edit] = edits.find(([, weight]) => (r -= weight) < 0) ?? edits[0]!;
        if (edit(w)) done++;
      }
      if (!codeTakesPlace(w)) return { lines: w.lines, truth: truthOf(w), next: nextState(w) };
    } catch (error) {
      // The oracle could not compute this script's truth: draw another (a bounded number of times).
      if (!(error instanceof OracleFailure) || ++oracleFailures > 20) throw error;
    }
  }
}

/** Returns whether a unit that stays has the code of another unit of the previous release and half of its area. */
function codeTakesPlace(w: Writer): boolean {
  const byCode = new Map(w.before.units.map((u) => [u.code, u]));
  return w.units.some((u) => {
    const v = byCode.get(u.code);
    if (!v || v.token === u.token || w.frozen.has(u.token)) return false; // a merge or split gives codes as it likes
    const least = Math.min(areaOf(u.geometry), areaOf(v.geometry));
    return overlapArea(u.geometry, v.geometry) >= 0.5 * least;
  });
}

function truthOf(w: Writer): Truth[] {
  const truth = [...w.structural];
  for (const after of w.units) {
    const was = w.before.units.find((u) => u.token === after.token);
    if (!was || w.frozen.has(after.token)) continue;
    const unit = after.token;
    if (was.name !== after.name)
      truth.push({
        type: 'renamed',
        unit,
        from: was.name,
        to: after.name,
        spelling_only: w.respelt.has(unit),
      });
    if (was.code !== after.code) truth.push({ type: 'recoded', unit, from: was.code, to: after.code });
    if (was.population !== after.population) truth.push({ type: 'attributes', unit, keys: ['population'] });
    const kind = w.shaped.get(unit);
    if (kind) truth.push({ type: 'geometry', unit, kind });
  }
  return truth;
}

function nextState(w: Writer): ModelState {
  return {
    units: w.units,
    retired: w.retired,
    tokens: w.tokens,
    codes: w.codes,
    names: w.names,
    slots: w.slots,
  };
}
