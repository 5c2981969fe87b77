// Two commands racing on one root (issue 27 item 4), for test/core/races.test.ts
// and its long twin: both start as real processes, the second after a
// random delay, and the outcome must be one a serial order gives. A run
// refused by the lock (exit 1, the one lock line) changed nothing, so the
// other's run alone is the reference; when neither was refused they ran one
// after the other, and the result is that of A then B or of B then A. The
// references are the same commands run in-process, one after the other, on
// copies of the same tree.
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { readLedger } from '../../build/release/ledger.ts';
import { BIN, CHILD_BOUND_MS, cli } from './cli.ts';

const FIXTURE = new URL('../fixtures/build/data', import.meta.url).pathname;
const ADM1 = 'data/earth/CHL/CHL_ADM1.geojson';

/** A race: two commands (arguments without --root), on the fixture as it is or with a unit renamed and nothing updated. */
export interface Race {
  name: string;
  edited: boolean; // CHL_ADM1 edited, its manifest and preview not yet updated: manifest and preview have work
  a: string[];
  b: string[];
}

/** The races: commands that write the same folders (manifests, previews, parts, the ledger, dist/). */
export const RACES: Race[] = [
  {
    name: 'manifest and preview of one level',
    edited: true,
    a: ['manifest', 'CHL'],
    b: ['preview', 'CHL/ADM1'],
  },
  {
    name: 'split and manifest of one country',
    edited: true,
    a: ['split', '--level', 'ADM2', 'CHL'],
    b: ['manifest', 'CHL'],
  },
  { name: 'the same release twice', edited: false, a: ['release', '1.0.0'], b: ['release', '1.0.0'] },
  { name: 'two releases', edited: false, a: ['release', '1.0.0'], b: ['release', '1.1.0', '--allow-empty'] },
  { name: 'build and release', edited: false, a: ['build'], b: ['release', '1.0.0'] },
];

/** Makes a root for `race` in a new folder under `tmp`. */
function raceRoot(race: Race, tmp: string): string {
  const root = mkdtempSync(join(tmp, 'race-'));
  cpSync(FIXTURE, join(root, 'data'), { recursive: true });
  if (race.edited) {
    const path = join(root, ADM1);
    writeFileSync(path, readFileSync(path, 'utf8').replace('"Antofagasta"', '"Antofagasta Norte"'));
  }
  return root;
}

/** Every file under `root` but its caches, by path, with its sha256: what a command leaves. */
function rootState(root: string): Record<string, string> {
  const state: Record<string, string> = {};
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    const path = relative(root, join(entry.parentPath, entry.name));
    if (path === '.cache' || path.startsWith('.cache/') || !entry.isFile()) continue;
    state[path] = createHash('sha256')
      .update(readFileSync(join(root, path)))
      .digest('hex');
  }
  return state;
}

/** How a run of both commands ended: each one's exit code (null: refused by the lock), and the root's state. */
export interface Outcome {
  codes: [number | null, number | null];
  state: Record<string, string>;
}

/** The outcomes a serial order gives: A alone, B alone, A then B, B then A (run in-process, on copies). */
export async function serialOutcomes(race: Race, tmp: string): Promise<Record<string, Outcome>> {
  const run = async (order: ('a' | 'b')[]): Promise<Outcome> => {
    const root = raceRoot(race, tmp);
    const codes: [number | null, number | null] = [null, null];
    for (const which of order) {
      const r = await cli(...race[which], '--root', root);
      codes[which === 'a' ? 0 : 1] = r.code;
    }
    return { codes, state: rootState(root) };
  };
  if (JSON.stringify(race.a) === JSON.stringify(race.b)) {
    const [a, ab] = [await run(['a']), await run(['a', 'b'])];
    return {
      a,
      b: { ...a, codes: [null, a.codes[0]] },
      ab,
      ba: { ...ab, codes: [ab.codes[1], ab.codes[0]] },
    };
  }
  return { a: await run(['a']), b: await run(['b']), ab: await run(['a', 'b']), ba: await run(['b', 'a']) };
}

/** Runs `args` as a child process on `root`; its exit code, or null when the lock refused it (exit 1, the one lock line). */
async function child(args: string[], root: string): Promise<{ code: number | null; stderr: string }> {
  try {
    await promisify(execFile)('node', [BIN, ...args, '--root', root], {
      timeout: CHILD_BOUND_MS,
      killSignal: 'SIGKILL',
      maxBuffer: 64 << 20,
    });
    return { code: 0, stderr: '' };
  } catch (error) {
    const e = error as { code: number | null; signal: string | null; stderr: string };
    if (e.signal) {
      throw new Error(`geoshelf ${args.join(' ')}: killed by ${e.signal}\n${e.stderr}`, { cause: error });
    }
    const locked = e.code === 1 && /^\S*\.cache\/geoshelf\/lock: held by [^\n]*\n$/.test(e.stderr);
    return { code: locked ? null : e.code, stderr: e.stderr };
  }
}

/**
 * Races `race` once on a new root under `tmp` (B started `delayMs` after A)
 * and returns what is wrong with the outcome, compared with `serial`: an
 * empty list when it is one of the serial outcomes.
 */
export async function runRace(
  race: Race,
  serial: Record<string, Outcome>,
  tmp: string,
  delayMs: number,
): Promise<string[]> {
  const root = raceRoot(race, tmp);
  const a = child(race.a, root);
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  const [ra, rb] = await Promise.all([a, child(race.b, root)]);
  const outcome: Outcome = { codes: [ra.code, rb.code], state: rootState(root) };
  const same = (o: Outcome) =>
    JSON.stringify(o.codes) === JSON.stringify(outcome.codes) &&
    JSON.stringify(o.state) === JSON.stringify(outcome.state);
  const failures: string[] = [];
  const allowed = ra.code === null ? [serial.b!] : rb.code === null ? [serial.a!] : [serial.ab!, serial.ba!];
  if (ra.code === null && rb.code === null) failures.push('both refused by the lock');
  else if (!allowed.some(same)) {
    const near = allowed[0]!;
    const differ = [...new Set([...Object.keys(near.state), ...Object.keys(outcome.state)])].filter(
      (path) => near.state[path] !== outcome.state[path],
    );
    failures.push(
      `exits ${JSON.stringify(outcome.codes)} (null: locked), not a serial outcome; files that differ: ${differ.slice(0, 5).join(', ')}\n${ra.stderr}${rb.stderr}`,
    );
  }
  const ledger = readLedger(root);
  if (ledger.problems.length) failures.push(`the ledger is refused: ${ledger.problems[0]!.message}`);
  return failures.map((f) => `${race.name} (B after ${delayMs} ms): ${f}`);
}
