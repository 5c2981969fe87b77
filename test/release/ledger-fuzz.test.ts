// A ledger is input (issue 27, items 1, 2 and 7): the kinds of damage the
// issue names, each to a copy of a real small ledger, and a few random ones;
// readLedger, build, release and release-copies end in exit 0 or in ledger
// lines only, write nothing outside --out, and a refused release leaves the
// ledger as it was (test/support/ledger-fuzz.ts). The long project runs every
// kind with many seeds, and opens every page built in Chromium
// (test/e2e/ledger-fuzz.test.ts).
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseDirs, makeTemplate, mutate, runOnLedger } from '../support/ledger-fuzz.ts';

const TMP = join(tmpdir(), `geoshelf-ledger-fuzz-${process.pid}`);
let template: string;
beforeAll(async () => {
  template = await makeTemplate(TMP);
}, 120_000);
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

let n = 0;
/** Mutates a copy of the template and runs every command on it; returns what went wrong, named. */
async function fuzz(seed: number, name?: string): Promise<string[]> {
  const dirs = caseDirs(template, join(TMP, `case-${n++}`));
  const what = mutate(dirs.root, seed, name);
  const run = await runOnLedger(dirs);
  rmSync(dirs.top, { recursive: true, force: true });
  return run.failures.map((f) => `${what}: ${f}`);
}

/**
 * The damage issue 27 names, but for four that each need a full build of
 * their own (a pack index naming a sha256 its pack lacks, the pack the next
 * release reads cut, a stray folder or file, an extra release folder named
 * a script): the long project runs those, and every other kind of
 * test/support/ledger-mutations.ts, with four seeds (test/e2e/ledger-fuzz.test.ts).
 */
const NAMED = [
  'sequence as a string',
  'counts null',
  'release.json cut or emptied',
  'a chunk that is not a list of items',
  'a registry unit without its id',
  'a level whose files are null',
  'a published path that climbs out, with the bytes of a stored file',
  'a record chunk cut, emptied or lost',
  'data/releases a file',
];

describe('a hostile ledger: exit 0 or ledger lines, nothing written outside --out', () => {
  for (const name of NAMED) {
    it(name, async () => {
      expect(await fuzz(1, name)).toEqual([]);
    });
  }

  it('random mutations (two seeds)', async () => {
    expect([...(await fuzz(11)), ...(await fuzz(12))]).toEqual([]);
  });
});
