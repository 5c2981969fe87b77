// JSON numbers read straight from bytes to the exact double the text denotes,
// as JSON.parse gives: the one table of powers of ten and the one general
// number reader of the GeoJSON reader (the position runs of ./positions.ts
// use the same table on their fast path).
import { ScanError } from './errors.ts';

/**
 * 10^0 … 10^22, each exact: a double holds these powers exactly (Clinger's
 * fast path). Written as number literals, which are correctly rounded by
 * definition; `10 ** k` is Math.pow, which the language lets be approximate.
 */
export const POW10: readonly number[] = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));

/** The value of the last number read by readNumber. */
export const lastNumber = { value: 0 };

/**
 * Reads a JSON number at buf[i] into lastNumber.value and returns the index
 * after it, or -1 if the chunk ends inside it. The value is the double nearest
 * to the text: up to 15 significant digits with a power of ten ≤ 22 it is one
 * correctly rounded multiply or divide; anything else goes through Number().
 */
export function readNumber(buf: Buffer, i: number, end: number, eof: boolean, base: number): number {
  const start = i;
  let c = buf[i];
  if (c === 0x2d) {
    if (++i >= end) return eof ? badNumber(base, start) : -1;
    c = buf[i];
  }
  let mantissa = 0;
  let digits = 0; // significant digits in mantissa
  let exponent = 0;
  if (c === 0x30) {
    i++;
  } else if (c >= 0x31 && c <= 0x39) {
    while (i < end && (c = buf[i]) >= 0x30 && c <= 0x39) {
      mantissa = mantissa * 10 + (c - 0x30);
      digits++;
      i++;
    }
  } else return badNumber(base, start);
  if (i < end && buf[i] === 0x2e) {
    const dot = ++i;
    while (i < end && (c = buf[i]) >= 0x30 && c <= 0x39) {
      if (mantissa !== 0 || c !== 0x30) {
        mantissa = mantissa * 10 + (c - 0x30);
        digits++;
      }
      exponent--;
      i++;
    }
    if (i === dot && (i < end || eof)) return badNumber(base, start);
  }
  if (i < end && (buf[i] | 0x20) === 0x65) {
    i++;
    let sign = 1;
    if (i < end && (buf[i] === 0x2b || buf[i] === 0x2d)) sign = buf[i++] === 0x2d ? -1 : 1;
    const first = i;
    let e = 0;
    while (i < end && (c = buf[i]) >= 0x30 && c <= 0x39) {
      if (e < 100_000) e = e * 10 + (c - 0x30);
      i++;
    }
    if (i === first && (i < end || eof)) return badNumber(base, start);
    exponent += sign * e;
  }
  if (i >= end && !eof) return -1; // the number may go on in the next chunk
  let value: number;
  if (digits <= 15 && exponent >= -22 && exponent <= 22) {
    value = exponent < 0 ? mantissa / POW10[-exponent] : mantissa * POW10[exponent];
    if (buf[start] === 0x2d) value = -value;
  } else {
    value = Number(buf.toString('latin1', start, i));
  }
  lastNumber.value = value;
  return i;
}

function badNumber(base: number, start: number): never {
  throw new ScanError(base + start, 'invalid JSON: malformed number');
}
