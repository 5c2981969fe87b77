// The fast path of the coordinates scan: runs of positions written the way
// boundary files write them, "[-70.062408,12.41767],[-70.05,12.4],…". Nearly
// every byte of a large file goes through readPositionRun, so it is one flat
// loop with the number parsing written out; anything unusual (spaces, a third
// number, an exponent, more than 15 digits, the end of the chunk) stops it and
// the general scan in measure-coordinates.ts takes over at that position.
import { POW10 } from './tokens.ts';

/**
 * Reads positions "[x,y]" from buf[i] (a '[') on, as long as they follow one
 * another as "[x,y],[x,y]", widening box = [minX, minY, maxX, maxY]. Returns
 * the index after the last position read: i when none could be read.
 *
 * Each number is -?digits(.digits)? with at most 15 digits in all: those
 * digits form an integer m below 2^53, so m / 10^k (both exact doubles) is
 * one correctly rounded division — the double the text denotes, as JSON.parse
 * gives. Leading zeros ("01") and empty parts ("1.") are left to the general scan.
 */
export function readPositionRun(buf: Uint8Array, i: number, end: number, box: Float64Array): number {
  let minX = box[0];
  let minY = box[1];
  let maxX = box[2];
  let maxY = box[3];
  let done = i; // after the last whole position
  let j = i + 1; // after '['
  let x = 0;
  for (let axis = 0; ;) {
    const negative = buf[j] === 0x2d;
    if (negative) j++;
    const first = j;
    let m = 0;
    let d: number;
    while (j < end && (d = buf[j] - 0x30) >>> 0 <= 9) {
      m = m * 10 + d;
      j++;
    }
    const intDigits = j - first;
    if (intDigits === 0 || j >= end || (intDigits > 1 && buf[first] === 0x30)) break;
    let fractionDigits = 0;
    if (buf[j] === 0x2e) {
      const dot = ++j;
      while (j < end && (d = buf[j] - 0x30) >>> 0 <= 9) {
        m = m * 10 + d;
        j++;
      }
      fractionDigits = j - dot;
      if (fractionDigits === 0 || j >= end) break;
    }
    if (intDigits + fractionDigits > 15) break;
    let v = fractionDigits === 0 ? m : m / POW10[fractionDigits];
    if (negative) v = -v;
    if (axis === 0) {
      if (buf[j] !== 0x2c) break; // x is followed by ','
      x = v;
      axis = 1;
      j++;
      continue;
    }
    if (buf[j] !== 0x5d) break; // y is followed by ']'
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (v < minY) minY = v;
    if (v > maxY) maxY = v;
    done = ++j;
    // Go on only if the next position follows at once: ",[".
    if (j + 2 >= end || buf[j] !== 0x2c || buf[j + 1] !== 0x5b) break;
    j += 2;
    axis = 0;
  }
  box[0] = minX;
  box[1] = minY;
  box[2] = maxX;
  box[3] = maxY;
  return done;
}

/** Where positions are kept for the geometry checks (build/geometry/feature-sink.ts). */
export interface PositionSink {
  xy: Float64Array; // [x0, y0, x1, y1, …]
  positions: number;
  x: number; // the position being read by the general scan
  y: number;
  /** Forgets the positions of the last geometry: a new "coordinates" array starts. */
  reset(): void;
  /** Makes room in xy for `n` more positions. */
  reserve(n: number): void;
  /** Keeps (x, y) as the next position. */
  push(): void;
  endRing(): void;
  endPolygon(): void;
  /**
   * The geometry of feature `feature` (its index in the scan) is complete and
   * of `type`, e.g. "Polygon"; `box` is the bbox of every position scanned so far.
   */
  endGeometry(type: string, feature: number, box: Float64Array): void;
}

/**
 * readPositionRun that also keeps each position in `sink`. A copy rather than
 * an option of readPositionRun, so the measurer's own loop (geometry checks
 * off) stays exactly as fast as it was.
 */
export function readPositionRunInto(
  buf: Uint8Array,
  i: number,
  end: number,
  box: Float64Array,
  sink: PositionSink,
): number {
  let xy = sink.xy;
  let n = sink.positions;
  let room = (xy.length >> 1) - n; // positions that fit before xy must grow
  let minX = box[0];
  let minY = box[1];
  let maxX = box[2];
  let maxY = box[3];
  let done = i;
  let j = i + 1;
  let x = 0;
  for (let axis = 0; ;) {
    const negative = buf[j] === 0x2d;
    if (negative) j++;
    const first = j;
    let m = 0;
    let d: number;
    while (j < end && (d = buf[j] - 0x30) >>> 0 <= 9) {
      m = m * 10 + d;
      j++;
    }
    const intDigits = j - first;
    if (intDigits === 0 || j >= end || (intDigits > 1 && buf[first] === 0x30)) break;
    let fractionDigits = 0;
    if (buf[j] === 0x2e) {
      const dot = ++j;
      while (j < end && (d = buf[j] - 0x30) >>> 0 <= 9) {
        m = m * 10 + d;
        j++;
      }
      fractionDigits = j - dot;
      if (fractionDigits === 0 || j >= end) break;
    }
    if (intDigits + fractionDigits > 15) break;
    let v = fractionDigits === 0 ? m : m / POW10[fractionDigits];
    if (negative) v = -v;
    if (axis === 0) {
      if (buf[j] !== 0x2c) break;
      x = v;
      axis = 1;
      j++;
      continue;
    }
    if (buf[j] !== 0x5d) break;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (v < minY) minY = v;
    if (v > maxY) maxY = v;
    if (room === 0) {
      sink.positions = n;
      sink.reserve(n); // doubling: a feature's positions are copied a few times at most
      xy = sink.xy;
      room = (xy.length >> 1) - n;
    }
    xy[2 * n] = x;
    xy[2 * n + 1] = v;
    n++;
    room--;
    done = ++j;
    if (j + 2 >= end || buf[j] !== 0x2c || buf[j + 1] !== 0x5b) break;
    j += 2;
    axis = 0;
  }
  sink.positions = n;
  box[0] = minX;
  box[1] = minY;
  box[2] = maxX;
  box[3] = maxY;
  return done;
}
