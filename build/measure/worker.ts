// Runs on a worker thread started by build/measure/parallel.ts: hashes a
// large file, then scans its segments from the last back,
// claiming each before it starts, until it meets a segment the main thread
// has claimed. Hashing first: the main thread meanwhile scans from the start.
import { open, type FileHandle } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import type { FeatureIssue } from '../geometry/check-file.ts';
import { GeometrySink } from '../geometry/feature-sink.ts';
import { FREE, WORKER, type Segment } from './parallel.ts';
import { scanRange } from './read.ts';
import { FeatureCollectionScanner } from './scanner.ts';
import type { BboxIssue, Stated } from './scanner-bbox.ts';
import { sha256OfFile, type Hashed } from './sha256-file.ts';

/** The worker's scan of one segment. */
export interface SegmentResult {
  ok: boolean; // false: a problem, or it did not end between features (the main thread scans it again)
  bytesRead?: number;
  features?: number;
  box?: number[];
  geometryTypes?: [string, number][];
  properties?: string[];
  issues?: FeatureIssue[]; // with geometry checks: feature indices from the segment's start
  collectionBbox?: Stated; // the collection's bbox member, when it comes after "features"
  bboxIssues?: BboxIssue[]; // feature indices from the segment's start
  bboxUnchecked?: number; // bbox members whose extent was not kept
}

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
