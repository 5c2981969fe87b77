// sha256 of a file on a second thread, so measureGeoJSON takes as long as the
// slower of parsing and hashing rather than their sum (the machine has 2 cores).
// The worker reads the file itself (from the page cache, as the parser reads
// it too) rather than being sent chunks: copying chunks would cost the main
// thread. A file scanned in segments is hashed by the segment worker instead
// (parallel.ts), so one thread fewer boots.
import { compiledScript } from '../core/compiled.ts';
import { WorkerRequests } from '../core/worker-requests.ts';
import type { Hashed } from './sha256-file.ts';

const worker = new WorkerRequests<{ path: string }, Hashed>(
  compiledScript('build/measure/hash-worker.ts'),
  'sha256',
);

/** Returns the sha256 (hex) and byte count of the file at `path`, computed on the worker thread. */
export function hashFileInWorker(path: string): Promise<Hashed> {
  return worker.request({ path });
}
