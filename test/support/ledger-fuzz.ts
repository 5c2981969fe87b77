// A hostile ledger, for the fuzz tests (test/release/ledger-fuzz.test.ts,
// test/e2e/ledger-fuzz.test.ts): a real small ledger (two releases of
// test/fixtures/build, and an edit not yet released), then one of many
// mutations of its records, as a pull request could bring them. Then every
// command that reads a ledger runs on it (readLedger, build, release,
// release-copies), and `runOnLedger` checks what each must do: exit 0, or
// refuse with ledger lines only (rule ledger, naming a file of the ledger);
// never an unexpected error, never a write outside --out (nor, but for the
// caches and a recorded release, inside the root).
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { buildCatalogue } from '../../build/build.ts';
import { UserError } from '../../build/core/errors.ts';
import type { Problem } from '../../build/core/problem.ts';
import { readLedger } from '../../build/release/ledger.ts';
import { makeRelease } from '../../build/release/release.ts';
import { cli } from './cli.ts';
import { ADM1, NEXT, VERSIONS } from './ledger-mutations.ts';

export { mutate, MUTATIONS } from './ledger-mutations.ts';

const FIXTURE = new URL('../fixtures/build', import.meta.url).pathname;
const LEDGER = 'data/releases';

/**
 * Makes, once, the root every case copies: two releases of the build
 * fixture (1.0.0, and 1.1.0 with a unit renamed) without tiles (faster;
 * the ledger's shape is the same), then a second rename not yet released,
 * so that `release NEXT` has something to record and reads the previous
 * release's level back from the ledger.
 */
export async function makeTemplate(dir: string): Promise<string> {
  const root = join(dir, 'template');
  mkdirSync(root, { recursive: true });
  cpSync(join(FIXTURE, 'data'), join(root, 'data'), { recursive: true });
  const release = async (version: string) => {
    const made = await makeRelease(root, version, { tiles: false });
    if (made.status !== 'recorded') throw new Error(`release ${version}: ${JSON.stringify(made.problems)}`);
  };
  await release(VERSIONS[0]!);
  await rename(root, '"shapeName":"Antofagasta"', '"shapeName":"Antofagasta Norte"');
  await release(VERSIONS[1]!);
  await rename(root, '"shapeName":"Antofagasta Norte"', '"shapeName":"Antofagasta Sur"');
  return root;
}

/** Renames a unit of CHL_ADM1 and brings its manifest and preview up to date. */
async function rename(root: string, from: string, to: string): Promise<void> {
  const path = join(root, ADM1);
  writeFileSync(path, readFileSync(path, 'utf8').replace(from, to));
  for (const args of [
    ['manifest', 'CHL'],
    ['preview', 'CHL/ADM1'],
  ] as const) {
    const r = await cli(args[0], '--root', root, args[1]);
    if (r.code !== 0) throw new Error(`geoshelf ${args.join(' ')}: ${r.stderr}`);
  }
}

/** A case's folders: the root and the build's output deep inside `top`, which holds sentinels at every level. */
export interface CaseDirs {
  top: string;
  root: string;
  out: string;
}

/** Depth of the root under `top`: a path climbing this many folders from dist/ still lands inside `top`. */
const DEPTH = 8;

/** Copies the template into a new case folder (the root DEPTH folders below `top`, sentinels beside each). */
export function caseDirs(template: string, top: string): CaseDirs {
  let dir = top;
  for (let i = 0; i < DEPTH; i++) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'sentinel.txt'), `level ${i}\n`);
    dir = join(dir, `w${i}`);
  }
  mkdirSync(dir, { recursive: true });
  const root = join(dir, 'root');
  cpSync(template, root, { recursive: true });
  return { top, root, out: join(dir, 'out') };
}

/** How one command ended: exit 0, or refused with problems; a bug is thrown on as it is. */
interface Ended {
  command: string;
  ok: boolean;
  problems: Problem[];
}

/** Every file under `dir` (not following links) with its sha256 or link target, but the paths `skip` accepts. */
function snapshot(dir: string, skip: (path: string) => boolean): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      const rel = relative(dir, path);
      if (skip(rel)) continue;
      if (entry.isDirectory()) {
        files.set(`${rel}/`, 'folder');
        walk(path);
      } else if (entry.isSymbolicLink()) files.set(rel, `link ${readlinkSync(path)}`);
      else files.set(rel, createHash('sha256').update(readFileSync(path)).digest('hex'));
    }
  };
  walk(dir);
  return files;
}

/** What the commands did on a mutated ledger, and what they did wrong (nothing, when all is well). */
export interface CaseRun {
  ended: Ended[];
  failures: string[];
  built: boolean; // build exited 0: `out` holds the site
}

/** Returns the rules `problems` of a refused command break: errors that are ledger lines only, each said once. */
function judged(command: string, root: string, ok: boolean, problems: Problem[]): string[] {
  if (ok) return [];
  const errors = problems.filter((p) => p.severity === 'error');
  const failures = errors.length === 0 ? [`${command} refused without an error`] : [];
  const places = new Set<string>();
  for (const p of errors) {
    const file = p.file.startsWith(`${root}/`) ? p.file.slice(root.length + 1) : p.file; // the CLI's, from the current folder
    const line = `${file}: ${p.pointer ?? ''}: ${p.message}`;
    if (p.rule !== 'ledger') failures.push(`${command}: rule ${p.rule}, not ledger: ${line}`);
    if (!file.startsWith(`${LEDGER}`)) failures.push(`${command}: names no ledger file: ${line}`);
    if (/\n/.test(p.message)) failures.push(`${command}: more than one line: ${line}`);
    if (places.has(`${p.file}#${p.pointer ?? ''}`)) failures.push(`${command}: said twice: ${line}`);
    places.add(`${p.file}#${p.pointer ?? ''}`);
  }
  return failures;
}

/** Watches the files of a case but its caches and --out: what a command changed is a failure. */
class Watch {
  private before: Map<string, string>;
  private readonly skip: (rel: string) => boolean;

  constructor(
    private readonly dirs: CaseDirs,
    private readonly failures: string[],
  ) {
    const rootRel = relative(dirs.top, dirs.root);
    const outRel = relative(dirs.top, dirs.out);
    this.skip = (rel) =>
      rel === `${rootRel}/.cache` ||
      rel.startsWith(`${rootRel}/.cache/`) ||
      rel === outRel ||
      rel.startsWith(`${outRel}/`) ||
      rel.startsWith(`${outRel.slice(0, -'out'.length)}.out-`);
    this.before = snapshot(dirs.top, this.skip);
  }

  /** Takes what is there now as what may be (a release was recorded). */
  accept(): void {
    this.before = snapshot(this.dirs.top, this.skip);
  }

  /** Notes a failure when anything changed since the last look. */
  unchanged(command: string): void {
    const after = snapshot(this.dirs.top, this.skip);
    const changed = [...new Set([...this.before.keys(), ...after.keys()])].filter(
      (path) => this.before.get(path) !== after.get(path),
    );
    if (changed.length) this.failures.push(`${command} changed ${changed.slice(0, 5).join(', ')}`);
    this.before = after;
  }
}

/** Runs release-copies as the CLI (its problems come as JSON); a printed path outside the release is a failure. */
async function releaseCopies(
  root: string,
  failures: string[],
): Promise<{ ok: boolean; problems: Problem[] }> {
  const r = await cli('release-copies', '--root', root, '--json');
  if (r.code === 0) {
    if (/victim|passwd/.test(r.stdout)) failures.push('release-copies printed a path outside the release');
    return { ok: true, problems: [] };
  }
  if (r.code !== 1) failures.push(`release-copies: exit ${r.code}: ${r.stderr}`);
  try {
    return { ok: false, problems: JSON.parse(r.stdout) as Problem[] };
  } catch {
    failures.push(`release-copies: exit ${r.code}, no JSON problems: ${r.stdout}${r.stderr}`);
    return { ok: false, problems: [] };
  }
}

/**
 * Runs readLedger, build (into `dirs.out`), release NEXT and release-copies
 * on the root of `dirs`, in-process, and returns how each ended and every
 * rule one broke: a run ends in exit 0 or with errors that are ledger lines
 * only (rule ledger, one per file of the ledger, one line each), never an
 * unexpected error; nothing is written outside --out but the root's caches
 * (and a release that was recorded); a refused build writes no --out.
 */
export async function runOnLedger(dirs: CaseDirs): Promise<CaseRun> {
  const { root, out } = dirs;
  const run: CaseRun = { ended: [], failures: [], built: false };
  const watch = new Watch(dirs, run.failures);
  /** Runs a stage as the CLI would: a UserError is its problems, anything else a bug. */
  const stage = async (command: string, fn: () => Promise<{ ok: boolean; problems: Problem[] }>) => {
    let ended: { ok: boolean; problems: Problem[] };
    try {
      ended = await fn();
    } catch (error) {
      if (!(error instanceof UserError)) {
        run.failures.push(`${command}: unexpected error: ${(error as Error).stack ?? String(error)}`);
        return false;
      }
      ended = { ok: false, problems: error.problems };
    }
    run.ended.push({ command, ...ended });
    run.failures.push(...judged(command, root, ended.ok, ended.problems));
    return ended.ok;
  };

  await stage('readLedger', async () => {
    const ledger = readLedger(root);
    return { ok: ledger.problems.length === 0, problems: [...ledger.warnings, ...ledger.problems] };
  });
  watch.unchanged('readLedger');
  run.built = await stage('build', async () => {
    const built = await buildCatalogue({ root, out, tiles: false });
    return built.ok ? { ok: true, problems: built.warnings } : built;
  });
  if (!run.built && existsSync(out)) run.failures.push('build refused, yet wrote --out');
  watch.unchanged('build');
  const recorded = await stage('release', async () => {
    const made = await makeRelease(root, NEXT, { tiles: false });
    return { ok: made.status !== 'refused', problems: made.problems };
  });
  if (recorded) {
    const after = readLedger(root);
    if (after.problems.length)
      run.failures.push(`release recorded a ledger readLedger refuses: ${after.problems[0]!.message}`);
    watch.accept();
  }
  watch.unchanged('release');
  await stage('release-copies', () => releaseCopies(root, run.failures));
  watch.unchanged('release-copies');
  return run;
}
