// The one way the stages bound how much work runs at once (files measured,
// conversions, files written): a number of slots, taken in turn.

/**
 * At most `size` slots busy at a time. A task takes `weight` of them (1 by
 * default, at most `size`); tasks start in the order they asked, and a
 * finishing task hands its slots straight to the ones waiting.
 */
export class Slots {
  private free: number;
  private readonly waiting: { weight: number; start: () => void }[] = [];

  constructor(readonly size: number) {
    this.free = size;
  }

  /** Runs `task` once `weight` slots are free, and frees them when it settles. */
  async run<T>(task: () => Promise<T>, weight = 1): Promise<T> {
    const w = Math.min(this.size, Math.max(1, weight));
    if (this.waiting.length > 0 || this.free < w) {
      await new Promise<void>((start) => this.waiting.push({ weight: w, start }));
    } else {
      this.free -= w;
    }
    try {
      return await task();
    } finally {
      this.free += w;
      // First come, first served: a large task is never overtaken by smaller ones.
      while (this.waiting.length > 0 && this.waiting[0]!.weight <= this.free) {
        const next = this.waiting.shift()!;
        this.free -= next.weight;
        next.start();
      }
    }
  }
}

/**
 * Runs `task` on every item with at most `slots` busy (an item takes
 * `weight(item)`), and returns the results in order. After a failure no new
 * item starts; the first failure is thrown once every started task has
 * settled, so nothing writes after the caller cleans up.
 */
export async function runAll<T, R>(
  items: readonly T[],
  slots: number,
  task: (item: T) => Promise<R>,
  weight: (item: T) => number = () => 1,
): Promise<R[]> {
  const pool = new Slots(slots);
  let failure: { error: unknown } | undefined;
  const results = items.map((item) =>
    pool.run(async () => {
      if (failure) return undefined;
      try {
        return await task(item);
      } catch (error) {
        failure ??= { error }; // before this task's slots go to the next one
        return undefined;
      }
    }, weight(item)),
  );
  const settled = await Promise.all(results);
  if (failure) throw failure.error;
  return settled as R[];
}

/**
 * Runs `read` on `items` with at most `width` at once, and hands each result
 * to `use` in the items' order, one at a time: what `use` decides (which of
 * two paths holding the same bytes stores them) does not depend on which read
 * ends first, and at most `width` results wait in memory. The first failure
 * is thrown once every started read has settled.
 */
export async function inOrder<T, R>(
  items: readonly T[],
  width: number,
  read: (item: T) => Promise<R>,
  use: (result: R, item: T) => Promise<void> | void,
): Promise<void> {
  const pending: (Promise<R> | undefined)[] = [];
  let next = 0;
  const start = () => {
    if (next >= items.length) return;
    const i = next++;
    const p = read(items[i]!);
    p.catch(() => {}); // awaited below, in order; a failure is not "unhandled" meanwhile
    pending[i] = p;
  };
  for (let k = 0; k < width; k++) start();
  try {
    for (let i = 0; i < items.length; i++) {
      const result = await pending[i]!;
      pending[i] = undefined;
      start();
      await use(result, items[i]!);
    }
  } catch (error) {
    await Promise.allSettled(pending.filter((p) => p !== undefined));
    throw error;
  }
}

/**
 * Work handed off and not yet done, counted in bytes: a producer that hands
 * off faster than the work drains (contents read faster than they are
 * compressed) waits in `room()` until what is queued is within `budget`.
 */
export class ByteBudget {
  private queued = 0;
  private waiters: (() => void)[] = [];

  constructor(readonly budget: number) {}

  /** Counts `bytes` as queued until `work` settles (done or failed), and returns `work`. */
  track<T>(bytes: number, work: Promise<T>): Promise<T> {
    this.queued += bytes;
    const done = () => {
      this.queued -= bytes;
      for (const wake of this.waiters.splice(0)) wake();
    };
    work.then(done, done);
    return work;
  }

  /** Resolves once what is queued is within the budget. */
  async room(): Promise<void> {
    while (this.queued > this.budget) await new Promise<void>((wake) => this.waiters.push(wake));
  }
}
