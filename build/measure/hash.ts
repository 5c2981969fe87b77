// sha256 of a file on a second thread, so measureGeoJSON takes as long as the
// slower of parsing and hashing rather than their sum (the machine has 2 cores).
import { Worker } from 'node:worker_threads';

// The worker reads the file itself (from the page cache, as the parser reads
// it too) rather than being sent chunks: copying chunks would cost the main
// thread. Plain CommonJS, so it runs the same under tsx, vitest and node.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { openSync, readSync, closeSync } = require('node:fs');
const buf = Buffer.allocUnsafe(1 << 20);
parentPort.on('message', ({ id, path }) => {
  let fd;
  try {
    fd = openSync(path, 'r');
    const hash = createHash('sha256');
    let bytes = 0;
    let n;
    while ((n = readSync(fd, buf, 0, buf.length, null)) > 0) {
      hash.update(buf.subarray(0, n));
      bytes += n;
    }
    parentPort.postMessage({ id, sha256: hash.digest('hex'), bytes });
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
});
`;

interface Reply {
  id: number;
  sha256?: string;
  bytes?: number;
  error?: string;
}

let worker: Worker | undefined;
let nextId = 0;
const pending = new Map<
  number,
  { resolve: (r: { sha256: string; bytes: number }) => void; reject: (e: Error) => void }
>();

/** Returns the one hashing worker, started on first use; it keeps the process alive only while it has work. */
function hashWorker(): Worker {
  if (worker) return worker;
  const started = new Worker(WORKER_SOURCE, { eval: true });
  started.on('message', (reply: Reply) => {
    const job = pending.get(reply.id);
    if (!job) return;
    pending.delete(reply.id);
    if (pending.size === 0) started.unref();
    if (reply.error !== undefined) job.reject(new Error(reply.error));
    else job.resolve({ sha256: reply.sha256!, bytes: reply.bytes! });
  });
  started.on('error', (error) => fail(started, error));
  started.on('exit', (code) => fail(started, new Error(`sha256 worker exited with code ${code}`)));
  worker = started;
  return started;
}

function fail(which: Worker, error: Error): void {
  if (worker !== which) return;
  worker = undefined;
  for (const job of pending.values()) job.reject(error);
  pending.clear();
}

/** Returns the sha256 (hex) and byte count of the file at `path`, computed on the worker thread. */
export function hashFileInWorker(path: string): Promise<{ sha256: string; bytes: number }> {
  const w = hashWorker();
  const id = nextId++;
  const result = new Promise<{ sha256: string; bytes: number }>((resolve, reject) => {
    pending.set(id, { resolve, reject });
  });
  w.ref();
  w.postMessage({ id, path });
  return result;
}
