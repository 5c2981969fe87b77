// Measures a GeoJSON FeatureCollection file in one streaming pass: bytes,
// sha256, feature count, bbox, geometry types and property names — the
// numbers a manifest states (spec 2.2), recomputed rather than trusted.
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { UserError } from '../core/errors.ts';
import { problem } from '../core/problem.ts';
import type { BBox, FileStats, GeometryTypes } from '../core/shared/manifest.ts';
import { holdsExtent } from '../geojson/bbox-members.ts';
import { ScanError, inFile } from '../geojson/errors.ts';
import { scanRange } from '../geojson/read.ts';
import { FeatureCollectionScanner } from '../geojson/scanner.ts';
import { findSegments } from '../geojson/segments.ts';
import { GeometrySink } from '../geometry/feature-sink.ts';
import { moveIssue, type FileGeometry } from '../geometry/verdict.ts';
import { hashFileInWorker } from './hash.ts';
import type { Hashed } from './sha256-file.ts';
import { joinSegment, shareWithWorker } from './parallel.ts';

const WORKER_MIN_BYTES = 8 << 20; // hash on a second thread from this size on
const PARALLEL_MIN_BYTES = 64 << 20; // share the scan with a worker thread from this size on
const SEGMENT_BYTES = 32 << 20;
export const CHECKED_PARALLEL_MIN_BYTES = 16 << 20; // with geometry checks, a worker pays off sooner
const CHECKED_SEGMENT_BYTES = 8 << 20; // smaller segments: the two threads end closer together

/**
 * A bbox member of the file (RFC 7946 5) that does not hold the extent of the
 * coordinates it covers: the collection's ("/bbox"), a feature's
 * ("/features/3/bbox") or a geometry's ("/features/3/geometry/bbox").
 */
export interface BboxMismatch {
  pointer: string;
  stated: number[] | null; // null: not an array of 4 (or 6, with heights) numbers
  actual: BBox; // [west, south, east, north]: plain min/max, as measured (Infinity… when there are none)
}

/** A file's stats, and its bbox members that do not hold their extent. */
export interface Measurement {
  stats: FileStats;
  bboxes: BboxMismatch[];
}

/**
 * Returns the stats of one GeoJSON FeatureCollection file in one streaming
 * pass over its bytes (never the whole text as a string, so files beyond V8's
 * string limit work and memory stays flat). Throws GeoJSONError, with the
 * byte offset, on malformed input, and a UserError when the file can't be read.
 * The options are for tests: `chunkSize` (bytes per read) to cut tokens at a
 * chunk's end; `parallelMinBytes` and `segmentBytes` to share the scan of
 * small files with the worker thread; `hashWorkerMinBytes` to hash them there;
 * `joined` to learn which segments the worker's results came from.
 */
export async function measureGeoJSON(path: string, options: MeasureOptions = {}): Promise<FileStats> {
  return (await measureFile(path, options)).stats;
}

/** Returns what measureGeoJSON does, and the file's bbox members that are wrong, from the same pass. */
export function measureGeoJSONFile(path: string, options: MeasureOptions = {}): Promise<Measurement> {
  return measureFile(path, options);
}

/** The options of measureGeoJSON, for tests. */
export interface MeasureOptions {
  chunkSize?: number;
  parallelMinBytes?: number;
  segmentBytes?: number;
  hashWorkerMinBytes?: number;
  joined?: (segment: number) => void; // told of each segment whose worker's result joined (tests check it did)
}

/**
 * Returns the stats of `path`, as measureGeoJSON, and the geometry verdict on
 * every feature (build/geometry/), checked in the same pass: each position is
 * read once for both. A large file's scan is shared with the worker thread
 * from a smaller size than when measuring alone, the checks costing more per byte.
 */
export async function measureAndCheckGeoJSON(
  path: string,
  options: MeasureOptions = {},
): Promise<Measurement & { geometry: FileGeometry }> {
  const sink = new GeometrySink();
  const { stats, bboxes } = await measureFile(
    path,
    {
      parallelMinBytes: CHECKED_PARALLEL_MIN_BYTES,
      segmentBytes: CHECKED_SEGMENT_BYTES,
      ...options,
    },
    sink,
  );
  return { stats, bboxes, geometry: { checked: stats.features, issues: sink.issues } };
}

async function measureFile(path: string, options: MeasureOptions, sink?: GeometrySink): Promise<Measurement> {
  const file = await open(path, 'r').catch((error: NodeJS.ErrnoException) => {
    throw new UserError(
      problem(path, `cannot read: ${error.code === 'ENOENT' ? 'no such file' : error.message}`),
    );
  });
  try {
    const { size } = await file.stat();
    const { chunkSize } = options;
    // A large file is scanned in segments shared with a worker thread (if its
    // layout allows), and hashed on another thread. A small one is scanned
    // and hashed here: starting threads would cost more.
    const segments =
      size >= (options.parallelMinBytes ?? PARALLEL_MIN_BYTES)
        ? findSegments(file, size, options.segmentBytes ?? SEGMENT_BYTES)
        : [{ from: 0, to: size, last: true }];
    const shared =
      segments.length > 1 ? shareWithWorker(path, segments, chunkSize, sink !== undefined) : undefined;
    // The segment worker hashes the file before its segments (one thread
    // fewer to boot); if it can't, the hash worker does.
    const hashing = shared
      ? shared.hashed.then((hashed) => hashed ?? hashFileInWorker(path))
      : size >= (options.hashWorkerMinBytes ?? WORKER_MIN_BYTES) || segments.length > 1
        ? hashFileInWorker(path)
        : undefined;
    hashing?.catch(() => {}); // awaited below, unless parsing fails first
    const hash = hashing ? undefined : createHash('sha256');
    const scanner = new FeatureCollectionScanner(sink);
    let carry = 0; // bytes before the segment's start not yet consumed
    let bytes = 0; // file offset read up to
    for (const [k, segment] of segments.entries()) {
      if (shared && !shared.claim(k)) {
        const part = carry === 0 && scanner.isBetweenFeatures() ? await shared.result(k) : undefined;
        if (part?.ok) {
          // The worker's issues count features from its segment's start.
          for (const issue of part.issues ?? []) sink?.issues.push(moveIssue(issue, scanner.features));
          joinSegment(scanner, part);
          options.joined?.(k);
          bytes = segment.from + part.bytesRead!;
          continue;
        } // else scan it here after all
      }
      const from = segment.from - carry;
      const range = { from, to: segment.to, toEnd: segment.last, chunkSize, hash };
      const done = await scanRange(file, scanner, range);
      bytes = from + done.bytesRead;
      carry = done.carry;
    }
    const stats: FileStats = {
      bytes,
      sha256: hashing ? await hashedAlike(path, hashing, bytes) : hash!.digest('hex'),
      features: scanner.features,
      bbox: bboxOf(scanner),
      geometry_types: geometryTypesOf(scanner.geometryTypes),
      properties: [...scanner.properties].sort(byCodepoint),
    };
    if (scanner.bboxes.unchecked === 0) return { stats, bboxes: bboxMismatches(scanner, stats.bbox) };
    // A feature's bbox after its coordinates, in a file whose first feature had
    // none: their extent was not kept (build/geojson/bbox-members.ts). Rare; one more pass keeps every one.
    const again = new FeatureCollectionScanner(undefined, { trackAll: true });
    await scanRange(file, again, { from: 0, to: size, toEnd: true, chunkSize });
    return { stats, bboxes: bboxMismatches(again, stats.bbox) };
  } catch (error) {
    if (error instanceof ScanError) throw inFile(path, error);
    const code = (error as NodeJS.ErrnoException).code; // e.g. EISDIR: a folder was named
    if (typeof code === 'string' && code.startsWith('E'))
      throw new UserError(problem(path, `cannot read: ${code}`));
    throw error;
  } finally {
    await file.close();
  }
}

/** Returns the worker's sha256, once sure it hashed the same number of bytes as were parsed. */
async function hashedAlike(path: string, hashing: Promise<Hashed>, bytes: number) {
  const hashed = await hashing;
  if (hashed.bytes !== bytes)
    throw new UserError(problem(path, `the file changed while it was being measured`));
  return hashed.sha256;
}

/** Returns [west, south, east, north]; a collection without positions gives [Infinity, Infinity, -Infinity, -Infinity] like @turf/bbox. */
function bboxOf(scanner: FeatureCollectionScanner): BBox {
  const [minX, minY, maxX, maxY] = scanner.coords.box;
  return [minX, minY, maxX, maxY];
}

/** Returns the bbox members that do not hold their extent, the collection's first (`bbox`: the file's extent). */
function bboxMismatches(scanner: FeatureCollectionScanner, bbox: BBox): BboxMismatch[] {
  const { collection, issues } = scanner.bboxes;
  const found: BboxMismatch[] = [];
  if (collection !== undefined && !holdsExtent(collection, bbox)) {
    found.push({ pointer: '/bbox', stated: collection, actual: bbox });
  }
  for (const issue of issues) {
    const pointer = `/features/${issue.feature}${issue.geometry ? '/geometry' : ''}/bbox`;
    found.push({ pointer, stated: issue.stated, actual: issue.actual as BBox });
  }
  return found;
}

/** Returns the counts keyed in codepoint order ("MultiPolygon" before "Polygon"), zero counts left out. */
function geometryTypesOf(counts: Map<string, number>): GeometryTypes {
  const types: GeometryTypes = {};
  for (const type of ['MultiPolygon', 'Polygon'] as const) {
    const n = counts.get(type);
    if (n) types[type] = n;
  }
  return types;
}

/** Unicode codepoint order (as Python's sorted()), not locale order; differs from UTF-16 order only past U+FFFF. */
export function byCodepoint(a: string, b: string): number {
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(j)!;
    if (x !== y) return x - y;
    i += x > 0xffff ? 2 : 1;
    j += y > 0xffff ? 2 : 1;
  }
  return a.length - b.length;
}
