// Runs model tree scripts (test/release/model/tree.ts) through the release's
// identity step, release after release, and compares each feed with the
// script's truth at every grain: countries added and removed (with their
// levels), levels added and removed (with their unit counts) and every unit
// entry; each unit keeps its ID (a restored one gets its old ID back), and
// every merge and split agrees with the registry. Two ways to release:
// identify() in-process on the validated manifests, over a ledger kept in
// memory (fast: the quick project), or makeRelease itself, the ledger read
// back from disk (the long project).
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isUnitChange, type RegistryUnit, type ReleaseChange } from '../../../build/core/shared/api.ts';
import { formatProblem } from '../../../build/core/problem.ts';
import { DEFAULT_THRESHOLDS } from '../../../build/identity/thresholds.ts';
import { validateManifests } from '../../../build/manifest/validate.ts';
import { MeasurementCache } from '../../../build/measure/cache.ts';
import type { FileStats } from '../../../build/core/shared/manifest.ts';
import { releasedFiles } from '../../../build/release/files.ts';
import { identify } from '../../../build/release/identify.ts';
import {
  LEDGER_DIR,
  readLedger,
  readRegistry,
  type Ledger,
  type ReleasedLevel,
} from '../../../build/release/ledger.ts';
import { makeRelease } from '../../../build/release/release.ts';
import { rng } from './level.ts';
import { asTruth, lineOf, namingProblems, registryProblems, without, type Outcome } from './run.ts';
import { writeTree } from './tree-files.ts';
import { levelFiles } from './tree-files.ts';
import { initialTree, treeScript, type TreeState, type TreeTruth } from './tree.ts';

/** What one release of a tree gave: its feed, each level's unit IDs in feature order, the registry before and after. */
interface Released {
  changes: ReleaseChange[];
  levels: ReleasedLevel[];
  before: RegistryUnit[];
  after: RegistryUnit[];
}

/** Releases the data under a root as `version`; `written` holds each data file's text, by path. */
export type Releaser = (
  root: string,
  version: string,
  written: ReadonlyMap<string, string>,
) => Promise<Released>;

const DATE = '2026-11-27';

/**
 * Returns a releaser that runs the release's identity step alone: validate
 * (no geometry, nesting, coverage or preview checks: they only warn), then
 * identify() with a ledger kept in memory, each released file stored raw
 * under the root's objects/ (identify reads the previous levels and a
 * removed country's manifest from it).
 */
export function identifyReleaser(): Releaser {
  const ledger: Ledger = { releases: [], objects: new Map(), records: new Map(), problems: [], warnings: [] };
  const measured = new Map<string, { text: string | undefined; stats: Promise<FileStats> }>(); // by path
  return async (root, version, written) => {
    // Each file measured anew when its text changed (MeasurementCache measures a path once).
    const measurer = {
      measure: (path: string) => {
        const text = written.get(relative(root, path));
        const known = measured.get(path);
        if (known && text !== undefined && known.text === text) return known.stats;
        const stats = new MeasurementCache().measure(path);
        measured.set(path, { text, stats });
        return stats;
      },
    };
    const validated = await validateManifests(root, {
      measurer,
      geometry: false,
      nesting: false,
      coverage: false,
      previews: false,
    });
    if (!validated.ok) throw new Error(validated.problems.map(formatProblem).join('\n'));
    const manifests = [...validated.manifests].sort((a, b) => (a.file < b.file ? -1 : 1));
    const files = releasedFiles(manifests);
    const previous = ledger.releases.at(-1);
    const before = previous ? readRegistry(previous) : [];
    const thresholds = DEFAULT_THRESHOLDS;
    const made = await identify({ root, version, date: DATE, manifests, files, ledger, thresholds });
    mkdirSync(join(root, 'objects'), { recursive: true });
    for (const f of files) {
      if (ledger.objects.has(f.sha256)) continue;
      copyFileSync(join(root, f.path), join(root, 'objects', f.sha256));
      ledger.objects.set(f.sha256, { path: `objects/${f.sha256}`, encoding: 'raw' });
    }
    ledger.releases.push({
      record: made.record,
      site: { layout: 2, files: [] },
      dir: `${LEDGER_DIR}/${version}`,
      changes: made.changes,
      storedRegistry: made.registry,
    });
    return { changes: made.changes, levels: made.record.levels, before, after: made.registry };
  };
}

/**
 * Returns a releaser that runs `release` itself (makeRelease, no map tiles),
 * and returns the release as the ledger on disk holds it, which must be
 * readable without a problem and hold the feed the release made.
 */
export function fullReleaser(): Releaser {
  return async (root, version) => {
    const previous = readLedger(root).releases.at(-1);
    const before = previous ? readRegistry(previous) : [];
    const outcome = await makeRelease(root, version, { tiles: false, date: DATE, allowEmpty: true });
    if (outcome.status !== 'recorded') throw new Error(outcome.problems.map(formatProblem).join('\n'));
    const ledger = readLedger(root);
    if (ledger.problems.length) throw new Error(ledger.problems.map(formatProblem).join('\n'));
    const r = ledger.releases.at(-1)!;
    if (JSON.stringify(r.changes) !== JSON.stringify(outcome.changes))
      throw new Error(`release ${version}: the ledger's feed is not the one the release made`);
    return { changes: r.changes, levels: r.record.levels, before, after: readRegistry(r) };
  };
}

/** Returns one line per expected feed entry, in a canonical form (sorted by the caller). */
function treeLine(t: TreeTruth): string {
  switch (t.type) {
    case 'country-added':
    case 'country-removed':
      return `${t.type} ${t.country} "${t.name}" [${[...t.levels].sort()}]`;
    case 'level-added':
    case 'level-removed':
      return `${t.type} ${t.country}/${t.level}: ${t.units} units`;
    default:
      return lineOf(t);
  }
}

/** A tree released one release after another, and which ID each unit (by qualified token) got. */
export class TreeChain {
  readonly idOf = new Map<string, string>(); // "CHL/ADM1/u3" → ID
  readonly written = new Map<string, string>();
  private version = 0;

  constructor(
    readonly root: string,
    readonly releaser: Releaser,
  ) {}

  /** Releases `tree`; returns the feed's lines by token, and the problems found besides. */
  async release(tree: TreeState): Promise<{ lines: string[]; problems: string[] }> {
    writeTree(this.root, tree, this.written);
    const r = await this.releaser(this.root, String(++this.version), this.written);
    const problems: string[] = [];
    const tokenOf = new Map([...this.idOf].map(([token, id]) => [id, token]));
    const present = new Set<string>();
    for (const level of r.levels) {
      const key = `${level.country}/${level.level}`;
      present.add(key);
      const c = tree.countries.find((x) => x.iso === level.country && x.present);
      const units = c?.levels.has(level.level as 'ADM0')
        ? levelFiles(c, level.level as 'ADM0').flatMap((f) => f.units)
        : [];
      if (units.length !== level.ids.length)
        problems.push(`${key}: ${level.ids.length} IDs for ${units.length} units`);
      units.forEach((u, n) => {
        const token = `${key}/${u.token}`;
        const id = level.ids[n]!;
        const had = this.idOf.get(token);
        if (tokenOf.has(id) && tokenOf.get(id) !== token)
          problems.push(`${token} got the ID of ${tokenOf.get(id)} (${id})`);
        if (had && had !== id) problems.push(`${token} had ID ${had}, now ${id}`);
        tokenOf.set(id, token);
        this.idOf.set(token, id);
      });
    }
    for (const c of tree.countries) {
      for (const level of c.present ? c.levels.keys() : []) {
        if (!present.has(`${c.iso}/${level}`)) problems.push(`${c.iso}/${level} is not in the release`);
      }
    }
    const units = r.changes.filter(isUnitChange);
    for (const c of units) {
      const tokens = 'id' in c ? [c.id] : [...c.old, ...c.new];
      for (const id of tokens) {
        const token = tokenOf.get(id) ?? '';
        if (!token.startsWith(`${c.country}/${c.level}/`))
          problems.push(`${c.type} of ${token || id} says ${c.country}/${c.level}`);
      }
    }
    const after = new Map(r.after.map((u) => [u.id, u]));
    problems.push(
      ...registryProblems(new Map(r.before.map((u) => [u.id, u])), after, units),
      ...namingProblems(units, after),
    );
    const lines = r.changes.map((c) => treeLine(isUnitChange(c) ? asTruth(c, tokenOf) : (c as TreeTruth)));
    return { lines, problems };
  }
}

/** Returns how a release's feed lines (and problems) differ from a script's truth: none when they agree. */
export function differences(truth: TreeTruth[], released: { lines: string[]; problems: string[] }): string[] {
  const expected = truth.map(treeLine).sort();
  const actual = [...released.lines].sort();
  const missing = without(expected, actual).map((l) => `missing:    ${l}`);
  const extra = without(actual, expected).map((l) => `unexpected: ${l}`);
  return [...missing, ...extra, ...released.problems];
}

/** How many entries of each kind the scripts' truths held (restored units counted apart), to show what ran. */
export type Coverage = Record<string, number>;

/**
 * Runs `chains` chains of `scripts` tree scripts each (a first release of the
 * whole tree, then one release per script) from seed `seed` + chain, each
 * in a fresh root under `tmp`; returns the scripts that went wrong, how many
 * ran, and what their truths covered.
 */
export async function runTree(
  seed: number,
  chains: number,
  scripts: number,
  releaser: () => Releaser,
  tmp: string,
): Promise<{ failed: Outcome[]; ran: number; coverage: Coverage }> {
  const failed: Outcome[] = [];
  const coverage: Coverage = {};
  let ran = 0;
  mkdirSync(tmp, { recursive: true });
  for (let c = 0; c < chains; c++) {
    const random = rng(seed + c);
    const root = mkdtempSync(join(tmp, 'tree-'));
    try {
      const chain = new TreeChain(root, releaser());
      let tree = initialTree(random);
      const first = await chain.release(tree);
      if (first.lines.length || first.problems.length)
        failed.push({
          seed: seed + c,
          release: 1,
          lines: ['the first release'],
          problems: [...first.lines, ...first.problems],
        });
      for (let s = 0; s < scripts; s++) {
        const script = treeScript(tree, random);
        const released = await chain.release(script.next).catch((error: Error) => error);
        ran++;
        if (released instanceof Error) {
          // The release itself failed: the chain cannot go on.
          failed.push({
            seed: seed + c,
            release: s + 2,
            lines: script.lines,
            problems: [`failed: ${released.message}`],
          });
          break;
        }
        for (const t of script.truth) {
          const kind = t.type === 'added' && 'restored' in t && t.restored ? 'restored' : t.type;
          coverage[kind] = (coverage[kind] ?? 0) + 1;
        }
        const problems = differences(script.truth, released);
        if (problems.length) failed.push({ seed: seed + c, release: s + 2, lines: script.lines, problems });
        tree = script.next;
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
  return { failed, ran, coverage };
}
