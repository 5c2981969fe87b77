// Two commands that write the same folders racing on one root (issue 27
// item 4), the long run: every race of test/support/races.ts 10 times, the
// second command started after a random delay (0–600 ms: together, or
// overlapping at any point of the first's run) drawn from a fresh seed; a
// failure prints the seed, RACE_SEED=… replays it. Each ends as a serial
// order leaves the root, and the ledger reads back.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../support/random.ts';
import { RACES, runRace, serialOutcomes } from '../support/races.ts';

const SEED = Number(process.env.RACE_SEED) || Math.floor(Math.random() * 2 ** 31);
const RUNS = 10; // 5 races × 10 = the 50 runs issue 27 asks of the long suite
const TMP = mkdtempSync(join(tmpdir(), 'geoshelf-races-long-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

describe(`two commands at once on one root, random delays (RACE_SEED=${SEED})`, () => {
  const random = seededRandom(SEED);
  for (const race of RACES) {
    const delays = Array.from({ length: RUNS }, () => Math.floor(random() * 600));
    it(`${race.name}: ${RUNS} runs`, async () => {
      const serial = await serialOutcomes(race, TMP);
      const failures: string[] = [];
      for (const delay of delays) failures.push(...(await runRace(race, serial, TMP, delay)));
      expect(failures).toEqual([]);
    }, 600_000);
  }
});
