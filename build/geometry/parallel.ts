// Shares the geometry check of a large file with a worker thread: the file is
// cut at a line that starts a feature near its middle; the worker checks the
// second half while this thread checks the first. The worker's result joins
// only if this thread's scan ends its half between features (so the cut was
// one); otherwise this thread checks the rest itself. Results are always those
// of one sequential pass. (Used when a file's measurement comes from the
// cache; otherwise the check runs inside the measurer's own pass.)
import { compiledScript } from '../core/compiled.ts';
import { LazyWorker } from '../core/lazy-worker.ts';
import type { RangeResult } from './verdict.ts';

let nextId = 0;
const jobs = new Map<number, (result: RangeResult | undefined) => void>();

const worker = new LazyWorker<{ id: number; result?: RangeResult; error?: string }>(
  compiledScript('build/geometry/worker.ts'),
  (reply) => {
    const resolve = jobs.get(reply.id);
    if (!resolve) return;
    jobs.delete(reply.id);
    worker.done();
    resolve(reply.result);
  },
  () => {
    for (const resolve of jobs.values()) resolve(undefined);
    jobs.clear();
  },
);

/** Returns the worker's check of bytes [from, to) of `path` (undefined if it failed: check it here). */
export function checkInWorker(path: string, from: number, to: number): Promise<RangeResult | undefined> {
  const id = nextId++;
  const result = new Promise<RangeResult | undefined>((resolve) => jobs.set(id, resolve));
  if (!worker.post({ id, path, from, to })) {
    jobs.delete(id);
    return Promise.resolve(undefined);
  }
  return result;
}
