// Byte ranges of static files (RFC 9110 §14): one `Range: bytes=…` range,
// guarded by `If-Range`, as a CDN answers them.

/** One satisfiable range, both ends inclusive, e.g. { start: 0, end: 99 } for the first 100 bytes. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Returns the range `header` asks of a representation of `size` bytes:
 * a ByteRange, 'unsatisfiable' (→ 416), or undefined when the whole
 * representation is to be sent (no header, bad syntax, another unit, or
 * several ranges: a multipart answer is allowed to be the full 200).
 */
export function parseRange(
  header: string | undefined,
  size: number,
): ByteRange | 'unsatisfiable' | undefined {
  if (header === undefined) return undefined;
  // Each \s* is followed by a digit or a mark, never by another \s* (e.g. "=\s*(\d*)\s*-"
  // with no digits): two runs that can trade spaces backtrack quadratically on "bytes=   …x".
  const match = /^\s*bytes\s*=\s*(?:(\d+)\s*)?-\s*(?:(\d+)\s*)?$/i.exec(header);
  if (!match || (match[1] === undefined && match[2] === undefined)) return undefined; // also "bytes=0-1,5-9"
  const [, first = '', last = ''] = match;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return undefined; // invalid: ignored, as RFC 9110 says
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

/**
 * Returns true when `If-Range` (absent, an ETag, or an HTTP date) lets the
 * range apply: the ETag must match strongly, the date must equal Last-Modified.
 */
export function ifRangeAllows(header: string | undefined, etag: string, lastModified?: string): boolean {
  if (header === undefined) return true;
  const value = header.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return value === etag;
  const date = Date.parse(value);
  return lastModified !== undefined && !Number.isNaN(date) && date === Date.parse(lastModified);
}

/** Returns the headers that frame `range` of `size` bytes in a 206, e.g. "bytes 0-99/3000". */
export function rangeHeaders(range: ByteRange, size: number): Record<string, string | number> {
  return {
    'content-range': `bytes ${range.start}-${range.end}/${size}`,
    'content-length': range.end - range.start + 1,
  };
}
