// Two commands that write the same folders, started at once on one root as
// real processes (issue 27 item 4): the lock lets one run and refuses the
// other in one line, or they run one after the other; either way the root
// ends as a serial order leaves it, and the ledger reads back
// (test/support/races.ts). Three races here, started together (long
// project: real processes take seconds; the lock's rules run in process in
// test/core/lock.test.ts); test/core/races-long.test.ts runs every race 12
// times with random delays.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { RACES, runRace, serialOutcomes } from '../support/races.ts';

const TMP = mkdtempSync(join(tmpdir(), 'geoshelf-races-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

describe('two commands at once on one root end as a serial order leaves it', () => {
  for (const race of RACES.slice(0, 3)) {
    it(
      race.name,
      async () => {
        const serial = await serialOutcomes(race, TMP);
        expect(await runRace(race, serial, TMP, 0)).toEqual([]);
      },
      120_000,
    );
  }
});
