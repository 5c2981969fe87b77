// The model-based test of identification with a fresh seed each run (long
// project): 1,200 edit scripts. A failure prints its seed and script;
// MODEL_SEED=… replays it (the quick project runs a fixed seed,
// test/release/model/model.test.ts).
import { describe, expect, it } from 'vitest';
import { report, runModel } from './run.ts';

const SEED = Number(process.env.MODEL_SEED) || Math.floor(Math.random() * 2 ** 31);

describe(`model: random edit scripts from a fresh seed (MODEL_SEED=${SEED})`, () => {
  it('every feed is exactly the truth and agrees with the registry', async () => {
    const { failed, ran } = await runModel(SEED, 150, 8);
    expect(ran).toBe(1200);
    expect(report(failed)).toBe('');
  }, 120_000);
});
