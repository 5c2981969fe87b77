// The model-based test of identification: random edit scripts over a small
// real-shaped level (test/release/model/script.ts), each released in turn,
// and the feed compared with the script's truth, entry by entry. A fixed
// seed here; test/release/model/model-fresh.test.ts (long project) draws a
// fresh one, or takes MODEL_SEED to replay a failure.
import { beforeAll, describe, expect, it } from 'vitest';
import { report, runModel, type Outcome } from './run.ts';

const SEED = 20_261;

describe('model: random edit scripts released one after another', () => {
  let outcome: { failed: Outcome[]; ran: number };
  beforeAll(async () => {
    outcome = await runModel(SEED, 60, 6);
  });

  it('at least 300 scripts; every feed is exactly the truth (printed with its seed and script otherwise)', () => {
    expect(outcome.ran).toBeGreaterThanOrEqual(300);
    const wrong = outcome.failed.filter((f) => f.problems.some((p) => /^(missing|unexpected):/.test(p)));
    expect(report(wrong)).toBe('');
  });

  it('every merged and split entry agrees with the registry’s supersedes and superseded_by, both ways', () => {
    const wrong = outcome.failed.filter((f) => f.problems.some((p) => !/^(missing|unexpected):/.test(p)));
    expect(report(wrong)).toBe('');
  });
});
