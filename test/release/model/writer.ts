// The state of one model edit script while it is written
// (test/release/model/script.ts): the level's units, which units each kind
// of edit has touched, and what the truth must say about them.
import { vertexKeys } from './geometry.ts';
import { NAMES, type ModelUnit } from './level.ts';

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
export const MIN_UNITS = 8;
/** Edits that move vertices by more than noise (move or scale whole, re-digitise) per script: see the limits. */
export const MAX_UNIFORM = 2;

/** The state of one script while it is written. */
export class Writer {
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
