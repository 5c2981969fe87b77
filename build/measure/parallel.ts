// Shares the scan of a large file between this thread and a worker thread.
// The file is cut into segments at feature boundaries (boundary files hold one
// feature per line). This thread scans segments from the first on; the worker
// scans them from the last back; each segment is claimed by one of the two
// (an atomic flag), so they meet wherever their speeds take them. A worker's
// segment joins the result only if this thread's scan reaches it in the very
// state the worker assumed (inside "features", before a feature); otherwise,
// or if the worker found a problem there, this thread scans it again, so the
// results and error messages are always those of one sequential pass.
import { compiledScript } from '../core/compiled.ts';
import { LazyWorker } from '../core/lazy-worker.ts';
import type { FeatureCollectionScanner } from '../geojson/scanner.ts';
import type { Segment } from '../geojson/segments.ts';
import { FREE, MAIN, WORKER, type SegmentResult } from './segment-claims.ts';
import type { Hashed } from './sha256-file.ts';

/** Adds a worker's segment to this thread's scanner. */
export function joinSegment(scanner: FeatureCollectionScanner, part: SegmentResult): void {
  // The worker counts features from its segment's start.
  for (const issue of part.bboxIssues ?? []) {
    scanner.bboxes.issues.push({ ...issue, feature: issue.feature + scanner.features });
  }
  if (part.collectionBbox !== undefined) scanner.bboxes.collection = part.collectionBbox;
  scanner.bboxes.unchecked += part.bboxUnchecked ?? 0;
  scanner.features += part.features!;
  const box = scanner.coords.box;
  const [minX, minY, maxX, maxY] = part.box!;
  // Strict comparisons, as one sequential pass makes them: of equal values the first stays.
  if (minX < box[0]) box[0] = minX;
  if (minY < box[1]) box[1] = minY;
  if (maxX > box[2]) box[2] = maxX;
  if (maxY > box[3]) box[3] = maxY;
  for (const [type, n] of part.geometryTypes!) {
    scanner.geometryTypes.set(type, (scanner.geometryTypes.get(type) ?? 0) + n);
  }
  for (const name of part.properties!) scanner.properties.add(name);
}

/** The worker's side of one file: its results by segment, as they come, and its sha256. */
export class WorkerSegments {
  readonly claims: Int32Array; // per segment: FREE, MAIN or WORKER (shared with the worker)
  /** The file's sha256, hashed by the worker before its segments (undefined if it could not). */
  readonly hashed: Promise<Hashed | undefined>;
  private readonly results = new Map<number, SegmentResult | undefined>();
  private readonly waiting = new Map<number, (result: SegmentResult | undefined) => void>();
  private hashDone: ((hashed: Hashed | undefined) => void) | undefined;

  constructor(segments: Segment[]) {
    this.claims = new Int32Array(new SharedArrayBuffer(4 * segments.length));
    this.hashed = new Promise((resolve) => (this.hashDone = resolve));
  }

  deliverHash(hashed: Hashed | undefined): void {
    this.hashDone?.(hashed);
    this.hashDone = undefined;
  }

  /** Claims segment k for this thread; false if the worker has it. */
  claim(k: number): boolean {
    return Atomics.compareExchange(this.claims, k, FREE, MAIN) === FREE;
  }

  /** Returns the worker's result for segment k (undefined if the worker failed). */
  result(k: number): Promise<SegmentResult | undefined> {
    if (this.results.has(k)) return Promise.resolve(this.results.get(k));
    return new Promise((resolve) => this.waiting.set(k, resolve));
  }

  deliver(k: number, result: SegmentResult | undefined): void {
    const resolve = this.waiting.get(k);
    if (resolve) {
      this.waiting.delete(k);
      resolve(result);
    } else {
      this.results.set(k, result);
    }
  }

  /** The worker stopped: every segment it claimed and did not report has no result, nor the hash. */
  abandon(): void {
    this.deliverHash(undefined);
    for (let k = 0; k < this.claims.length; k++)
      if (this.claims[k] === WORKER && !this.results.has(k)) this.deliver(k, undefined);
  }
}

let nextId = 0;
const jobs = new Map<number, WorkerSegments>();

interface Reply {
  id: number;
  k?: number;
  result?: SegmentResult;
  hashed?: Hashed; // a reply to the hash, with `k` absent
  done?: true;
}

const worker = new LazyWorker<Reply>(
  compiledScript('build/measure/worker.ts'),
  (reply) => {
    const job = jobs.get(reply.id);
    if (!job) return;
    if (reply.k === undefined && !reply.done) {
      job.deliverHash(reply.hashed);
    } else if (reply.done) {
      jobs.delete(reply.id);
      job.abandon();
      worker.done();
    } else {
      job.deliver(reply.k!, reply.result);
    }
  },
  () => {
    for (const job of jobs.values()) job.abandon();
    jobs.clear();
  },
);

/**
 * Starts the segment worker ahead of its first job (a thread's boot is not
 * free), for a caller that knows a large file is coming: the worker is then
 * ready to take its share of the scan from the start.
 */
export function warmSegmentWorker(): void {
  worker.warm();
}

/**
 * Asks the worker to hash `path` and then scan `segments` of it from the last
 * back (checking their geometry too with `geometry`), and returns the handle
 * to claim segments and collect its results; undefined if the worker can't
 * run (this thread then scans everything).
 */
export function shareWithWorker(
  path: string,
  segments: Segment[],
  chunkSize?: number,
  geometry = false,
): WorkerSegments | undefined {
  const job = new WorkerSegments(segments);
  const id = nextId++;
  if (!worker.post({ id, path, segments, claims: job.claims, chunkSize, geometry })) return undefined;
  jobs.set(id, job);
  return job;
}
