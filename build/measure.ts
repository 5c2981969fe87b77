// Measures a GeoJSON FeatureCollection file in one streaming pass: bytes,
// sha256, feature count, bbox, geometry types and property names — the
// numbers a manifest states (spec 2.2), recomputed rather than trusted.
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { UserError } from '../src/cli/command.ts';
import type { BBox, FileStats, GeometryTypes } from './manifest-types.ts';
import { hashFileInWorker } from './measure-hash.ts';
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

// Read size: large enough that per-read overhead vanishes, small enough to stay in cache.
const CHUNK = 1 << 20;
const WORKER_MIN_BYTES = 8 << 20;

/**
 * Returns the stats of one GeoJSON FeatureCollection file in one streaming
 * pass over its bytes (never the whole text as a string, so files beyond V8's
 * string limit work and memory stays flat). Throws GeoJSONError, with the
 * byte offset, on malformed input, and a UserError when the file can't be read.
 * `chunkSize` (bytes per read) is for tests of tokens cut by a chunk's end.
 */
export async function measureGeoJSON(path: string, options: { chunkSize?: number } = {}): Promise<FileStats> {
  const file = await open(path, 'r').catch((error: NodeJS.ErrnoException) => {
    throw new UserError(`${path}: cannot read: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
  });
  try {
    // Large files are hashed on a second thread while this one parses; for
    // small ones starting that thread would cost more than hashing here.
    const { size } = await file.stat();
    const hashing = size >= WORKER_MIN_BYTES ? hashFileInWorker(path) : undefined;
    hashing?.catch(() => {}); // awaited below, unless parsing fails first
    const hash = hashing ? undefined : createHash('sha256');
    const scanner = new FeatureCollectionScanner();
    let buf: Buffer = Buffer.allocUnsafe(options.chunkSize ?? CHUNK); // tests use tiny chunks
    let carry = 0; // bytes at the start of buf left unconsumed by the last scan
    let base = 0; // file offset of buf[0]
    let bytes = 0;
    for (;;) {
      if (carry > buf.length / 2) buf = grow(buf, carry); // one token longer than half a chunk
      const { bytesRead } = await file.read(buf, carry, buf.length - carry, bytes);
      hash?.update(buf.subarray(carry, carry + bytesRead));
      const eof = bytesRead === 0;
      const end = carry + bytesRead;
      const start = bytes === 0 && hasBOM(buf, end) ? 3 : 0; // a UTF-8 byte order mark is allowed and skipped
      bytes += bytesRead;
      const stop = scanner.scan(buf, start, end, base, eof);
      if (eof) break;
      buf.copy(buf, 0, stop, end);
      carry = end - stop;
      base += stop;
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

function hasBOM(buf: Buffer, end: number): boolean {
  return end >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf;
}

function grow(buf: Buffer, carry: number): Buffer {
  const bigger = Buffer.allocUnsafe(buf.length * 2);
  buf.copy(bigger, 0, 0, carry);
  return bigger;
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
