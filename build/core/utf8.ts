// UTF-8 checks: what is published must be byte-identical to the source, so
// text that is not valid UTF-8 is a problem to report, never something to
// decode with replacement characters and write back.
import { isUtf8 } from 'node:buffer';

/**
 * Returns the index of the first byte of `bytes[start, end)` that does not
 * begin a valid UTF-8 sequence (RFC 3629: no overlong forms, no surrogates,
 * nothing past U+10FFFF), `end` for a sequence cut off at the end, or -1
 * when the range is valid. Fast path: node's native isUtf8.
 */
export function firstInvalidUtf8(bytes: Uint8Array, start = 0, end = bytes.length): number {
  if (isUtf8(bytes.subarray(start, end))) return -1;
  for (let i = start; i < end;) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i += 1;
      continue;
    }
    const [n, lo, hi] =
      b >= 0xc2 && b <= 0xdf
        ? [2, 0x80, 0xbf]
        : b === 0xe0
          ? [3, 0xa0, 0xbf]
          : b === 0xed
            ? [3, 0x80, 0x9f]
            : b >= 0xe1 && b <= 0xef
              ? [3, 0x80, 0xbf]
              : b === 0xf0
                ? [4, 0x90, 0xbf]
                : b === 0xf4
                  ? [4, 0x80, 0x8f]
                  : b >= 0xf1 && b <= 0xf3
                    ? [4, 0x80, 0xbf]
                    : [0, 0, 0];
    if (n === 0) return i;
    if (i + n > end) return i; // cut off
    const second = bytes[i + 1]!;
    if (second < lo || second > hi) return i;
    for (let k = 2; k < n; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return i;
    i += n;
  }
  return -1;
}

/**
 * Checks a byte stream fed in chunks, holding back a sequence cut by a
 * chunk's end until the next chunk. `update` returns the file offset of the
 * first invalid byte, or -1; `end` does the same for a sequence left cut off.
 */
export class Utf8Stream {
  private held = Buffer.alloc(0); // the cut-off start of a sequence, at most 3 bytes
  private heldAt = 0; // its file offset

  update(chunk: Uint8Array, offset: number): number {
    const bytes = this.held.length > 0 ? Buffer.concat([this.held, chunk]) : chunk;
    const base = this.held.length > 0 ? this.heldAt : offset;
    const cut = incompleteTail(bytes);
    const bad = firstInvalidUtf8(bytes, 0, bytes.length - cut);
    if (bad >= 0) return base + bad;
    this.held = Buffer.from(bytes.subarray(bytes.length - cut));
    this.heldAt = base + bytes.length - cut;
    return -1;
  }

  end(): number {
    return this.held.length > 0 ? this.heldAt : -1;
  }
}

/** Returns how many bytes at the end of `bytes` start a multi-byte sequence that is cut off (0–3). */
function incompleteTail(bytes: Uint8Array): number {
  for (let k = 1; k <= Math.min(3, bytes.length); k++) {
    const b = bytes[bytes.length - k]!;
    if (b < 0x80) return 0;
    if (b >= 0xc0) {
      const n = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
      return n > k ? k : 0;
    }
  }
  return 0;
}
