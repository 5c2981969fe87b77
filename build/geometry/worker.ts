// Runs on a worker thread started by build/geometry/parallel.ts: checks the
// features in one byte range of a file (the second half of a large file) while
// the main thread checks the first.
import { parentPort } from 'node:worker_threads';
import { checkRange } from './check-file.ts';

interface Job {
  id: number;
  path: string;
  from: number;
  to: number;
}

parentPort!.on('message', (job: Job) => {
  void checkRange(job.path, job.from, job.to).then((result) =>
    parentPort!.postMessage({ id: job.id, result }),
  );
});
