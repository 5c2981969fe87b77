// Shares the geometry check of a large file with a worker thread: the file is
// cut at a line that starts a feature near its middle; the worker checks the
// second half while this thread checks the first. The worker's result joins
// only if this thread's scan ends its half between features (so the cut was
// one); otherwise this thread checks the rest itself. Results are always those
// of one sequential pass.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { RangeResult } from './check-file.ts';

let worker: Worker | undefined;
let nextId = 0;
const jobs = new Map<number, (result: RangeResult | undefined) => void>();

/** Returns the worker's check of bytes [from, to) of `path` (undefined if it failed: check it here). */
export function checkInWorker(path: string, from: number, to: number): Promise<RangeResult | undefined> {
  const w = geometryWorker();
  if (!w) return Promise.resolve(undefined);
  const id = nextId++;
  const result = new Promise<RangeResult | undefined>((resolve) => jobs.set(id, resolve));
  w.ref();
  w.postMessage({ id, path, from, to });
  return result;
}

/**
 * The worker's code: build/geometry/worker.ts and the checks it imports,
 * bundled by esbuild into one CommonJS script, as the measurer's worker is
 * (a worker thread does not inherit the TypeScript loader).
 */
function workerSource(): string {
  const esbuild = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
  const built = esbuild.buildSync({
    entryPoints: [fileURLToPath(new URL('./worker.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    logLevel: 'silent',
  });
  return built.outputFiles[0]!.text;
}

function geometryWorker(): Worker | undefined {
  if (worker) return worker;
  let started: Worker;
  try {
    started = new Worker(workerSource(), { eval: true });
  } catch {
    return undefined;
  }
  started.unref();
  started.on('message', (reply: { id: number; result?: RangeResult; error?: string }) => {
    const resolve = jobs.get(reply.id);
    if (!resolve) return;
    jobs.delete(reply.id);
    if (jobs.size === 0) started.unref();
    resolve(reply.result);
  });
  const stop = () => {
    if (worker === started) worker = undefined;
    for (const resolve of jobs.values()) resolve(undefined);
    jobs.clear();
  };
  started.on('error', stop);
  started.on('exit', stop);
  worker = started;
  return started;
}
