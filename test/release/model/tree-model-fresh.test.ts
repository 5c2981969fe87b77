// The model-based test of a release's feed at every grain with a fresh seed
// each run (long project): 600 tree scripts through the identity step, and
// 40 through `release` itself (makeRelease, the ledger read back from disk).
// A failure prints its seed and script; MODEL_SEED=… replays it (the quick
// project runs a fixed seed, test/release/model/tree-model.test.ts).
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { report } from './run.ts';
import { fullReleaser, identifyReleaser, runTree } from './tree-run.ts';

const SEED = Number(process.env.MODEL_SEED) || Math.floor(Math.random() * 2 ** 31);
const TMP = join(tmpdir(), 'geoshelf-tree-model-fresh');

describe(`release feed from a fresh seed (MODEL_SEED=${SEED}): every change a script makes, and nothing else`, () => {
  it('600 scripts through the identity step: each feed is exactly its truth', async () => {
    const { failed, ran } = await runTree(SEED, 6, 100, identifyReleaser, TMP);
    expect(ran).toBe(600);
    expect(report(failed)).toBe('');
  }, 300_000);

  it('40 scripts through release itself: each feed, as the ledger on disk holds it, is exactly its truth', async () => {
    const { failed, ran } = await runTree(SEED + 1_000, 2, 20, fullReleaser, TMP);
    expect(ran).toBe(40);
    expect(report(failed)).toBe('');
  }, 300_000);
});
