// Splits the parse of a large file across the machine's two cores: a worker
// thread scans from a feature boundary near the middle to the end while the
// main thread scans the start. The split is a guess: the parts are joined only
// if the main thread's scan, on reaching the boundary, stands exactly where the
// worker assumed it would (inside "features", before a feature); otherwise, or
// if the worker found a problem, the main thread scans the rest itself, so
// results and error messages are always those of one sequential pass.
import type { FileHandle } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FeatureCollectionScanner } from './measure-scanner.ts';
import type { TailResult } from './measure-worker.ts';

/**
 * Returns the offset of a feature's '{' that starts a line near the middle
 * of the file (boundary files hold one feature per line), or -1 if there is
 * none close by. A newline is never inside a JSON string, so it lies between
 * tokens; whether it lies between features is checked when the parts join.
 */
export async function findSplit(file: FileHandle, size: number): Promise<number> {
  const window = Buffer.allocUnsafe(Math.min(1 << 20, size));
  const from = Math.floor(size / 2);
  const { bytesRead } = await file.read(window, 0, window.length, from);
  let i = window.subarray(0, bytesRead).indexOf(0x0a);
  if (i < 0) return -1;
  while (
    i < bytesRead &&
    (window[i] === 0x0a || window[i] === 0x0d || window[i] === 0x20 || window[i] === 0x09)
  )
    i++;
  return i < bytesRead && window[i] === 0x7b ? from + i : -1;
}

/** Adds the worker's part to the main thread's scanner. */
export function joinTail(scanner: FeatureCollectionScanner, tail: TailResult): void {
  scanner.features += tail.features!;
  const box = scanner.coords.box;
  const [minX, minY, maxX, maxY] = tail.box!;
  // Strict comparisons, as a sequential pass makes them: of equal values the first stays.
  if (minX < box[0]) box[0] = minX;
  if (minY < box[1]) box[1] = minY;
  if (maxX > box[2]) box[2] = maxX;
  if (maxY > box[3]) box[3] = maxY;
  for (const [type, n] of tail.geometryTypes!) {
    scanner.geometryTypes.set(type, (scanner.geometryTypes.get(type) ?? 0) + n);
  }
  for (const name of tail.properties!) scanner.properties.add(name);
}

let worker: Worker | undefined;
let nextId = 0;
const pending = new Map<number, (result: TailResult | undefined) => void>();

/**
 * Returns the worker's scan of bytes [from, end of file) of `path`, or
 * undefined if the worker could not run (the caller then scans it itself).
 */
export function scanTailInWorker(
  path: string,
  from: number,
  chunkSize?: number,
): Promise<TailResult | undefined> {
  const w = tailWorker();
  if (!w) return Promise.resolve(undefined);
  const id = nextId++;
  const result = new Promise<TailResult | undefined>((resolve) => pending.set(id, resolve));
  w.ref();
  w.postMessage({ id, path, from, chunkSize });
  return result;
}

/** Returns the worker, started on first use; it keeps the process alive only while it has work. */
function tailWorker(): Worker | undefined {
  if (worker) return worker;
  let started: Worker;
  try {
    // The worker's module is TypeScript, like the rest: the worker registers
    // tsx (which runs geoshelf everywhere: bin/geoshelf.js, vitest, benches) first.
    const tsx = pathToFileURL(
      createRequire(import.meta.url)
        .resolve('tsx/esm/api')
        .replace(/\.cjs$/, '.mjs'),
    ).href;
    const module = new URL('./measure-worker.ts', import.meta.url).href;
    started = new Worker(
      `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(module)}); });`,
      { eval: true },
    );
  } catch {
    return undefined;
  }
  started.unref();
  started.on('message', (reply: TailResult | { ready: true }) => {
    if (!('id' in reply)) return;
    const resolve = pending.get(reply.id);
    pending.delete(reply.id);
    if (pending.size === 0) started.unref();
    resolve?.(reply);
  });
  const stop = () => {
    if (worker === started) worker = undefined;
    for (const resolve of pending.values()) resolve(undefined);
    pending.clear();
  };
  started.on('error', stop);
  started.on('exit', stop);
  worker = started;
  return started;
}
