// Runs on a worker thread started by build/measure-parallel.ts: scans a large
// file from a feature boundary to its end while the main thread scans the
// part before it.
import { open } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { scanRange } from './measure-read.ts';
import { FeatureCollectionScanner } from './measure-scanner.ts';

/** What the worker sends back for one file part. */
export interface TailResult {
  id: number;
  ok: boolean; // false: a problem in this part (the main thread scans it again for the exact message)
  bytesRead?: number;
  features?: number;
  box?: number[];
  geometryTypes?: [string, number][];
  properties?: string[];
}

parentPort!.on(
  'message',
  ({ id, path, from, chunkSize }: { id: number; path: string; from: number; chunkSize?: number }) => {
    scanTail(path, from, chunkSize).then(
      (result) => parentPort!.postMessage({ id, ...result }),
      () => parentPort!.postMessage({ id, ok: false }),
    );
  },
);

async function scanTail(path: string, from: number, chunkSize?: number): Promise<Omit<TailResult, 'id'>> {
  const file = await open(path, 'r');
  try {
    const scanner = new FeatureCollectionScanner();
    scanner.startBetweenFeatures();
    const { bytesRead } = await scanRange(file, scanner, { from, to: Infinity, toEnd: true, chunkSize });
    return {
      ok: true,
      bytesRead,
      features: scanner.features,
      box: [...scanner.coords.box],
      geometryTypes: [...scanner.geometryTypes],
      properties: [...scanner.properties],
    };
  } finally {
    await file.close();
  }
}

parentPort!.postMessage({ ready: true });
