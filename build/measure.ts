// Measures a GeoJSON FeatureCollection file in one streaming pass: bytes,
// sha256, feature count, bbox, geometry types and property names — the
// numbers a manifest states (spec 2.2), recomputed rather than trusted.
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { UserError } from '../src/cli/command.ts';
import type { BBox, FileStats, GeometryTypes } from './manifest-types.ts';
import { hashFileInWorker } from './measure-hash.ts';
import { findSplit, joinTail, scanTailInWorker } from './measure-parallel.ts';
import { scanRange } from './measure-read.ts';
import { FeatureCollectionScanner } from './measure-scanner.ts';
import { ScanError } from './measure-tokens.ts';

/** A malformed GeoJSON file; message is "PATH: byte OFFSET: reason" (one line). */
export class GeoJSONError extends UserError {
  override name = 'GeoJSONError';
  constructor(
    readonly path: string,
    readonly offset: number,
    readonly reason: string,
  ) {
    super(`${path}: byte ${offset}: ${reason}`);
  }
}

const WORKER_MIN_BYTES = 8 << 20; // hash on a second thread from this size on
const PARALLEL_MIN_BYTES = 64 << 20; // scan in two parts from this size on

/**
 * Returns the stats of one GeoJSON FeatureCollection file in one streaming
 * pass over its bytes (never the whole text as a string, so files beyond V8's
 * string limit work and memory stays flat). Throws GeoJSONError, with the
 * byte offset, on malformed input, and a UserError when the file can't be read.
 * The options are for tests: `chunkSize` (bytes per read) to cut tokens at a
 * chunk's end, `parallelMinBytes` to split small files across two threads.
 */
export async function measureGeoJSON(
  path: string,
  options: { chunkSize?: number; parallelMinBytes?: number } = {},
): Promise<FileStats> {
  const file = await open(path, 'r').catch((error: NodeJS.ErrnoException) => {
    throw new UserError(`${path}: cannot read: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
  });
  try {
    const { size } = await file.stat();
    const { chunkSize } = options;
    // A large file's second half is scanned on a worker thread (if its layout
    // allows), and it is hashed on another, while this thread scans the first half.
    const split = size >= (options.parallelMinBytes ?? PARALLEL_MIN_BYTES) ? await findSplit(file, size) : -1;
    const tail = split > 0 ? scanTailInWorker(path, split, chunkSize) : undefined;
    // Small files are hashed here: starting a thread would cost more.
    const hashing = size >= WORKER_MIN_BYTES || split > 0 ? hashFileInWorker(path) : undefined;
    hashing?.catch(() => {}); // awaited below, unless parsing fails first
    const hash = hashing ? undefined : createHash('sha256');
    const scanner = new FeatureCollectionScanner();
    const head = await scanRange(file, scanner, { from: 0, to: split, toEnd: split <= 0, chunkSize, hash });
    let bytes = head.bytesRead;
    if (tail) {
      const joined = head.carry === 0 && scanner.isBetweenFeatures() ? await tail : undefined;
      if (joined?.ok) {
        joinTail(scanner, joined);
        bytes += joined.bytesRead!;
      } else {
        const from = split - head.carry; // the worker's part, scanned here after all
        bytes =
          from + (await scanRange(file, scanner, { from, to: Infinity, toEnd: true, chunkSize })).bytesRead;
      }
    }
    return {
      bytes,
      sha256: hashing ? await hashedAlike(path, hashing, bytes) : hash!.digest('hex'),
      features: scanner.features,
      bbox: bboxOf(scanner),
      geometry_types: geometryTypesOf(scanner.geometryTypes),
      properties: [...scanner.properties].sort(byCodepoint),
    };
  } catch (error) {
    if (error instanceof ScanError) throw new GeoJSONError(path, error.offset, error.reason);
    throw error;
  } finally {
    await file.close();
  }
}

/** Returns the worker's sha256, once sure it hashed the same number of bytes as were parsed. */
async function hashedAlike(path: string, hashing: Promise<{ sha256: string; bytes: number }>, bytes: number) {
  const hashed = await hashing;
  if (hashed.bytes !== bytes) throw new UserError(`${path}: the file changed while it was being measured`);
  return hashed.sha256;
}

/** Returns [west, south, east, north]; a collection without positions gives [Infinity, Infinity, -Infinity, -Infinity] like @turf/bbox. */
function bboxOf(scanner: FeatureCollectionScanner): BBox {
  const [minX, minY, maxX, maxY] = scanner.coords.box;
  return [minX, minY, maxX, maxY];
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
