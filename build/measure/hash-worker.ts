// Runs on the worker thread started by build/measure/hash.ts: hashes the
// files it is sent, one at a time.
import { parentPort } from 'node:worker_threads';
import { sha256OfFile } from './sha256-file.ts';

parentPort!.on('message', ({ id, path }: { id: number; path: string }) => {
  try {
    parentPort!.postMessage({ id, ...sha256OfFile(path) });
  } catch (error) {
    parentPort!.postMessage({ id, error: String((error as Error).message ?? error) });
  }
});
