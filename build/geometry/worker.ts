// Runs on a worker thread started by build/geometry/parallel.ts: checks the
// features in one byte range of a file (the second half of a large file) while
// the main thread checks the first.
import { parentPort } from 'node:worker_threads';
import { checkRange, type RangeResult } from './check-file.ts';

interface Job {
  id: number;
  path: string;
  from: number;
  to: number;
}

parentPort!.on('message', (job: Job) => {
  checkRange(job.path, { from: job.from, to: job.to, midFeatures: true }).then(
    (result: RangeResult) => parentPort!.postMessage({ id: job.id, result }),
    (error: unknown) =>
      parentPort!.postMessage({ id: job.id, error: String((error as Error)?.message ?? error) }),
  );
});
