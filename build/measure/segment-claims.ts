// What the measurer's two threads share about a file's segments
// (build/measure/parallel.ts, build/measure/worker.ts): who claimed each
// segment, and what the worker found in one.
import type { BboxIssue, Stated } from '../geojson/bbox-members.ts';
import type { FeatureIssue } from '../geometry/verdict.ts';

// Per segment, in a shared Int32Array: not started, or claimed by this thread or the worker.
export const FREE = 0;
export const MAIN = 1;
export const WORKER = 2;

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
