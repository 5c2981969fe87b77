// The read loop shared by the main thread and the tail worker: feeds a byte
// range of a file, chunk by chunk, to a FeatureCollectionScanner.
import type { Hash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { Utf8Stream } from '../core/utf8.ts';
import type { FeatureCollectionScanner } from './scanner.ts';
import { ScanError } from './tokens.ts';

export const CHUNK = 1 << 20; // large enough that per-read costs vanish

/**
 * Scans file bytes [from, to) and returns how many bytes were read and how
 * many at the end were left unconsumed (a token cut off at `to`; 0 at a clean
 * boundary). With `toEnd`, `to` is the end of the file and the document must
 * be complete there. `hash`, if given, sees every byte read. Bytes that are
 * not UTF-8 are malformed (a ScanError at the first one): what is published
 * must be the source's bytes, so nothing is decoded with replacements.
 */
export async function scanRange(
  file: FileHandle,
  scanner: FeatureCollectionScanner,
  range: { from: number; to: number; toEnd: boolean; chunkSize?: number; hash?: Hash },
): Promise<{ bytesRead: number; carry: number }> {
  const { from, to, toEnd, hash } = range;
  let buf: Buffer = Buffer.allocUnsafe(range.chunkSize ?? CHUNK); // tests use tiny chunks
  let carry = 0; // bytes at the start of buf left unconsumed by the last scan
  let base = from; // file offset of buf[0]
  let position = from; // next file offset to read
  const utf8 = new Utf8Stream(); // a range starts at a token, never inside a UTF-8 sequence
  for (;;) {
    if (carry > buf.length / 2) buf = grow(buf, carry); // one token longer than half a chunk
    const want = toEnd ? buf.length - carry : Math.min(buf.length - carry, to - position);
    const { bytesRead } = want > 0 ? await file.read(buf, carry, want, position) : { bytesRead: 0 };
    hash?.update(buf.subarray(carry, carry + bytesRead));
    const bad = bytesRead > 0 ? utf8.update(buf.subarray(carry, carry + bytesRead), position) : utf8.end();
    if (bad >= 0) throw new ScanError(bad, 'not UTF-8: a GeoJSON file must be UTF-8 text (RFC 8259)');
    const end = carry + bytesRead;
    const last = bytesRead === 0;
    // A UTF-8 byte order mark is allowed (RFC 8259) and skipped.
    const start = position === 0 && hasBOM(buf, end) ? 3 : 0;
    position += bytesRead;
    const stop = scanner.scan(buf, start, end, base, last && toEnd);
    if (last) return { bytesRead: position - from, carry: end - stop };
    buf.copy(buf, 0, stop, end);
    carry = end - stop;
    base += stop;
  }
}

function hasBOM(buf: Buffer, end: number): boolean {
  return end >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf;
}

function grow(buf: Buffer, carry: number): Buffer {
  const bigger = Buffer.allocUnsafe(buf.length * 2);
  buf.copy(bigger, 0, 0, carry);
  return bigger;
}
