// The one bound on concurrent work (build/core/slots.ts).
import { describe, expect, it } from 'vitest';
import { ByteBudget, inOrder, runAll, Slots } from '../../build/core/slots.ts';

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

describe('inOrder', () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('hands results to use in the items’ order, whichever read ends first, with at most `width` reads at once', async () => {
    let running = 0;
    let most = 0;
    const used: number[] = [];
    await inOrder(
      [40, 5, 30, 1, 20, 2],
      3,
      async (ms) => {
        most = Math.max(most, ++running);
        await sleep(ms);
        running--;
        return ms;
      },
      (ms) => void used.push(ms),
    );
    expect(used).toEqual([40, 5, 30, 1, 20, 2]);
    expect(most).toBe(3);
  });

  it('a failed read is thrown once the started reads have settled; the items after it are not used', async () => {
    const used: number[] = [];
    const settled: number[] = [];
    const run = inOrder(
      [1, 2, 3, 4],
      2,
      async (n) => {
        await sleep(n === 2 ? 1 : 10);
        settled.push(n);
        if (n === 2) throw new Error('bad 2');
        return n;
      },
      (n) => void used.push(n),
    );
    await expect(run).rejects.toThrow('bad 2');
    expect(used).toEqual([1]);
    expect(settled.sort()).toEqual([1, 2, 3]);
  });
});

describe('ByteBudget', () => {
  it('a producer waits while the work it handed off passes the budget, and goes on as it drains, failures too', async () => {
    const budget = new ByteBudget(100);
    const settle: { ok: () => void; fail: () => void }[] = [];
    const work = () =>
      new Promise<void>((ok, fail) =>
        settle.push({ ok: () => ok(), fail: () => fail(new Error('write failed')) }),
      );
    const first = budget.track(60, work());
    await budget.room(); // 60 of 100: room
    const second = budget.track(60, work());
    second.catch(() => {});
    let roomy = false;
    const waiting = budget.room().then(() => (roomy = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(roomy).toBe(false); // 120 queued
    settle[1]!.fail(); // a failed write frees its bytes as a done one does
    await waiting;
    expect(roomy).toBe(true);
    settle[0]!.ok();
    await first;
  });
});
