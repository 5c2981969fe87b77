// The read loop of the GeoJSON reader: feeds a byte range of a file, chunk by
// chunk, to a FeatureCollectionScanner, through the one chunk buffer.
import type { Hash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { Utf8Stream } from '../core/utf8.ts';
import { ScanError } from './errors.ts';
import type { FeatureCollectionScanner } from './scanner.ts';

const CHUNK = 1 << 20; // large enough that per-read costs vanish

/** A byte range to scan: [from, to); with `toEnd`, `to` is the end of the file and the document must be complete there. */
export interface ScanRange {
  from: number;
  to: number;
  toEnd: boolean;
  chunkSize?: number; // tests use tiny chunks
  hash?: Hash; // sees every byte read
}

/** Returns a chunk buffer: `size` bytes (CHUNK by default), grown by `grow` when a token or a kept feature needs more. */
function chunkBuffer(size = CHUNK): Buffer {
  return Buffer.allocUnsafe(size);
}

/** Returns a buffer twice as large holding the first `used` bytes of `buf`. */
function grow(buf: Buffer, used: number): Buffer {
  const bigger = chunkBuffer(buf.length * 2);
  buf.copy(bigger, 0, 0, used);
  return bigger;
}

/**
 * Scans file bytes `range` and returns how many bytes were read and how many
 * at the end were left unconsumed (a token cut off at `to`; 0 at a clean
 * boundary). Bytes that are not UTF-8 are malformed (a ScanError at the first
 * one): what is published must be the source's bytes, so nothing is decoded
 * with replacements.
 */
export async function scanRange(
  file: FileHandle,
  scanner: FeatureCollectionScanner,
  range: ScanRange,
): Promise<{ bytesRead: number; carry: number }> {
  const chunks = scanChunks(file, scanner, range);
  for (;;) {
    const step = await chunks.next();
    if (step.done) return step.value;
  }
}

/**
 * scanRange, pausing after each chunk is scanned: what the scanner handed its
 * listener (views of the chunk buffer) is valid until the next step. Bytes
 * from `scanner.keepFrom` on stay in the buffer, so a listener is handed a
 * feature's (or its properties') bytes whole, however many chunks they span.
 */
export async function* scanChunks(
  file: FileHandle,
  scanner: FeatureCollectionScanner,
  range: ScanRange,
): AsyncGenerator<void, { bytesRead: number; carry: number }> {
  const { from, to, toEnd, hash } = range;
  let buf = chunkBuffer(range.chunkSize);
  let held = 0; // bytes at the start of buf kept from the last scan (unconsumed, or kept for the listener)
  let resume = 0; // where the next scan starts in buf: held bytes before it were consumed
  let base = from; // file offset of buf[0]
  let position = from; // next file offset to read
  const utf8 = new Utf8Stream(); // a range starts at a token, never inside a UTF-8 sequence
  for (;;) {
    if (held > buf.length / 2) buf = grow(buf, held); // a token longer than half a chunk, or a kept feature
    const want = toEnd ? buf.length - held : Math.min(buf.length - held, to - position);
    const { bytesRead } = want > 0 ? await file.read(buf, held, want, position) : { bytesRead: 0 };
    hash?.update(buf.subarray(held, held + bytesRead));
    const bad = bytesRead > 0 ? utf8.update(buf.subarray(held, held + bytesRead), position) : utf8.end();
    if (bad >= 0) throw new ScanError(bad, 'not UTF-8: a GeoJSON file must be UTF-8 text (RFC 8259)');
    const end = held + bytesRead;
    const last = bytesRead === 0;
    // A UTF-8 byte order mark is allowed (RFC 8259) and skipped.
    const start = position === 0 && hasBOM(buf, end) ? 3 : resume;
    position += bytesRead;
    const stop = scanner.scan(buf, start, end, base, last && toEnd);
    if (last) return { bytesRead: position - from, carry: end - stop };
    yield;
    const keep = scanner.keepFrom >= 0 ? Math.min(stop, scanner.keepFrom - base) : stop;
    buf.copy(buf, 0, keep, end);
    held = end - keep;
    resume = stop - keep;
    base += keep;
  }
}

function hasBOM(buf: Buffer, end: number): boolean {
  return end >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf;
}
