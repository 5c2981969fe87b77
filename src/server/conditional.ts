// Conditional requests (RFC 9110 §13): the preconditions of a GET or HEAD,
// evaluated in the order of §13.2.2, then the range step. The API pages and
// the static files (in memory or streamed) all decide through outcome().
import type { IncomingMessage } from 'node:http';
import { ifRangeAllows, parseRange, type ByteRange } from './range.ts';

/** What identifies the selected representation. */
export interface Validators {
  /** Its strong ETag, e.g. "\"pX4…-gzip\"". */
  etag: string;
  /** Tags of the same content in another encoding, which If-None-Match and If-Match also accept. */
  alike?: readonly string[];
  /** Its Last-Modified, an HTTP date; absent for API pages (then the date preconditions are ignored). */
  lastModified?: string;
}

/** What to answer: 412, 304, 416, one range (206), or the whole representation. */
export type Outcome = { status: 412 | 304 | 416 } | { status: 206; range: ByteRange } | { status: 200 };

const WHOLE: Outcome = { status: 200 };

/** Returns true when `req` has a precondition or a Range: only then is outcome() worth asking. */
export function isConditional(req: IncomingMessage): boolean {
  const headers = req.headers;
  return (
    headers['if-match'] !== undefined ||
    headers['if-unmodified-since'] !== undefined ||
    headers['if-none-match'] !== undefined ||
    headers['if-modified-since'] !== undefined ||
    headers.range !== undefined
  );
}

/**
 * Returns the outcome of `req` for a representation that would otherwise be a
 * 200, per RFC 9110 §13.2.2: (1) If-Match, else (2) If-Unmodified-Since → 412;
 * (3) If-None-Match, else (4) If-Modified-Since → 304; then (5) Range, guarded
 * by If-Range, when `ranges` is given: the representation supports ranges,
 * of `size` bytes tagged `etag` (ranges are of the uncompressed body).
 */
export function outcome(
  req: IncomingMessage,
  validators: Validators,
  ranges?: { size: number; etag: string },
): Outcome {
  const headers = req.headers;
  const conditional =
    headers['if-match'] !== undefined ||
    headers['if-unmodified-since'] !== undefined ||
    headers['if-none-match'] !== undefined ||
    headers['if-modified-since'] !== undefined;
  if (conditional) {
    const status = preconditionStatus(req, validators);
    if (status !== undefined) return { status };
  }
  if (ranges === undefined || headers.range === undefined) return WHOLE;
  if (!ifRangeAllows(headers['if-range']?.toString(), ranges.etag, validators.lastModified)) return WHOLE;
  const range = parseRange(headers.range, ranges.size);
  if (range === undefined) return WHOLE;
  return range === 'unsatisfiable' ? { status: 416 } : { status: 206, range };
}

/** Steps 1–4 of §13.2.2: 412, 304, or undefined when every precondition holds. */
function preconditionStatus(req: IncomingMessage, validators: Validators): 412 | 304 | undefined {
  const { etag, alike = [], lastModified } = validators;
  const modified = lastModified === undefined ? undefined : Date.parse(lastModified);
  const ifMatch = req.headers['if-match'];
  if (ifMatch !== undefined) {
    if (!listMatches(ifMatch, etag, alike, true)) return 412;
  } else if (modified !== undefined) {
    const since = httpDate(req.headers['if-unmodified-since']);
    if (since !== undefined && modified > since) return 412;
  }
  const ifNoneMatch = req.headers['if-none-match'];
  const safe = req.method === 'GET' || req.method === 'HEAD';
  if (ifNoneMatch !== undefined) {
    if (listMatches(ifNoneMatch, etag, alike, false)) return safe ? 304 : 412;
  } else if (safe && modified !== undefined) {
    const since = httpDate(req.headers['if-modified-since']);
    if (since !== undefined && modified <= since) return 304;
  }
  return undefined;
}

// an entity-tag of a list: W/"…" or "…" (a tag may hold commas), or *
const ENTITY_TAG = /(W\/)?("[^"]*")|\*/g;

/**
 * Returns true when the If-Match / If-None-Match list `header` names the
 * representation: "*" always does; a tag does by strong comparison (both
 * strong and equal, for If-Match) or weak comparison (equal once W/ is
 * dropped, for If-None-Match).
 */
export function listMatches(
  header: string,
  etag: string,
  alike: readonly string[],
  strong: boolean,
): boolean {
  for (const [whole, weak, tag] of header.matchAll(ENTITY_TAG)) {
    if (whole === '*') return true;
    if (strong && weak) continue;
    if (tag === etag || alike.includes(tag!)) return true;
  }
  return false;
}

/** Returns the time of an HTTP date in ms, or undefined when it is not a date (the header is then ignored). */
function httpDate(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : time;
}
