// sha256 of a file on a second thread, so measureGeoJSON takes as long as the
// slower of parsing and hashing rather than their sum (the machine has 2 cores).
// The worker reads the file itself (from the page cache, as the parser reads
// it too) rather than being sent chunks: copying chunks would cost the main
// thread. A file scanned in segments is hashed by the segment worker instead
// (parallel.ts), so one thread fewer boots.
import { compiledScript } from '../core/compiled.ts';
import { LazyWorker } from '../core/lazy-worker.ts';
import type { Hashed } from './sha256-file.ts';

interface Reply {
  id: number;
  sha256?: string;
  bytes?: number;
  error?: string;
}

let nextId = 0;
const pending = new Map<number, { resolve: (r: Hashed) => void; reject: (e: Error) => void }>();

const worker = new LazyWorker<Reply>(
  compiledScript('build/measure/hash-worker.ts'),
  (reply) => {
    const job = pending.get(reply.id);
    if (!job) return;
    pending.delete(reply.id);
    worker.done();
    if (reply.error !== undefined) job.reject(new Error(reply.error));
    else job.resolve({ sha256: reply.sha256!, bytes: reply.bytes! });
  },
  (error) => {
    for (const job of pending.values()) job.reject(error);
    pending.clear();
  },
);

/** Returns the sha256 (hex) and byte count of the file at `path`, computed on the worker thread. */
export function hashFileInWorker(path: string): Promise<Hashed> {
  const id = nextId++;
  const result = new Promise<Hashed>((resolve, reject) => {
    pending.set(id, { resolve, reject });
  });
  if (!worker.post({ id, path })) {
    pending.delete(id);
    return Promise.reject(new Error('cannot start the sha256 worker thread'));
  }
  return result;
}
