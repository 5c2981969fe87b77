// `release` killed with SIGKILL at 20 or more moments spread over its run
// (long project): each time the ledger is exactly as it was, or exactly the
// new release complete, never anything between; and the next `release`
// records it, byte for byte what an uninterrupted run records. (The quick
// project checks the same rule in process: a release that fails while it
// writes, test/release/release.test.ts.)
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listFiles } from '../../build/core/files.ts';
import { BIN, CHILD_BOUND_MS, cli, copyDataTree, editLevel } from '../support/cli.ts';

const FIXTURE = new URL('../fixtures/build', import.meta.url).pathname;
const TMP = join(tmpdir(), `geoshelf-release-kill-${process.pid}`);
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

const KILLS = 20;

/** Returns every file under the ledger with its sha256. */
async function ledgerState(root: string): Promise<Record<string, string>> {
  const dir = join(root, 'data/releases');
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  for (const file of await listFiles(dir)) {
    out[file] = createHash('sha256')
      .update(readFileSync(join(dir, file)))
      .digest('hex');
  }
  return out;
}

/** Returns a fresh copy of the root `from` (its data/ and caches). */
function copyRoot(from: string): string {
  const to = mkdtempSync(join(TMP, 'kill-'));
  cpSync(from, to, { recursive: true });
  return to;
}

/** Runs `geoshelf release VERSION` as a child; kills it after `ms` (unless it ended); returns whether it was killed and how long it ran. */
async function releaseKilledAfter(
  root: string,
  version: string,
  ms: number,
): Promise<{ killed: boolean; ran: number }> {
  const t0 = performance.now();
  const child = spawn('node', [BIN, 'release', version, '--root', root], { stdio: 'ignore' });
  const bound = setTimeout(() => child.kill('SIGKILL'), CHILD_BOUND_MS);
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  const signal = await new Promise<NodeJS.Signals | null>((done) => child.on('exit', (_, s) => done(s)));
  clearTimeout(timer);
  clearTimeout(bound);
  return { killed: signal === 'SIGKILL', ran: performance.now() - t0 };
}

describe('release killed with SIGKILL at any moment', () => {
  it(`at ${KILLS} or more moments of its run: the ledger as it was or the release complete; the next run completes it`, async () => {
    const prepared = copyDataTree(FIXTURE, TMP);
    expect((await cli('release', '1.0.0', '--root', prepared)).code).toBe(0);
    await editLevel(
      prepared,
      'data/earth/CHL/CHL_ADM1.geojson',
      '"shapeName":"Antofagasta"',
      '"shapeName":"Antofagasta Norte"',
    );
    const before = await ledgerState(prepared);
    // An uninterrupted run: what "complete" is, and how long a run takes.
    const reference = copyRoot(prepared);
    const whole = await releaseKilledAfter(reference, '1.1.0', CHILD_BOUND_MS);
    expect(whole.killed).toBe(false);
    const after = await ledgerState(reference);
    expect(after).not.toEqual(before);

    let killed = 0;
    const seen = { before: 0, after: 0 };
    for (let k = 0; killed < KILLS && k < 3 * KILLS; k++) {
      const root = copyRoot(prepared);
      // Moments spread over the run (it starts a process first), the same in every run of the test.
      const ms = ((k % KILLS) + 0.5) * (whole.ran / KILLS) * (k < KILLS ? 1 : 0.7);
      const run = await releaseKilledAfter(root, '1.1.0', ms);
      const state = await ledgerState(root);
      const which = JSON.stringify(state) === JSON.stringify(before) ? 'before' : 'after';
      expect(state, `killed after ${ms.toFixed(0)} ms`).toEqual(which === 'before' ? before : after);
      if (run.killed) {
        killed++;
        seen[which]++;
        // The next release clears what the killed one left, and records exactly the release
        // (a run killed after it moved the release into place had finished it: 1.1.0 exists).
        if (which === 'before' && seen.before % 4 === 1) {
          expect((await cli('release', '1.1.0', '--root', root)).code).toBe(0);
          expect(await ledgerState(root)).toEqual(after);
        }
      }
      rmSync(root, { recursive: true, force: true });
    }
    expect(killed).toBeGreaterThanOrEqual(KILLS);
    expect(seen.before).toBeGreaterThan(0); // some kills came before the release was moved into place
  }, 900_000);

  it('killed as soon as it has started writing the release: the ledger as it was; the next run clears what it left', async () => {
    const root = copyDataTree(FIXTURE, TMP);
    expect((await cli('release', '1.0.0', '--root', root)).code).toBe(0);
    await editLevel(
      root,
      'data/earth/CHL/CHL_ADM1.geojson',
      '"shapeName":"Antofagasta"',
      '"shapeName":"Antofagasta Norte"',
    );
    const before = await ledgerState(root);
    const child = spawn('node', [BIN, 'release', '1.1.0', '--root', root], { stdio: 'ignore' });
    const bound = setTimeout(() => child.kill('SIGKILL'), CHILD_BOUND_MS);
    const exited = new Promise<NodeJS.Signals | null>((done) =>
      child.on('exit', (_, signal) => done(signal)),
    );
    // Killed as soon as its staging folder exists.
    const staging = join(root, '.cache/geoshelf/release-staging');
    let running = true;
    void exited.then(() => (running = false));
    while (running && !existsSync(staging)) await new Promise((r) => setTimeout(r, 2));
    child.kill('SIGKILL');
    const signal = await exited;
    clearTimeout(bound);
    expect(signal).toBe('SIGKILL'); // it was killed midway, not finished
    expect(await ledgerState(root)).toEqual(before);
    expect((await cli('release', '1.1.0', '--root', root)).code).toBe(0);
    expect(existsSync(staging)).toBe(false);
  });
});
