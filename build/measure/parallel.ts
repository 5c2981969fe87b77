// Shares the scan of a large file between this thread and a worker thread.
// The file is cut into segments at feature boundaries (boundary files hold one
// feature per line). This thread scans segments from the first on; the worker
// scans them from the last back; each segment is claimed by one of the two
// (an atomic flag), so they meet wherever their speeds take them. A worker's
// segment joins the result only if this thread's scan reaches it in the very
// state the worker assumed (inside "features", before a feature); otherwise,
// or if the worker found a problem there, this thread scans it again, so the
// results and error messages are always those of one sequential pass.
import { readSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { compiledScript } from '../core/compiled.ts';
import { LazyWorker } from '../core/lazy-worker.ts';
import type { FeatureCollectionScanner } from './scanner.ts';
import type { Hashed } from './sha256-file.ts';
import type { SegmentResult } from './worker.ts';

/** One part of the file: bytes [from, to); the last one ends the file. */
export interface Segment {
  from: number;
  to: number;
  last: boolean;
}

export const FREE = 0;
export const MAIN = 1;
export const WORKER = 2;

/**
 * Returns the file cut into segments of about `segmentBytes` where a feature
 * seems to start (one segment if none is found): at a line that starts with
 * '{' (a newline is never inside a JSON string, so it lies between tokens),
 * or, where no newline is near (a file on one line, or one feature per line
 * of features larger than the window), at a `{"type":"Feature"` that follows
 * a ',' or '['. Neither is sure to be between features (the second may even
 * lie inside a string): that is checked when the segments join, and a
 * segment whose start was not is scanned again in sequence. The reads are
 * synchronous (tens of 64 KiB reads, about a millisecond): asynchronous
 * ones each waited behind a chunk of the other files being scanned, and
 * the file's scan started up to a second late.
 */
export function findSegments(file: FileHandle, size: number, segmentBytes: number): Segment[] {
  const cuts = [0];
  const window = Buffer.allocUnsafe(WINDOW);
  for (let at = segmentBytes; at < size - segmentBytes / 2; at += segmentBytes) {
    const cut = findCut(file.fd, window, at, Math.min(at + Math.min(segmentBytes, SEARCH_BYTES), size));
    if (cut > cuts[cuts.length - 1]!) cuts.push(cut);
  }
  return cuts.map((from, k) => ({ from, to: cuts[k + 1] ?? size, last: k === cuts.length - 1 }));
}

const WINDOW = 64 << 10;
const SEARCH_BYTES = 4 << 20; // how far past a segment's nominal start a feature's opening is looked for
const OVERLAP = 64; // windows overlap by this much, so a feature's opening cut by one lies whole in the next

/** Returns where a feature seems to start from `at` on (before `limit`), or -1 (see findSegments). */
function findCut(fd: number, window: Buffer, at: number, limit: number): number {
  let bytesRead = readSync(fd, window, 0, window.length, at);
  let i = window.subarray(0, bytesRead).indexOf(0x0a);
  if (i >= 0) {
    while (i < bytesRead && isSpace(window[i]!)) i++;
    return i < bytesRead && window[i] === 0x7b ? at + i : -1;
  }
  for (;;) {
    const found = featureOpening(window.subarray(0, bytesRead));
    if (found >= 0) return at + found;
    if (bytesRead < window.length || at + bytesRead >= limit) return -1;
    at += bytesRead - OVERLAP;
    bytesRead = readSync(fd, window, 0, window.length, at);
  }
}

const FEATURE = Buffer.from('"Feature"');
const TYPE = Buffer.from('"type"');

/** Returns the index of the '{' of the first `[,[] {"type": "Feature"` in `bytes` (spaces allowed between), or -1. */
function featureOpening(bytes: Buffer): number {
  for (let at = bytes.indexOf(FEATURE); at >= 0; at = bytes.indexOf(FEATURE, at + 1)) {
    let j = back(bytes, at - 1);
    if (bytes[j] !== 0x3a) continue; // ':'
    j = back(bytes, j - 1) - TYPE.length + 1;
    if (j < 0 || !bytes.subarray(j, j + TYPE.length).equals(TYPE)) continue;
    const brace = back(bytes, j - 1);
    if (bytes[brace] !== 0x7b) continue; // '{'
    const before = back(bytes, brace - 1);
    if (bytes[before] === 0x2c || bytes[before] === 0x5b) return brace; // ',' or '['
  }
  return -1;
}

/** Returns the index of the last byte at or before j that is not a space (-1 if none). */
function back(bytes: Buffer, j: number): number {
  while (j >= 0 && isSpace(bytes[j]!)) j--;
  return j;
}

function isSpace(c: number): boolean {
  return c === 0x0a || c === 0x0d || c === 0x20 || c === 0x09;
}

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
 * Starts the segment worker ahead of its first job (it takes ~0.1–0.3 s to
 * boot), for a caller that knows a large file is coming: the worker is then
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
