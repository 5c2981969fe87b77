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

/** Returns what readNumber reads from `text` followed by a ',' (as in a position), and where it stopped. */
function readAt(text: string): { value: number; end: number } {
  const buf = Buffer.from(`${text},`);
  const end = readNumber(buf, 0, buf.length, false, 0);
  return { value: lastNumber.value, end };
}

/** Returns what readNumber reads from `text`, checking that it read all of it. */
function read(text: string): number {
  const { value, end } = readAt(text);
  expect(end).toBe(text.length);
  return value;
}

/**
 * Returns the texts among `texts` that readNumber does not read whole, or not
 * as `expected` (Object.is, as toBe): the loops below call expect once, since
 * each call costs more than the reading it checks.
 */
function misread(texts: Iterable<string>, expected: (text: string) => number): string[] {
  const wrong: string[] = [];
  for (const text of texts) {
    const { value, end } = readAt(text);
    if (end !== text.length || !Object.is(value, expected(text))) wrong.push(text);
  }
  return wrong;
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
    const texts: string[] = [];
    for (let k = 0; k < 20_000; k++) {
      const scale = 10 ** Math.floor(random() * 40 - 20);
      const x = (random() - 0.5) * scale;
      const rounded = Math.round(x * 1e6) / 1e6; // as boundary files write them
      texts.push(String(x), String(rounded));
    }
    expect(misread(texts, (text) => JSON.parse(text) as number)).toEqual([]);
  });

  it("a position run's fast path reads what the general reader reads", () => {
    const random = seededRandom(18);
    const differ: string[] = [];
    for (let k = 0; k < 5_000; k++) {
      const x = Math.round((random() - 0.5) * 360 * 1e6) / 1e6;
      const y = Number(((random() - 0.5) * 180).toFixed(Math.floor(random() * 16)));
      const buf = Buffer.from(`[${x},${y}],`);
      const box = new Float64Array([Infinity, Infinity, -Infinity, -Infinity]);
      const after = readPositionRun(buf, 0, buf.length, box);
      if (after === 0) continue; // not its layout (e.g. an exponent): the general reader's
      const [rx, ry] = [readAt(String(x)), readAt(String(y))];
      const whole = rx.end === String(x).length && ry.end === String(y).length;
      if (!whole || !Object.is(box[0], rx.value) || !Object.is(box[1], ry.value)) differ.push(`[${x},${y}]`);
    }
    expect(differ).toEqual([]);
  });
});
