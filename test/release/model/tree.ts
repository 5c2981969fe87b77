// A small real-shaped catalogue for the model-based release tests: four
// countries, three present at first (each with an ADM0, its outline, and an
// ADM1; Chile also with an ADM2 published in parts) and one to be added (an
// island with an ADM0 alone). A script adds or removes a country or a level
// (a level or country that comes back comes back as it was last released),
// and edits the units of a level or two (test/release/model/script.ts);
// its truth is the feed it must produce at every grain.
import { EDITS } from './edits.ts';
import { round6, type MP, type Pos } from './geometry.ts';
import { makeLevel, type ModelUnit } from './level.ts';
import { editScript, initialState, stateOf, type ModelState, type Truth } from './script.ts';

export type TreeLevel = 'ADM0' | 'ADM1' | 'ADM2';

/** One country of the tree: its levels while it is released, and those it had and may get back. */
export interface CountryModel {
  iso: string; // e.g. "CHL"
  name: string; // its manifest's English name
  offset: number; // degrees east of the model's frame, where its files place it
  possible: TreeLevel[]; // levels it may have, in order
  parts?: TreeLevel; // the level published as parts (north and south), e.g. Chile's ADM2
  present: boolean;
  released: boolean; // in a release before this script: added again, its units are restored
  levels: Map<TreeLevel, ModelState>; // its levels (while absent: as last released)
  shelved: Map<TreeLevel, ModelState>; // levels removed, as last released
}

export interface TreeState {
  countries: CountryModel[]; // by ISO3
}

/** One expected feed entry: a unit's (tokens qualified, e.g. "CHL/ADM1/u3"), a level's or a country's. */
export type TreeTruth =
  | Truth
  | { type: 'country-added' | 'country-removed'; country: string; name: string; levels: TreeLevel[] }
  | { type: 'level-added' | 'level-removed'; country: string; level: TreeLevel; units: number };

export interface TreeScript {
  lines: string[];
  truth: TreeTruth[];
  next: TreeState;
}

/** The edits an ADM0 (one unit, no neighbours) takes: its labels, attributes, and its line drawn again. */
const ADM0_EDITS = EDITS.filter(([name]) => ['rename', 'recode', 'attributes', 're-digitise'].includes(name));

/** Returns a new level: an ADM1 of 3–4 × 3 cells, or an ADM2 of 5 × 3. */
function newLevel(level: 'ADM1' | 'ADM2', random: () => number): ModelState {
  if (level === 'ADM1') return initialState(random);
  return stateOf(makeLevel(random, 5, 3));
}

/** Returns an ADM0 of one unit drawn as `outline`. */
function adm0(iso: string, name: string, outline: MP, random: () => number): ModelState {
  const unit: ModelUnit = {
    token: 'u0',
    code: iso.slice(0, 2),
    name,
    population: 100_000 + Math.floor(random() * 10_000_000),
    geometry: outline,
  };
  return stateOf([unit]);
}

/**
 * Returns the outline of a grid level's units (one ring each, sharing their
 * borders vertex for vertex, as makeLevel draws them): the edges no two
 * units share, joined into one counter-clockwise ring. (polygon-clipping's
 * union of a dozen units took a tenth of a second per tree.)
 */
function outlineOf(units: ModelUnit[]): MP {
  const key = (p: Pos) => `${p[0]},${p[1]}`;
  const edges = new Map<string, [Pos, Pos]>(); // "a|b" → the edge from a to b
  for (const u of units) {
    const ring = u.geometry[0]![0]!;
    for (let i = 0; i + 1 < ring.length; i++) {
      const [a, b] = [ring[i]!, ring[i + 1]!];
      const back = `${key(b)}|${key(a)}`;
      if (edges.has(back))
        edges.delete(back); // shared with a neighbour: inside
      else edges.set(`${key(a)}|${key(b)}`, [a, b]);
    }
  }
  const next = new Map([...edges.values()].map(([a, b]) => [key(a), b] as const));
  const start = edges.values().next().value![0];
  const ring: Pos[] = [start];
  for (let p = next.get(key(start))!; key(p) !== key(start); p = next.get(key(p))!) ring.push(p);
  return [[[...ring, start]]];
}

/** Returns a small island: a ring of 12 vertices about 5 km across. */
function island(random: () => number): MP {
  const ring: Pos[] = [];
  for (let k = 0; k < 12; k++) {
    const r = 0.025 * (0.8 + 0.4 * random());
    const t = (2 * Math.PI * k) / 12;
    ring.push([round6(-72 + r * Math.cos(t)), round6(-38 + r * Math.sin(t))]);
  }
  return [[[...ring, ring[0]!]]];
}

/** Returns the first tree: Argentina, Chile and Uruguay released; Bouvet Island not yet. */
export function initialTree(random: () => number): TreeState {
  const country = (
    iso: string,
    name: string,
    offset: number,
    levels: TreeLevel[],
    extra: Partial<CountryModel> = {},
  ): CountryModel => {
    const adm1 = newLevel('ADM1', random);
    const made = new Map<TreeLevel, ModelState>([['ADM0', adm0(iso, name, outlineOf(adm1.units), random)]]);
    if (levels.includes('ADM1')) made.set('ADM1', adm1);
    if (levels.includes('ADM2')) made.set('ADM2', newLevel('ADM2', random));
    const possible: TreeLevel[] = ['ADM0', 'ADM1', 'ADM2'];
    const base = { iso, name, offset, possible, present: true, released: true };
    return { ...base, levels: made, shelved: new Map(), ...extra };
  };
  const bvt: CountryModel = {
    iso: 'BVT',
    name: 'Bouvet Island',
    offset: 33,
    possible: ['ADM0'],
    present: false,
    released: false,
    levels: new Map([['ADM0', adm0('BVT', 'Bouvet Island', island(random), random)]]),
    shelved: new Map(),
  };
  return {
    countries: [
      country('ARG', 'Argentina', 11, ['ADM0', 'ADM1']),
      bvt,
      country('CHL', 'Chile', 0, ['ADM0', 'ADM1', 'ADM2'], { parts: 'ADM2' }),
      country('URY', 'Uruguay', 22, ['ADM0', 'ADM1']),
    ],
  };
}

/** The state of one tree script while it is written. */
export class TreeWriter {
  readonly countries: CountryModel[];
  readonly lines: string[] = [];
  readonly truth: TreeTruth[] = [];
  readonly touched = new Set<string>(); // "CHL" (added or removed) and "CHL/ADM1" (added, removed or edited)

  constructor(
    before: TreeState,
    readonly random: () => number,
  ) {
    this.countries = before.countries.map((c) => ({
      ...c,
      levels: new Map(c.levels),
      shelved: new Map(c.shelved),
    }));
  }

  pick<T>(items: T[]): T | undefined {
    return items.length ? items[Math.floor(this.random() * items.length)] : undefined;
  }

  country(iso: string): CountryModel {
    return this.countries.find((c) => c.iso === iso)!;
  }

  /** Countries present before this script and neither added nor removed by it. */
  steady(): CountryModel[] {
    return this.countries.filter((c) => c.present && !this.touched.has(c.iso));
  }

  /** Countries present before this script that it has not touched at all (a level of one removed, then the country, is the country removed). */
  untouched(): CountryModel[] {
    const touched = (c: CountryModel) =>
      [...this.touched].some((k) => k === c.iso || k.startsWith(`${c.iso}/`));
    return this.countries.filter((c) => c.present && !touched(c));
  }

  /** Records a level's units as removed (`removed`) or added (`added`, restored when released before). */
  private units(c: CountryModel, level: TreeLevel, state: ModelState, how: 'added' | 'removed' | 'restored') {
    const type = how === 'removed' ? 'level-removed' : 'level-added';
    this.truth.push({ type, country: c.iso, level, units: state.units.length });
    for (const u of state.units) {
      const unit = `${c.iso}/${level}/${u.token}`;
      if (how === 'removed') this.truth.push({ type: 'removed', unit });
      else
        this.truth.push({ type: 'added', unit, ...(how === 'restored' ? { restored: true as const } : {}) });
    }
  }

  removeCountry(iso: string): void {
    const c = this.country(iso);
    c.present = false;
    this.touched.add(iso);
    const levels = [...c.levels.keys()];
    this.truth.push({ type: 'country-removed', country: iso, name: c.name, levels });
    for (const [level, state] of c.levels) this.units(c, level, state, 'removed');
    this.lines.push(`remove country ${iso} (${levels.join(', ')})`);
  }

  /** Adds a country back as it was last released, or for the first time. */
  addCountry(iso: string): void {
    const c = this.country(iso);
    const { released } = c;
    c.present = true;
    this.touched.add(iso);
    const levels = [...c.levels.keys()];
    this.truth.push({ type: 'country-added', country: iso, name: c.name, levels });
    for (const [level, state] of c.levels) this.units(c, level, state, released ? 'restored' : 'added');
    this.lines.push(`${released ? 'restore' : 'add'} country ${iso} (${levels.join(', ')})`);
  }

  removeLevel(iso: string, level: TreeLevel): void {
    const c = this.country(iso);
    const state = c.levels.get(level)!;
    c.levels.delete(level);
    c.shelved.set(level, state);
    this.touched.add(`${iso}/${level}`);
    this.units(c, level, state, 'removed');
    this.lines.push(`remove level ${iso}/${level} (${state.units.length} units)`);
  }

  /** Adds a level: the one removed before, as it was, or a new one. */
  addLevel(iso: string, level: TreeLevel): void {
    const c = this.country(iso);
    const shelved = c.shelved.get(level);
    if (!shelved && level === 'ADM0') throw new Error(`${iso} has no ADM0 to add back`); // every country has one at first
    const state = shelved ?? newLevel(level as 'ADM1' | 'ADM2', this.random);
    c.shelved.delete(level);
    c.levels = new Map(
      c.possible.flatMap((l) =>
        l === level ? [[l, state]] : c.levels.has(l) ? [[l, c.levels.get(l)!]] : [],
      ),
    );
    this.touched.add(`${iso}/${level}`);
    this.units(c, level, state, shelved ? 'restored' : 'added');
    this.lines.push(`${shelved ? 'restore' : 'add'} level ${iso}/${level} (${state.units.length} units)`);
  }

  /** Edits the units of one level (test/release/model/script.ts): `edits` by name, or any that fits. */
  editLevel(iso: string, level: TreeLevel, most = 3, edits?: string[]): boolean {
    const c = this.country(iso);
    const fits = level === 'ADM0' ? ADM0_EDITS : EDITS;
    const chosen = edits ? fits.filter(([name]) => edits.includes(name)) : fits;
    const script = editScript(c.levels.get(level)!, this.random, most, chosen);
    if (script.lines.length === 0) return false;
    c.levels = new Map(c.levels).set(level, script.next);
    this.touched.add(`${iso}/${level}`);
    const q = (token: string) => `${iso}/${level}/${token}`;
    for (const t of script.truth) {
      if ('unit' in t) {
        const derived = 'derived_from' in t && t.derived_from ? { derived_from: t.derived_from.map(q) } : {};
        this.truth.push({ ...t, unit: q(t.unit), ...derived });
      } else this.truth.push({ ...t, old: t.old.map(q), new: t.new.map(q) });
    }
    this.lines.push(...script.lines.map((l) => `${iso}/${level}: ${l}`));
    return true;
  }

  /** Returns the tree after the script, as its release leaves it. */
  next(): TreeState {
    return { countries: this.countries.map((c) => ({ ...c, released: c.released || c.present })) };
  }
}

/** Countries a tree keeps at least (a removal below it is skipped). */
const MIN_COUNTRIES = 2;

/** The tree edits a random script may make first, by weight; each returns false when it cannot be made. */
const TREE_EDITS: [string, number, (w: TreeWriter) => boolean][] = [
  [
    'remove country',
    2,
    (w) => {
      const c = w.countries.filter((x) => x.present).length > MIN_COUNTRIES && w.pick(w.untouched());
      if (c) w.removeCountry(c.iso);
      return !!c;
    },
  ],
  [
    'add country',
    2,
    (w) => {
      const c = w.pick(w.countries.filter((x) => !x.present && !w.touched.has(x.iso)));
      if (c) w.addCountry(c.iso);
      return !!c;
    },
  ],
  [
    'remove level',
    2,
    (w) => {
      const options = w
        .steady()
        .filter((c) => c.levels.size > 1)
        .flatMap((c) =>
          [...c.levels.keys()].filter((l) => !w.touched.has(`${c.iso}/${l}`)).map((l) => [c, l] as const),
        );
      const o = w.pick(options);
      if (o) w.removeLevel(o[0].iso, o[1]);
      return !!o;
    },
  ],
  [
    'add level',
    2,
    (w) => {
      const options = w
        .steady()
        .flatMap((c) =>
          c.possible
            .filter((l) => !c.levels.has(l) && !w.touched.has(`${c.iso}/${l}`))
            .map((l) => [c, l] as const),
        );
      const o = w.pick(options);
      if (o) w.addLevel(o[0].iso, o[1]);
      return !!o;
    },
  ],
];

/**
 * Returns a random script on `tree`: now and then no edit at all; else
 * sometimes one or two tree edits (a country or level added or removed),
 * then unit edits in one or two levels that no tree edit touched, at least
 * one edit in all.
 */
export function treeScript(tree: TreeState, random: () => number): TreeScript {
  const w = new TreeWriter(tree, random);
  // Sometimes the same tree released again (release --allow-empty): its feed must claim nothing.
  if (random() < 0.04) return { lines: ['no change'], truth: [], next: w.next() };
  const total = TREE_EDITS.reduce((n, [, weight]) => n + weight, 0);
  const wanted = random() < 0.4 ? (random() < 0.3 ? 2 : 1) : 0;
  for (let tries = 0, done = 0; done < wanted && tries < 10; tries++) {
    let r = random() * total;
    const [, , edit] = TREE_EDITS.find(([, weight]) => (r -= weight) < 0) ?? TREE_EDITS[0]!;
    if (edit(w)) done++;
  }
  const levels = w.lines.length === 0 || random() < 0.4 ? 1 + Math.floor(random() * 2) : 0;
  for (let tries = 0, done = 0; done < levels && tries < 10; tries++) {
    const options = w
      .steady()
      .flatMap((c) =>
        [...c.levels.keys()].filter((l) => !w.touched.has(`${c.iso}/${l}`)).map((l) => [c, l] as const),
      );
    const o = w.pick(options);
    if (o && w.editLevel(o[0].iso, o[1])) done++;
  }
  return { lines: w.lines, truth: w.truth, next: w.next() };
}
