// The model-based test of a release's feed at every grain: random scripts
// over a small catalogue of four countries (test/release/model/tree.ts) add,
// remove and restore countries and levels beside unit edits (rename, recode,
// relabel, move, scale, re-digitise, merge, split, remove, restore), or
// change nothing; each is written as a publisher's data tree and released
// through the release's identity step, and its feed compared with the
// script's truth. A fixed seed here; tree-model-fresh.test.ts (long project)
// draws a fresh one, or takes MODEL_SEED to replay a failure.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { report, type Outcome } from './run.ts';
import { identifyReleaser, runTree, type Coverage } from './tree-run.ts';

const SEED = 20_262;

describe('release feed: every country, level and unit change a script makes, and nothing else', () => {
  let outcome: { failed: Outcome[]; ran: number; coverage: Coverage };
  beforeAll(async () => {
    outcome = await runTree(SEED, 2, 30, identifyReleaser, join(tmpdir(), 'geoshelf-tree-model'));
  }, 300_000); // a bound for a hang only: under load 120 scripts have taken over a minute

  it('each feed is exactly its truth; IDs are kept, restored ones come back, merges and splits agree with the registry', () => {
    expect(outcome.ran).toBe(60);
    expect(report(outcome.failed)).toBe('');
  });

  it('the scripts reached every grain: countries and levels added, removed and restored, units of every kind', () => {
    for (const kind of [
      'country-added',
      'country-removed',
      'level-added',
      'level-removed',
      'restored',
      'merged',
      'split',
    ])
      expect(outcome.coverage[kind], kind).toBeGreaterThan(0);
  });
});
