// JSON tokens read straight from bytes for the GeoJSON scanner: strings and
// literals (numbers: ./numbers.ts). Each reader returns the index after the
// token, or -1 when the chunk ends inside it (the caller carries the bytes
// over into the next chunk).
import { ScanError } from './errors.ts';

/** Where a string being read stands: 0 = plain text, 1 = after '\', 2..5 = hex digits of \u left. */
export interface StringState {
  inEscape: number;
  escaped: boolean; // the string had an escape: decode it with JSON.parse
}

export function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** Returns a byte for messages: "'x'" for printable ASCII, else "byte 0x1f". */
export function describeByte(buf: Uint8Array, i: number): string {
  const c = buf[i];
  return c > 0x20 && c < 0x7f ? `'${String.fromCharCode(c)}'` : `byte 0x${c.toString(16).padStart(2, '0')}`;
}

/**
 * Checks a string body from buf[i] (just after the opening quote, or where a
 * previous chunk stopped, per `state`) and returns the index after the closing
 * quote, or -1 if the chunk ends first (`state` then says where to resume).
 */
export function skipStringBody(
  buf: Uint8Array,
  i: number,
  end: number,
  state: StringState,
  base: number,
): number {
  while (i < end) {
    const c = buf[i];
    if (state.inEscape === 0) {
      if (c === 0x22) return i + 1;
      if (c === 0x5c) {
        state.inEscape = 1;
        state.escaped = true;
      } else if (c < 0x20) {
        throw new ScanError(
          base + i,
          `invalid JSON: control character 0x${c.toString(16).padStart(2, '0')} in a string`,
        );
      }
    } else if (state.inEscape === 1) {
      if (c === 0x75)
        state.inEscape = 5; // \uXXXX: four hex digits follow
      else if (
        c === 0x22 ||
        c === 0x5c ||
        c === 0x2f ||
        c === 0x62 ||
        c === 0x66 ||
        c === 0x6e ||
        c === 0x72 ||
        c === 0x74
      ) {
        state.inEscape = 0;
      } else
        throw new ScanError(
          base + i,
          `invalid JSON: invalid escape '\\${String.fromCharCode(c)}' in a string`,
        );
    } else {
      const hex = (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);
      if (!hex) throw new ScanError(base + i, 'invalid JSON: \\u must be followed by four hex digits');
      state.inEscape = state.inEscape === 2 ? 0 : state.inEscape - 1;
    }
    i++;
  }
  return -1;
}

/** Reads a whole string token at buf[i] (the opening quote); returns the index after it, or -1. */
export function readString(
  buf: Uint8Array,
  i: number,
  end: number,
  state: StringState,
  base: number,
): number {
  state.inEscape = 0;
  state.escaped = false;
  return skipStringBody(buf, i + 1, end, state, base);
}

/** Reads `true`, `false` or `null` at buf[i]; returns the index after it, or -1 if cut off. */
export function readLiteral(buf: Uint8Array, i: number, end: number, eof: boolean, base: number): number {
  const c = buf[i];
  const word = c === 0x74 ? 'true' : c === 0x66 ? 'false' : c === 0x6e ? 'null' : undefined;
  if (word === undefined) {
    throw new ScanError(base + i, `invalid JSON: expected a value, found ${describeByte(buf, i)}`);
  }
  for (let k = 1; k < word.length; k++) {
    if (i + k >= end) {
      if (eof) throw new ScanError(base + end, 'unexpected end of file');
      return -1;
    }
    if (buf[i + k] !== word.charCodeAt(k)) {
      throw new ScanError(base + i, `invalid JSON: expected a value, found ${describeByte(buf, i)}`);
    }
  }
  return i + word.length;
}

/** Returns whether byte c can start a JSON value: { [ " - 0-9 t f n. */
export function startsValue(c: number): boolean {
  return (
    c === 0x7b ||
    c === 0x5b ||
    c === 0x22 ||
    c === 0x2d ||
    (c >= 0x30 && c <= 0x39) ||
    c === 0x74 ||
    c === 0x66 ||
    c === 0x6e
  );
}

/** Returns the string token buf[start, end) (quotes included) as a JS string. */
export function decodeString(buf: Buffer, start: number, end: number, escaped: boolean): string {
  // Escapes are rare in keys ("na\u00efve"); JSON.parse decodes them exactly.
  return escaped
    ? (JSON.parse(buf.toString('utf8', start, end)) as string)
    : buf.toString('utf8', start + 1, end - 1);
}
