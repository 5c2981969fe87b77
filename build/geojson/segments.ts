// Where a large FeatureCollection file can be cut so that two threads read
// its parts: the measurer's segments (build/measure/parallel.ts) and the
// geometry checker's halves (build/geometry/check-file.ts). A cut is only a
// guess; the reader checks, when the parts join, that it lay between features.
import { readSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';

/** One part of the file: bytes [from, to); the last one ends the file. */
export interface Segment {
  from: number;
  to: number;
  last: boolean;
}

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
