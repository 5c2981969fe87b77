// The hot loop of the GeoJSON reader: the "coordinates" array of a geometry, which
// is nearly all of a boundary file's bytes. It checks the nesting, reads each
// number to the exact double its text denotes, and widens the bbox.
import { readPositionRun, readPositionRunInto, type PositionSink } from './positions.ts';
import { ScanError } from './errors.ts';
import { lastNumber, readNumber } from './numbers.ts';
import { describeByte } from './tokens.ts';

/** Where the scan of one "coordinates" array stands; kept across chunks. */
export interface CoordinateState {
  level: number; // arrays open inside "coordinates", which is level 1; 0 before its '[' and after its ']'
  leaf: number; // the level of the first number, i.e. of positions (0 = none yet)
  expectedLeaf: number; // 3 for Polygon, 4 for MultiPolygon, 0 while "type" is unknown
  count: number; // numbers so far in the current position
  expectValue: boolean; // a value is expected (else ',' or ']')
  closeAllowed: boolean; // just after '[' (where ']' would close an empty array)
  box: Float64Array; // [minX, minY, maxX, maxY] of the whole file so far
  sink: PositionSink | undefined; // keeps the positions, rings and polygons when geometry is checked in the same pass
  z: boolean; // a position of this array had a third number
}

const TYPE_OF_LEAF = ['', '', '', 'Polygon', 'MultiPolygon'];

/** Returns the error at buf[at] for `reason`, placed in the file. */
type Fail = (at: number, reason: string) => ScanError;

/** Returns the state for a "coordinates" array about to start; `expectedLeaf` is 0 if the type is unknown. */
export function startCoordinates(s: CoordinateState, expectedLeaf: number): void {
  s.level = 0;
  s.leaf = 0;
  s.expectedLeaf = expectedLeaf;
  s.count = 0;
  s.expectValue = true;
  s.closeAllowed = false;
  s.z = false;
  s.sink?.reset();
}

/** The message for positions at the wrong depth, e.g. "Polygon positions must be nested 3 arrays deep, found 4". */
export function depthReason(expectedLeaf: number, found: string): string {
  return `${TYPE_OF_LEAF[expectedLeaf]} positions must be nested ${expectedLeaf} arrays deep, found ${found}`;
}

/**
 * Scans coordinates from buf[i] until their closing ']' (then s.level is 0)
 * or the end of the chunk; returns the index where it stopped. A number cut
 * off by the chunk's end is left unread for the caller to carry over.
 */
export function scanCoordinates(
  buf: Buffer,
  i: number,
  end: number,
  eof: boolean,
  s: CoordinateState,
  base: number,
  where: () => string,
): number {
  let { level, leaf, count, expectValue, closeAllowed } = s;
  const box = s.box;
  const expectedLeaf = s.expectedLeaf;
  const sink = s.sink;
  const fail: Fail = (at, reason) => new ScanError(base + at, `${where()}: ${reason}`);
  while (i < end) {
    const c = buf[i];
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
      i++;
    } else if (!expectValue) {
      if (c === 0x2c) {
        expectValue = true;
        closeAllowed = false;
      } else if (c === 0x5d) {
        if (level === leaf && count < 2) throw fail(i, 'a position has fewer than 2 numbers');
        if (sink) closeOnSink(sink, level, leaf);
        level--;
      } else {
        throw new ScanError(base + i, `invalid JSON: expected ',' or ']', found ${describeByte(buf, i)}`);
      }
      i++;
      if (level === 0) break;
    } else if (c === 0x5b) {
      if (level + 1 === (leaf || expectedLeaf)) {
        // Most positions are "[x,y]" with short numbers, one after the other: read them in one go.
        const after = sink ? readPositionRunInto(buf, i, end, box, sink) : readPositionRun(buf, i, end, box);
        if (after !== i) {
          leaf = level + 1;
          count = 2;
          expectValue = false;
          i = after;
          continue;
        }
      }
      level++;
      const limit = leaf || expectedLeaf;
      if (limit !== 0 && level > limit) {
        throw fail(i, leaf ? 'positions are nested unevenly' : depthReason(limit, `an array ${level} deep`));
      }
      count = 0;
      closeAllowed = true;
      i++;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      if (leaf === 0 || level !== leaf) leaf = leafAt(level, leaf, expectedLeaf, i, fail);
      const after = readNumber(buf, i, end, eof, base);
      if (after < 0) break; // cut off: the caller carries it into the next chunk
      const v = lastNumber.value;
      if (v === Infinity || v === -Infinity) {
        throw fail(i, `non-finite coordinate ${buf.toString('latin1', i, after)}`);
      }
      if (count < 2) {
        if (v < box[count]) box[count] = v; // x → box[0], y → box[1]
        if (v > box[count + 2]) box[count + 2] = v;
        if (sink) {
          if (count === 0) sink.x = v;
          else sink.y = v;
        }
      } else s.z = true; // the fast path stops at a third number: it comes here
      count++;
      expectValue = false;
      closeAllowed = false;
      i = after;
    } else {
      throw notAValue(buf, i, closeAllowed, level === (leaf || expectedLeaf), base, fail);
    }
  }
  Object.assign(s, { level, leaf, count, expectValue, closeAllowed });
  return i;
}

/** Hands `sink` what a ']' at `level` closes: a position, a ring, a polygon (for a Polygon, the coordinates themselves). */
function closeOnSink(sink: PositionSink, level: number, leaf: number): void {
  if (level === leaf) sink.push();
  else if (level === leaf - 1) sink.endRing();
  else if (level === leaf - 2) sink.endPolygon();
}

/**
 * Returns the level of positions, for a number at `level` when none was
 * known (`leaf` 0); throws when the number is at another depth than the
 * geometry's type or the positions before it.
 */
function leafAt(level: number, leaf: number, expectedLeaf: number, i: number, fail: Fail): number {
  if (leaf !== 0) throw fail(i, 'positions are nested unevenly');
  if (expectedLeaf !== 0 && level !== expectedLeaf) {
    throw fail(i, depthReason(expectedLeaf, `a number ${level} arrays deep`));
  }
  return level;
}

/** Returns the error for buf[i] where a coordinate or an array was expected; `atPositions`: at the positions' depth. */
function notAValue(
  buf: Buffer,
  i: number,
  closeAllowed: boolean,
  atPositions: boolean,
  base: number,
  fail: Fail,
): ScanError {
  const c = buf[i];
  if (c === 0x5d && closeAllowed)
    return fail(i, atPositions ? 'a position has fewer than 2 numbers' : 'empty array');
  if (c === 0x22 || c === 0x74 || c === 0x66 || c === 0x6e || c === 0x7b)
    return fail(i, 'a coordinate is not a number');
  return new ScanError(base + i, `invalid JSON: expected a value, found ${describeByte(buf, i)}`);
}
