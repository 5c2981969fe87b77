// The one bound on concurrent work (build/core/slots.ts).
import { describe, expect, it } from 'vitest';
import { runAll, Slots } from '../../build/core/slots.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('Slots', () => {
  it('never runs more than its size at once, and a heavy task takes all it asks for', async () => {
    const slots = new Slots(2);
    let busy = 0;
    let most = 0;
    const log: string[] = [];
    const task = (name: string, weight: number) =>
      slots.run(async () => {
        busy += weight;
        most = Math.max(most, busy);
        log.push(`start ${name}`);
        await tick();
        busy -= weight;
      }, weight);
    await Promise.all([task('a', 1), task('big', 2), task('b', 1), task('c', 1)]);
    expect(most).toBe(2);
    // First come, first served: b and c wait for the heavy task, which waits for a.
    expect(log).toEqual(['start a', 'start big', 'start b', 'start c']);
  });

  it('a weight above the size takes every slot instead of waiting forever', async () => {
    expect(await new Slots(2).run(async () => 'ran', 5)).toBe('ran');
  });
});

describe('runAll', () => {
  it('returns the results in the order of the items', async () => {
    expect(await runAll([30, 10, 20], 2, async (ms) => (await tick(), ms * 2))).toEqual([60, 20, 40]);
  });

  it('after a failure starts nothing new, and throws once the running tasks have settled', async () => {
    const started: number[] = [];
    let settled = 0;
    const run = runAll([1, 2, 3, 4, 5], 2, async (n) => {
      started.push(n);
      await tick();
      settled++;
      if (n === 1) throw new Error('one failed');
      return n;
    });
    await expect(run).rejects.toThrow('one failed');
    expect(started).toEqual([1, 2]);
    expect(settled).toBe(2);
  });
});
