// Random edit scripts over one model level, with the change feed they must
// produce (the truth): renames (real ones and respellings), re-codes, code
// swaps, labels rotated among three units, moved shared borders, units moved
// or scaled whole, re-digitised units, merges, splits, attribute edits,
// removals, additions and restorations of removed units. Each edit checks
// its preconditions on the geometry, so that the truth is what a careful
// reader of the two files would say (docs/releases.md, "The change feed",
// lists the limits these scripts stay within).
import {
  areaOf,
  boxOf,
  cut,
  densify,
  jitter,
  metresPerDegree,
  moveSharedBorder,
  overlapArea,
  round6,
  scale,
  translate,
  union,
  vertexKeys,
  type MP,
  type Pos,
} from './geometry.ts';
import { makeLevel, NAMES, shuffled, type ModelUnit } from './level.ts';

/** One expected feed entry, by token (the identity the truth knows the unit by). */
export type Truth =
  | { type: 'added'; unit: string; restored?: true; derived_from?: string[] }
  | { type: 'removed'; unit: string }
  | { type: 'renamed'; unit: string; from: string; to: string; spelling_only: boolean }
  | { type: 'recoded'; unit: string; from: string; to: string }
  | { type: 'attributes'; unit: string; keys: string[] }
  | { type: 'geometry'; unit: string; kind: 'boundary' | 'redigitised' }
  | { type: 'merged' | 'split'; old: string[]; new: string[] };

/** A level between releases: its units, the removed ones that may come back, and what was ever used. */
export interface ModelState {
  units: ModelUnit[];
  retired: ModelUnit[]; // removed (not merged or split), as they last were
  tokens: number;
  codes: Set<string>; // every code ever given: a new code is never an old one
  names: Set<string>;
  slots: number; // places east of the grid used by added units
}

/** An edit script: what it did (one line per edit), the feed it must produce, and the level after it. */
export interface Script {
  lines: string[];
  truth: Truth[];
  next: ModelState;
}

/** Units a level keeps at least (a removal or merge below it is skipped). */
const MIN_UNITS = 8;
/** Edits that move vertices by more than noise (move or scale whole, re-digitise) per script: see the limits. */
const MAX_UNIFORM = 2;

/** Returns the first state of a level: a grid of 3 × 3 or 4 × 3 cells. */
export function initialState(random: () => number): ModelState {
  const units = makeLevel(random, 3 + Math.floor(random() * 2), 3);
  return {
    units,
    retired: [],
    tokens: units.length,
    codes: new Set(units.map((u) => u.code)),
    names: new Set(units.map((u) => u.name)),
    slots: 0,
  };
}

/** The state of one script while it is written. */
class Writer {
  readonly units: ModelUnit[];
  readonly retired: ModelUnit[];
  readonly lines: string[] = [];
  readonly structural: Truth[] = [];
  readonly frozen = new Set<string>(); // merged, split, removed, added, restored: no other edit
  readonly labelled = new Set<string>(); // one label edit per unit
  readonly shaped = new Map<string, 'boundary' | 'redigitised'>(); // one geometry edit per unit
  readonly respelt = new Set<string>();
  readonly rotated = new Set<string>(); // its code and name now point elsewhere: its geometry is all that identifies it
  uniform = 0;
  tokens: number;
  slots: number;
  readonly codes: Set<string>;
  readonly names: Set<string>;

  constructor(
    readonly before: ModelState,
    readonly random: () => number,
  ) {
    this.units = before.units.map((u) => ({ ...u }));
    this.retired = [...before.retired];
    this.tokens = before.tokens;
    this.slots = before.slots;
    this.codes = new Set(before.codes);
    this.names = new Set(before.names);
  }

  pick<T>(items: T[]): T | undefined {
    return items.length ? items[Math.floor(this.random() * items.length)] : undefined;
  }

  free(u: ModelUnit, what: 'label' | 'geometry' | 'any'): boolean {
    if (this.frozen.has(u.token)) return false;
    if (what === 'label') return !this.labelled.has(u.token);
    if (what === 'geometry') return !this.shaped.has(u.token) && !this.rotated.has(u.token);
    return !this.labelled.has(u.token) && !this.shaped.has(u.token) && !this.changedAttributes(u);
  }

  changedAttributes(u: ModelUnit): boolean {
    return this.before.units.find((b) => b.token === u.token)?.population !== u.population;
  }

  /** Returns the pairs of free units that share a border (two vertices or more). */
  neighbours(what: 'geometry' | 'any'): [ModelUnit, ModelUnit][] {
    const free = this.units.filter((u) => this.free(u, what));
    const keys = new Map(free.map((u) => [u.token, vertexKeys(u.geometry)]));
    const pairs: [ModelUnit, ModelUnit][] = [];
    for (let i = 0; i < free.length; i++) {
      for (let j = i + 1; j < free.length; j++) {
        const [a, b] = [keys.get(free[i]!.token)!, keys.get(free[j]!.token)!];
        let shared = 0;
        for (const k of a) if (b.has(k) && ++shared >= 2) break;
        if (shared >= 2) pairs.push([free[i]!, free[j]!]);
      }
    }
    return pairs;
  }

  newToken(): string {
    return `u${this.tokens++}`;
  }

  newCode(): string {
    for (;;) {
      const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
      const code = `CL-${letters[Math.floor(this.random() * 26)]}${letters[Math.floor(this.random() * 26)]}${Math.floor(this.random() * 10)}`;
      if (!this.codes.has(code)) {
        this.codes.add(code);
        return code;
      }
    }
  }

  newName(): string {
    const unused = NAMES.filter((n) => !this.names.has(n));
    const name = this.pick(unused) ?? `Nueva Comuna ${this.names.size}`;
    this.names.add(name);
    return name;
  }

  replace(u: ModelUnit, changes: Partial<ModelUnit>): void {
    const i = this.units.findIndex((x) => x.token === u.token);
    this.units[i] = { ...this.units[i]!, ...changes };
  }
}

/** Returns a spelling of `name` that differs only in case, diacritics, hyphens or spaces. */
function respell(name: string, random: () => number): string {
  const plain = name.normalize('NFD').replace(/\p{M}/gu, '');
  const options = [
    name.toUpperCase(),
    name.toLowerCase(),
    plain,
    name.replaceAll(' ', '-'),
    name.replaceAll(' ', ''),
    name.replaceAll('-', ' '),
  ].filter((s) => s !== name);
  return options[Math.floor(random() * options.length)]!;
}

type Edit = (w: Writer) => boolean;

const EDITS: [string, number, Edit][] = [
  ['rename', 3, rename],
  ['recode', 2, recode],
  ['swap codes', 2, swapCodes],
  ['rotate labels', 1, rotateLabels],
  ['attributes', 2, attributes],
  ['move border', 3, moveBorder],
  ['move or scale', 2, moveOrScale],
  ['re-digitise', 2, redigitise],
  ['merge', 2, merge],
  ['split', 2, split],
  ['remove', 2, remove],
  ['add', 1, add],
  ['restore', 2, restore],
];

/**
 * Returns a script of 1 to `most` edits on `state`, the truth it must
 * produce, and the state after it. A script that gives a unit the code of
 * another unit while holding half of that unit's old area is written again:
 * by the code rule that is the other unit (docs/releases.md), and its truth
 * would be a matter of opinion.
 */
export function editScript(state: ModelState, random: () => number, most = 4): Script {
  for (;;) {
    const w = new Writer(state, random);
    const wanted = 1 + Math.floor(random() * most);
    const total = EDITS.reduce((n, [, weight]) => n + weight, 0);
    for (let tries = 0, done = 0; done < wanted && tries < 40; tries++) {
      let r = random() * total;
      const [, , edit] = EDITS.find(([, weight]) => (r -= weight) < 0) ?? EDITS[0]!;
      if (edit(w)) done++;
    }
    if (!codeTakesPlace(w)) return { lines: w.lines, truth: truthOf(w), next: nextState(w) };
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

function rename(w: Writer): boolean {
  const u = w.pick(w.units.filter((x) => w.free(x, 'label')));
  if (!u) return false;
  const spelling = w.random() < 0.4;
  const name = spelling ? respell(u.name, w.random) : w.newName();
  if (spelling) w.respelt.add(u.token);
  w.labelled.add(u.token);
  w.replace(u, { name });
  w.lines.push(`${spelling ? 'respell' : 'rename'} ${u.token} "${u.name}" → "${name}"`);
  return true;
}

function recode(w: Writer): boolean {
  const u = w.pick(w.units.filter((x) => w.free(x, 'label')));
  if (!u) return false;
  const code = w.newCode();
  w.labelled.add(u.token);
  w.replace(u, { code });
  w.lines.push(`recode ${u.token} ${u.code} → ${code}`);
  return true;
}

function swapCodes(w: Writer): boolean {
  const free = shuffled(
    w.units.filter((x) => w.free(x, 'label')),
    w.random,
  );
  if (free.length < 2) return false;
  const [a, b] = [free[0]!, free[1]!];
  w.labelled.add(a.token).add(b.token);
  w.replace(a, { code: b.code });
  w.replace(b, { code: a.code });
  w.lines.push(`swap codes of ${a.token} (${a.code}) and ${b.token} (${b.code})`);
  return true;
}

/** Rotates the codes and names of three units (each takes the next one's), sometimes re-digitising them too. */
function rotateLabels(w: Writer): boolean {
  const free = shuffled(
    w.units.filter((x) => w.free(x, 'label') && w.free(x, 'geometry')),
    w.random,
  );
  if (free.length < 3) return false;
  const three = free.slice(0, 3);
  const redraw = w.uniform < MAX_UNIFORM && w.random() < 0.3;
  if (redraw) w.uniform++;
  three.forEach((u, i) => {
    const next = three[(i + 1) % 3]!;
    w.labelled.add(u.token);
    w.rotated.add(u.token);
    w.replace(u, { code: next.code, name: next.name });
    if (redraw) {
      w.shaped.set(u.token, 'redigitised');
      w.replace(u, { geometry: jitter(u.geometry, w.random, 3) });
    }
  });
  w.lines.push(
    `rotate labels ${three.map((u) => `${u.token} (${u.code} "${u.name}")`).join(' ← ')}${redraw ? ', re-digitised' : ''}`,
  );
  return true;
}

function attributes(w: Writer): boolean {
  const u = w.pick(w.units.filter((x) => !w.frozen.has(x.token) && !w.changedAttributes(x)));
  if (!u) return false;
  const population = u.population + 1 + Math.floor(w.random() * 10_000);
  w.replace(u, { population });
  w.lines.push(`attributes ${u.token} population ${u.population} → ${population}`);
  return true;
}

function moveBorder(w: Writer): boolean {
  for (const [a, b] of shuffled(w.neighbours('geometry'), w.random)) {
    const metres = 500 + w.random() * 19_500;
    const side = w.random() < 0.5 ? 1 : -1;
    const others = w.units.filter((u) => u !== a && u !== b).map((u) => u.geometry);
    const moved = moveSharedBorder(a.geometry, b.geometry, others, metres, side);
    if (!moved) continue;
    w.shaped.set(a.token, 'boundary').set(b.token, 'boundary');
    w.replace(a, { geometry: moved[0] });
    w.replace(b, { geometry: moved[1] });
    w.lines.push(
      `move the border of ${a.token} and ${b.token} by ${Math.round(metres)} m into ${side > 0 ? b.token : a.token}`,
    );
    return true;
  }
  return false;
}

/**
 * Moves a unit whole by 0.5–20 km (at most a quarter of its width), or
 * scales it by 0.6–0.85 or 1.2–1.5; it keeps 60 % of the smaller of its two
 * drawings in common (its code names it by overlap, even when renamed), or
 * the move is made smaller.
 */
function moveOrScale(w: Writer): boolean {
  if (w.uniform >= MAX_UNIFORM) return false;
  const u = w.pick(w.units.filter((x) => w.free(x, 'geometry') && !x.displaced));
  if (!u) return false;
  const move = w.random() < 0.5;
  const [kx] = metresPerDegree(u.geometry);
  const b = boxOf(u.geometry);
  const most = Math.min(20_000, 0.25 * (b[2] - b[0]) * kx);
  let metres = 500 + w.random() * (most - 500);
  const angle = 2 * Math.PI * w.random();
  let k = w.random() < 0.5 ? 0.6 + 0.25 * w.random() : 1.2 + 0.3 * w.random();
  for (let tries = 0; tries < 4; tries++, metres = Math.max(500, metres / 2), k = 1 + (k - 1) / 2) {
    const geometry = move
      ? translate(u.geometry, metres * Math.cos(angle), metres * Math.sin(angle))
      : scale(u.geometry, k);
    const least = Math.min(areaOf(geometry), areaOf(u.geometry));
    if (overlapArea(geometry, u.geometry) < 0.6 * least) continue;
    w.uniform++;
    w.shaped.set(u.token, 'boundary');
    w.replace(u, { geometry, displaced: true });
    w.lines.push(
      move ? `move ${u.token} whole by ${Math.round(metres)} m` : `scale ${u.token} by ${k.toFixed(3)}`,
    );
    return true;
  }
  return false;
}

function redigitise(w: Writer): boolean {
  if (w.uniform >= MAX_UNIFORM) return false;
  const u = w.pick(w.units.filter((x) => w.free(x, 'geometry')));
  if (!u) return false;
  w.uniform++;
  w.shaped.set(u.token, 'redigitised');
  const points = u.geometry.flat().reduce((n, ring) => n + ring.length, 0);
  if (points < 100 && w.random() < 0.5) {
    w.replace(u, { geometry: densify(u.geometry) });
    w.lines.push(`re-digitise ${u.token}: a vertex at the middle of every edge`);
  } else {
    const metres = 0.5 + 2.5 * w.random();
    w.replace(u, { geometry: jitter(u.geometry, w.random, metres) });
    w.lines.push(`re-digitise ${u.token}: every vertex moved by up to ${metres.toFixed(1)} m`);
  }
  return true;
}

function merge(w: Writer): boolean {
  if (w.units.length <= MIN_UNITS) return false;
  const pair = w.pick(w.neighbours('any'));
  if (!pair) return false;
  const [a, b] = pair;
  const token = w.newToken();
  const keep = w.random() < 0.6;
  const merged: ModelUnit = {
    token,
    code: keep ? a.code : w.newCode(),
    name: keep ? a.name : w.newName(),
    population: a.population + b.population,
    geometry: union(a.geometry, b.geometry),
  };
  const i = w.units.indexOf(w.units.find((u) => u.token === a.token)!);
  w.units.splice(i, 1, merged);
  w.units.splice(
    w.units.findIndex((u) => u.token === b.token),
    1,
  );
  w.frozen.add(token);
  w.structural.push({ type: 'merged', old: [a.token, b.token], new: [token] });
  w.lines.push(
    `merge ${a.token} (${a.code}) and ${b.token} (${b.code}) into ${token} (${merged.code} "${merged.name}")`,
  );
  return true;
}

function split(w: Writer): boolean {
  const u = w.pick(w.units.filter((x) => w.free(x, 'any')));
  if (!u) return false;
  let parts: [MP, MP] | undefined;
  for (let tries = 0; !parts && tries < 5; tries++) parts = cut(u.geometry, Math.PI * w.random(), 0.3);
  if (!parts) return false;
  const choice = w.random();
  const first: ModelUnit = {
    token: w.newToken(),
    code: choice < 0.5 ? u.code : w.newCode(),
    name: choice < 0.75 ? u.name : w.newName(),
    population: Math.floor(u.population / 2),
    geometry: parts[0],
  };
  const second: ModelUnit = {
    token: w.newToken(),
    code: w.newCode(),
    name: w.newName(),
    population: u.population - first.population,
    geometry: parts[1],
  };
  w.units.splice(w.units.indexOf(w.units.find((x) => x.token === u.token)!), 1, first, second);
  w.frozen.add(first.token).add(second.token);
  w.structural.push({ type: 'split', old: [u.token], new: [first.token, second.token] });
  w.lines.push(
    `split ${u.token} (${u.code}) into ${first.token} (${first.code}) and ${second.token} (${second.code})`,
  );
  return true;
}

function remove(w: Writer): boolean {
  if (w.units.length <= MIN_UNITS) return false;
  const u = w.pick(w.units.filter((x) => w.free(x, 'any')));
  if (!u) return false;
  w.units.splice(w.units.indexOf(u), 1);
  w.retired.push(w.before.units.find((x) => x.token === u.token)!);
  w.frozen.add(u.token);
  w.structural.push({ type: 'removed', unit: u.token });
  w.lines.push(`remove ${u.token} (${u.code} "${u.name}")`);
  return true;
}

/** Adds a unit in a place no unit ever held (east of the grid). */
function add(w: Writer): boolean {
  const slot = w.slots++;
  const [cx, cy] = [-67.5 + 0.9 * (slot % 6), -39.2 + 0.9 * Math.floor(slot / 6)];
  const ring: Pos[] = [];
  for (let k = 0; k < 10; k++) {
    const r = 0.25 * (0.8 + 0.4 * w.random());
    const t = (2 * Math.PI * k) / 10;
    ring.push([round6(cx + r * Math.cos(t)), round6(cy + r * Math.sin(t))]);
  }
  const u: ModelUnit = {
    token: w.newToken(),
    code: w.newCode(),
    name: w.newName(),
    population: 1000 + Math.floor(w.random() * 50_000),
    geometry: [[[...ring, ring[0]!]]],
  };
  w.units.push(u);
  w.frozen.add(u.token);
  w.structural.push({ type: 'added', unit: u.token });
  w.lines.push(`add ${u.token} (${u.code} "${u.name}")`);
  return true;
}

/** Brings back a removed unit where no unit now lies (less than 5 % of it covered), with its code. */
function restore(w: Writer): boolean {
  const clear = (r: ModelUnit, units: ModelUnit[]) =>
    units.every((u) => overlapArea(u.geometry, r.geometry) < 0.05 * areaOf(r.geometry));
  const candidates = w.retired.filter(
    (r) => !w.frozen.has(r.token) && clear(r, w.units) && clear(r, w.before.units),
  );
  const r = w.pick(candidates);
  if (!r) return false;
  w.retired.splice(w.retired.indexOf(r), 1);
  const derived = w.before.units
    .filter((u) => overlapArea(u.geometry, r.geometry) > 0.01 * areaOf(r.geometry))
    .map((u) => u.token);
  w.units.push({ ...r });
  w.frozen.add(r.token);
  w.structural.push({
    type: 'added',
    unit: r.token,
    restored: true,
    ...(derived.length ? { derived_from: derived } : {}),
  });
  w.lines.push(`restore ${r.token} (${r.code} "${r.name}")`);
  return true;
}
