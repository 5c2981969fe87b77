// A level edited while `release` runs (issue 27 item 6): a file that changes
// under the command is one file-changed problem naming it, and nothing is
// recorded (the red team saw exit 70, "… is not among the files release 1.2.0
// publishes", in 12 of 20 runs). The edit is made from release's own progress
// hook at each stage after validate measured the file: no sleep.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../../build/core/errors.ts';
import type { Problem } from '../../build/core/problem.ts';
import { makeRelease } from '../../build/release/release.ts';
import { copyDataTree } from '../support/cli.ts';

const FIXTURE = new URL('../fixtures/build', import.meta.url).pathname;
const TMP = join(tmpdir(), `geoshelf-edit-release-${process.pid}`);
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

const ADM1 = 'data/earth/CHL/CHL_ADM1.geojson';

/** Releases 1.0.0 of a fresh copy, editing ADM1 when `stage` starts; returns the problems it ended with. */
async function releaseEditedAt(stage: string): Promise<{ root: string; problems: Problem[] }> {
  const root = copyDataTree(FIXTURE, TMP);
  const path = join(root, ADM1);
  const edited = readFileSync(path, 'utf8').replace('"Antofagasta"', '"Antofagasta Norte"');
  let edits = 0;
  try {
    const outcome = await makeRelease(root, '1.0.0', {
      geometry: false,
      tiles: false,
      onProgress: (s) => {
        if (s !== stage || edits++) return;
        writeFileSync(path, edited);
      },
    });
    expect(edits, `the stage "${stage}" came`).toBe(1);
    expect(outcome.status).toBe('refused');
    return { root, problems: outcome.problems };
  } catch (error) {
    if (!(error instanceof UserError)) throw error; // a bug: "unexpected error"
    return { root, problems: error.problems };
  }
}

describe('a level edited during release', () => {
  for (const stage of ['identifying units', 'storing the release']) {
    it(`at "${stage}" → one file-changed problem naming it; no release recorded, no staging left`, async () => {
      const { root, problems } = await releaseEditedAt(stage);
      const changed = problems.filter((p) => p.rule === 'file-changed');
      expect(changed.map((p) => p.file)).toEqual([ADM1]);
      expect(problems.filter((p) => p.severity === 'error')).toEqual(changed);
      expect(existsSync(join(root, 'data/releases/1.0.0'))).toBe(false);
      const staging = join(root, '.cache/geoshelf/release-staging');
      expect(existsSync(staging) ? readdirSync(staging) : []).toEqual([]);
    });
  }
});
