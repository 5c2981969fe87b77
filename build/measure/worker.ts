// Runs on a worker thread started by build/measure/parallel.ts: hashes a
// large file, then scans its segments from the last back,
// claiming each before it starts, until it meets a segment the main thread
// has claimed. Hashing first: the main thread meanwhile scans from the start.
import { open, type FileHandle } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { scanRange } from '../geojson/read.ts';
import { FeatureCollectionScanner } from '../geojson/scanner.ts';
import type { Segment } from '../geojson/segments.ts';
import { GeometrySink } from '../geometry/feature-sink.ts';
import { FREE, WORKER, type SegmentResult } from './segment-claims.ts';
import { sha256OfFile, type Hashed } from './sha256-file.ts';

interface Job {
  id: number;
  path: string;
  segments: Segment[];
  claims: Int32Array;
  chunkSize?: number;
  geometry: boolean;
}

parentPort!.on('message', (job: Job) => {
  void scanSegments(job).finally(() => parentPort!.postMessage({ id: job.id, done: true }));
});

async function scanSegments({ id, path, segments, claims, chunkSize, geometry }: Job): Promise<void> {
  let hashed: Hashed | undefined;
  try {
    hashed = sha256OfFile(path);
  } catch {
    // no hash: the main thread has it made by the hash worker
  }
  parentPort!.postMessage({ id, hashed });
  let file: FileHandle | undefined;
  try {
    file = await open(path, 'r');
    for (let k = segments.length - 1; k > 0; k--) {
      if (Atomics.compareExchange(claims, k, FREE, WORKER) !== FREE) break; // the main thread got here first
      parentPort!.postMessage({ id, k, result: await scanSegment(file, segments[k], chunkSize, geometry) });
    }
  } catch {
    // Segments claimed and not reported get no result: the main thread scans them.
  } finally {
    await file?.close();
  }
}

async function scanSegment(
  file: FileHandle,
  segment: Segment,
  chunkSize: number | undefined,
  geometry: boolean,
): Promise<SegmentResult> {
  const sink = geometry ? new GeometrySink() : undefined;
  const scanner = new FeatureCollectionScanner(sink);
  scanner.startBetweenFeatures();
  try {
    const { from, to, last } = segment;
    const { bytesRead, carry } = await scanRange(file, scanner, { from, to, toEnd: last, chunkSize });
    if (!last && (carry !== 0 || !scanner.isBetweenFeatures())) return { ok: false };
    return {
      ok: true,
      bytesRead,
      features: scanner.features,
      box: [...scanner.coords.box],
      geometryTypes: [...scanner.geometryTypes],
      properties: [...scanner.properties],
      issues: sink?.issues,
      collectionBbox: scanner.bboxes.collection,
      bboxIssues: scanner.bboxes.issues,
      bboxUnchecked: scanner.bboxes.unchecked,
    };
  } catch {
    return { ok: false };
  }
}
