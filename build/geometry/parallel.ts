// Shares the geometry check of a large file with a worker thread: the file is
// cut at a line that starts a feature near its middle; the worker checks the
// second half while this thread checks the first. The worker's result joins
// only if this thread's scan ends its half between features (so the cut was
// one); otherwise this thread checks the rest itself. Results are always those
// of one sequential pass. (Used when a file's measurement comes from the
// cache; otherwise the check runs inside the measurer's own pass.)
import { compiledScript } from '../core/compiled.ts';
import { WorkerRequests } from '../core/worker-requests.ts';
import type { RangeResult } from './verdict.ts';

const worker = new WorkerRequests<{ path: string; from: number; to: number }, { result?: RangeResult }>(
  compiledScript('build/geometry/worker.ts'),
  'geometry',
);

/** Returns the worker's check of bytes [from, to) of `path` (undefined if it failed: check it here). */
export function checkInWorker(path: string, from: number, to: number): Promise<RangeResult | undefined> {
  // Never rejects: the caller may not wait for it (its own half can end mid-feature).
  return worker.request({ path, from, to }).then(
    (reply) => reply.result,
    () => undefined,
  );
}
