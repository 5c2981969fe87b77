// Runs model edit scripts through identification, release after release,
// the way `release` does for one country's level (identifyCountry with the
// previous release's units and IDs, the registry kept across releases, the
// removed units' last geometry for restorations), and compares each feed
// with the script's truth. Also checks that every merged and split entry
// agrees with the registry's supersedes and superseded_by, both ways.
import type { RegistryUnit, UnitChange } from '../../../build/core/shared/api.ts';
import type { LevelUnit } from '../../../build/identity/level.ts';
import {
  identifyCountry,
  retiredFromReleases,
  type PreviousLevel,
} from '../../../build/identity/registry.ts';
import { DEFAULT_THRESHOLDS } from '../../../build/identity/thresholds.ts';
import { IGNORED, rng, toLevelUnit } from './level.ts';
import { editScript, initialState, type ModelState, type Truth } from './script.ts';
import { METRES_PER_DEGREE } from '../../../build/core/shared/crs.ts';

/** One release chain: the registry, the last release's level, and which ID each token got. */
class Chain {
  readonly registry = new Map<string, RegistryUnit>();
  readonly idOf = new Map<string, string>(); // token → ID
  readonly released = new Map<string, { ids: string[]; units: LevelUnit[] }>(); // the level, by version
  previous?: PreviousLevel;
  version = 0;

  /** Releases `state`; returns the feed, the tokens of its IDs, and the problems found. */
  async release(
    state: ModelState,
  ): Promise<{ feed: UnitChange[]; tokenOf: Map<string, string>; problems: string[] }> {
    const units = state.units.map(toLevelUnit);
    const before = structuredClone(this.registry);
    const { units: entries, changes } = await identifyCountry({
      country: 'CHL',
      version: String(++this.version),
      levels: [
        { level: 'ADM1', units, places: units.map((_, feature) => ({ file: 'CHL_ADM1.geojson', feature })) },
      ],
      previous: new Map(this.previous ? [['ADM1', this.previous] as const] : []),
      registry: this.registry,
      thresholds: DEFAULT_THRESHOLDS,
      perDegree: METRES_PER_DEGREE.earth,
      ignored: IGNORED,
      retired: retiredFromReleases(async (version) => this.released.get(version)),
    });
    const problems: string[] = [];
    const tokenOf = new Map([...this.idOf].map(([token, id]) => [id, token]));
    state.units.forEach((u, n) => {
      const id = entries[n]!.id;
      const had = this.idOf.get(u.token);
      if (tokenOf.has(id) && tokenOf.get(id) !== u.token)
        problems.push(`${u.token} got the ID of ${tokenOf.get(id)} (${id})`);
      if (had && had !== id) problems.push(`${u.token} had ID ${had}, now ${id}`);
      tokenOf.set(id, u.token);
      this.idOf.set(u.token, id);
    });
    problems.push(
      ...registryProblems(before, this.registry, changes),
      ...namingProblems(changes, this.registry),
    );
    this.previous = { units, ids: entries.map((e) => e.id) };
    this.released.set(String(this.version), this.previous);
    return { feed: changes, tokenOf, problems };
  }
}

/** Returns one line per feed entry, by token, in a canonical form (sorted by the caller). */
export function lineOf(c: Truth): string {
  switch (c.type) {
    case 'added':
      return `added ${c.unit}${c.restored ? ' restored' : ''}${c.derived_from ? ` from ${[...c.derived_from].sort()}` : ''}`;
    case 'removed':
      return `removed ${c.unit}`;
    case 'renamed':
      return `renamed ${c.unit} "${c.from}" → "${c.to}"${c.spelling_only ? ' (spelling only)' : ''}`;
    case 'recoded':
      return `recoded ${c.unit} ${c.from} → ${c.to}`;
    case 'attributes':
      return `attributes ${c.unit} ${c.keys}`;
    case 'geometry':
      return `geometry ${c.unit} ${c.kind}`;
    default:
      return `${c.type} ${[...c.old].sort()} → ${[...c.new].sort()}`;
  }
}

/** Returns a feed entry in the truth's terms (tokens for IDs). */
export function asTruth(c: UnitChange, tokenOf: Map<string, string>): Truth {
  const t = (id: string) => tokenOf.get(id) ?? `?${id}`;
  switch (c.type) {
    case 'added':
      return {
        type: 'added',
        unit: t(c.id),
        ...(c.restored ? { restored: true as const } : {}),
        ...(c.derived_from ? { derived_from: c.derived_from.map(t) } : {}),
      };
    case 'removed':
      return { type: 'removed', unit: t(c.id) };
    case 'renamed':
      return { type: 'renamed', unit: t(c.id), from: c.from, to: c.to, spelling_only: c.spelling_only };
    case 'recoded':
      return { type: 'recoded', unit: t(c.id), from: c.from, to: c.to };
    case 'attributes':
      return { type: 'attributes', unit: t(c.id), keys: c.keys };
    case 'geometry':
      return { type: 'geometry', unit: t(c.id), kind: c.kind };
    case 'reorganised':
      return { type: 'merged', old: c.old.map((id) => `reorganised ${t(id)}`), new: c.new.map(t) };
    default:
      return { type: c.type, old: c.old.map(t), new: c.new.map(t) };
  }
}

/**
 * Returns every disagreement between the feed's merges and splits and the
 * links the release added to the registry: each old ID of an entry is
 * superseded by each new one it names (for a merge or split, all of them),
 * and the registry holds no new link that no entry names.
 */
export function registryProblems(
  before: Map<string, RegistryUnit>,
  after: Map<string, RegistryUnit>,
  feed: UnitChange[],
): string[] {
  const problems: string[] = [];
  const added = new Set<string>(); // "old>new" links made by this release
  for (const e of after.values()) {
    const had = new Set(before.get(e.id)?.superseded_by ?? []);
    for (const n of e.superseded_by ?? []) if (!had.has(n)) added.add(`${e.id}>${n}`);
    const was = new Set(before.get(e.id)?.supersedes ?? []);
    for (const o of e.supersedes ?? []) {
      if (!was.has(o) && !after.get(o)?.superseded_by?.includes(e.id))
        problems.push(`${e.id} supersedes ${o}, not linked back`);
    }
  }
  const named = new Set<string>();
  for (const c of feed) {
    if (c.type !== 'merged' && c.type !== 'split' && c.type !== 'reorganised') continue;
    for (const o of c.old) {
      const by = new Set(after.get(o)?.superseded_by ?? []);
      const linked = c.new.filter((n) => by.has(n));
      if (linked.length === 0 || (c.type !== 'reorganised' && linked.length !== c.new.length))
        problems.push(`${c.type}: ${o} is superseded by [${[...by]}], the entry names [${c.new}]`);
      for (const n of c.new) named.add(`${o}>${n}`);
      for (const n of linked) {
        if (!after.get(n)?.supersedes?.includes(o))
          problems.push(`${c.type}: ${n} does not list ${o} in supersedes`);
      }
    }
    for (const n of c.new) {
      if (!(after.get(n)?.supersedes ?? []).some((o) => c.old.includes(o)))
        problems.push(`${c.type}: ${n} supersedes none of [${c.old}]`);
    }
  }
  for (const link of added) if (!named.has(link)) problems.push(`registry link ${link} is in no feed entry`);
  return problems;
}

/** Returns every feed entry whose unit code or name is not the unit's (in this release, or as it last was). */
export function namingProblems(feed: UnitChange[], registry: Map<string, RegistryUnit>): string[] {
  const problems: string[] = [];
  const check = (u: { id: string; code: string; name: string } | undefined, what: string) => {
    const e = u && registry.get(u.id);
    if (!u || !e || e.code !== u.code || e.name !== u.name)
      problems.push(`${what} names ${JSON.stringify(u)}`);
  };
  for (const c of feed) {
    if ('id' in c) {
      if (c.type !== 'removed') check(c, c.type);
    } else {
      // Read as untrusted: a feed written by another version may lack the units' names.
      const [olds, news] = [
        c.old_units as typeof c.old_units | undefined,
        c.new_units as typeof c.new_units | undefined,
      ];
      if (olds?.map((u) => u.id).join() !== c.old.join())
        problems.push(`${c.type}: old_units do not name ${c.old}`);
      if (news?.map((u) => u.id).join() !== c.new.join())
        problems.push(`${c.type}: new_units do not name ${c.new}`);
      for (const u of news ?? []) check(u, c.type);
    }
  }
  return problems;
}

/** One script's outcome: empty `problems` when the feed is the truth and agrees with the registry. */
export interface Outcome {
  seed: number;
  release: number;
  lines: string[];
  problems: string[];
}

/**
 * Runs `chains` chains of `scripts` edit scripts each (a first release, then
 * one release per script), from seed `seed` + chain; returns the scripts
 * that went wrong (with what) and how many ran.
 */
export async function runModel(
  seed: number,
  chains: number,
  scripts: number,
): Promise<{ failed: Outcome[]; ran: number }> {
  const failed: Outcome[] = [];
  let ran = 0;
  for (let c = 0; c < chains; c++) {
    const random = rng(seed + c);
    const chain = new Chain();
    let state = initialState(random);
    await chain.release(state);
    for (let s = 0; s < scripts; s++) {
      const script = editScript(state, random);
      const { feed, tokenOf, problems } = await chain.release(script.next);
      ran++;
      const expected = script.truth.map(lineOf).sort();
      const actual = feed.map((c) => lineOf(asTruth(c, tokenOf))).sort();
      const missing = without(expected, actual).map((l) => `missing:    ${l}`);
      const extra = without(actual, expected).map((l) => `unexpected: ${l}`);
      if (missing.length || extra.length || problems.length)
        failed.push({
          seed: seed + c,
          release: s + 2,
          lines: script.lines,
          problems: [...missing, ...extra, ...problems],
        });
      state = script.next;
    }
  }
  return { failed, ran };
}

/** Returns the lines of `a` that `b` lacks, counting repeats. */
export function without(a: string[], b: string[]): string[] {
  const left = [...b];
  return a.filter((l) => {
    const i = left.indexOf(l);
    if (i >= 0) left.splice(i, 1);
    return i < 0;
  });
}

/** Returns the report of failed scripts: seed, release, the script and what went wrong. */
export function report(failed: Outcome[]): string {
  return failed
    .map((f) =>
      [
        `seed ${f.seed}, release ${f.release}:`,
        ...f.lines.map((l) => `  edit: ${l}`),
        ...f.problems.map((p) => `  ${p}`),
      ].join('\n'),
    )
    .join('\n');
}
