// The reader's numbers are the doubles JSON.parse gives: the one table of
// powers of ten is exact, and both number paths (a position run's fast path
// and the general reader) agree with JSON.parse on hard cases.
import { describe, expect, it } from 'vitest';
import { POW10, lastNumber, readNumber } from '../../build/geojson/numbers.ts';
import { readPositionRun } from '../../build/geojson/positions.ts';
import { seededRandom } from '../support/random.ts';

const HARD = [
  '0',
  '-0',
  '0.1',
  '0.30000000000000004',
  '1e-320', // subnormal
  '5e-324', // the smallest double
  '2.2250738585072011e-308', // below the smallest normal
  '2.2250738585072014e-308',
  '1e300',
  '1.7976931348623157e308', // the largest double
  '1e22',
  '1e23', // the first power of ten a double does not hold
  '123456789012345', // 15 digits: the fast path
  '1234567890123456', // 16: Number()
  '9007199254740993', // 2^53 + 1 rounds to even
  '-179.999999999999',
  '-70.062408',
  '12.41767',
  '0.000001',
  '100000000000000000000000000000001e-32',
  '4.35679716e+2',
  '7E-10',
];

/** Returns what readNumber reads from `text` followed by a ',' (as in a position). */
function read(text: string): number {
  const buf = Buffer.from(`${text},`);
  expect(readNumber(buf, 0, buf.length, false, 0)).toBe(text.length);
  return lastNumber.value;
}

describe('numbers', () => {
  it('POW10 holds 10^0 … 10^22 exactly', () => {
    expect(POW10).toHaveLength(23);
    POW10.forEach((p, k) => expect(BigInt(p), `10^${k}`).toBe(10n ** BigInt(k)));
  });

  it.each(HARD)('%s reads as JSON.parse reads it', (text) => {
    expect(Object.is(read(text), JSON.parse(text))).toBe(true);
  });

  it('random doubles, written as JavaScript writes them, read as JSON.parse reads them', () => {
    const random = seededRandom(17);
    for (let k = 0; k < 20_000; k++) {
      const scale = 10 ** Math.floor(random() * 40 - 20);
      const x = (random() - 0.5) * scale;
      const rounded = Math.round(x * 1e6) / 1e6; // as boundary files write them
      for (const text of [String(x), String(rounded)]) expect(read(text)).toBe(JSON.parse(text));
    }
  });

  it("a position run's fast path reads what the general reader reads", () => {
    const random = seededRandom(18);
    for (let k = 0; k < 5_000; k++) {
      const x = Math.round((random() - 0.5) * 360 * 1e6) / 1e6;
      const y = Number(((random() - 0.5) * 180).toFixed(Math.floor(random() * 16)));
      const buf = Buffer.from(`[${x},${y}],`);
      const box = new Float64Array([Infinity, Infinity, -Infinity, -Infinity]);
      const after = readPositionRun(buf, 0, buf.length, box);
      if (after === 0) continue; // not its layout (e.g. an exponent): the general reader's
      expect([box[0], box[1]]).toEqual([read(String(x)), read(String(y))]);
    }
  });
});
