// Query-string handling compatible with FastAPI 0.115 / Starlette / pydantic
// v2: how the original service parsed `?skip=…&limit=…`, down to the error bodies.

/** One entry of a FastAPI 422 body, in pydantic v2's key order. */
export interface ValidationIssue {
  type: string; // e.g. "int_parsing", "greater_than"
  loc: ['query', string];
  msg: string;
  input: string;
  ctx?: Record<string, number>;
}

/**
 * Returns the query string's parameters like Starlette (`parse_qsl` with
 * blank values kept): split on `&`, `+` is a space, %XX decoded as UTF-8 with
 * invalid bytes replaced; a repeated name keeps its last value.
 */
export function parseQuery(query: string): Map<string, string> {
  const params = new Map<string, string>();
  if (query === '') return params;
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const name = equals < 0 ? pair : pair.slice(0, equals);
    const value = equals < 0 ? '' : pair.slice(equals + 1);
    params.set(decodeComponent(name), decodeComponent(value));
  }
  return params;
}

function decodeComponent(text: string): string {
  const plus = text.replaceAll('+', ' ');
  if (!plus.includes('%')) return plus;
  try {
    return decodeURIComponent(plus);
  } catch {
    // Python's unquote: undecodable %XX bytes become U+FFFD, a stray "%" stays.
    const bytes: number[] = [];
    for (let i = 0; i < plus.length; i++) {
      const hex = plus.slice(i + 1, i + 3);
      if (plus[i] === '%' && /^[0-9a-fA-F]{2}$/.test(hex)) {
        bytes.push(parseInt(hex, 16));
        i += 2;
      } else {
        bytes.push(...Buffer.from(plus[i]!, 'utf8'));
      }
    }
    return Buffer.from(bytes).toString('utf8');
  }
}

/**
 * True for Rust's char::is_whitespace (Unicode White_Space), which
 * pydantic-core's trim uses: U+0009–U+000D, space, U+0085, U+00A0, U+1680,
 * U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000 (all in the BMP).
 */
function isUnicodeWhitespace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0x85) return false;
  if (code <= 0xa0) return code === 0x85 || code === 0xa0;
  if (code >= 0x2000 && code <= 0x200a) return true;
  return (
    code === 0x1680 ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

/**
 * Returns `text` without Unicode whitespace at either end, like Rust's
 * `str::trim`: one loop in from each end, so each character is looked at
 * once at most. (A regex `\s+$` tries every start of a long run of spaces
 * followed by something else: quadratic in the run.)
 */
export function trimUnicodeWhitespace(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isUnicodeWhitespace(text.charCodeAt(start))) start++;
  while (end > start && isUnicodeWhitespace(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}

const JSON_INT = /^-?(0|[1-9][0-9]*)$/;

/** pydantic's limit on the digits of an integer string (CPython's int_max_str_digits). */
const MAX_INT_CHARS = 4300;

/**
 * Returns `text` parsed like pydantic-core's `str_as_int` (lax mode): a JSON
 * integer as is; else after trimming Unicode whitespace, one leading "+",
 * leading zeros, one ".000" fraction and single underscores between digits
 * (`" 1_000.0 "` → 1000). Integers of any size are exact (bigint). Returns the
 * pydantic error type when it is not an integer.
 */
export function parsePydanticInt(text: string): bigint | 'int_parsing' | 'int_parsing_size' {
  if (JSON_INT.test(text)) {
    return text.length > MAX_INT_CHARS ? 'int_parsing_size' : BigInt(text);
  }
  const cleaned = cleanIntString(text);
  if (cleaned === undefined || !JSON_INT.test(cleaned) || cleaned.length > MAX_INT_CHARS)
    return 'int_parsing';
  return BigInt(cleaned);
}

/** pydantic-core's clean_int_str: undefined when nothing could be cleaned. */
function cleanIntString(input: string): string | undefined {
  let s = trimUnicodeWhitespace(input);
  if (s.startsWith('+')) {
    if (s[1] === '-') return undefined;
    s = s.slice(1);
  }
  let negative = false;
  if (s.startsWith('-')) {
    if (s[1] === '-' || s[1] === '+') return undefined;
    negative = true;
    s = s.slice(1);
  }
  const stripped = stripLeadingZeros(s);
  if (stripped === undefined) return undefined;
  s = stripped;
  const dot = s.indexOf('.');
  if (dot >= 0 && dot < s.length - 1 && /^0+$/.test(s.slice(dot + 1))) s = s.slice(0, dot);
  if (s.includes('_') && !s.startsWith('_') && !s.endsWith('_') && !s.includes('__')) {
    return (negative ? '-' : '') + s.replaceAll('_', '');
  }
  if (s.length === input.length) return undefined;
  return (negative ? '-' : '') + s;
}

/** pydantic-core's strip_leading_zeros: "000" → "0", "00.0" → "0.0", "0_1" → "1". */
function stripLeadingZeros(s: string): string | undefined {
  const first = s[0];
  if (first === undefined) return undefined;
  if (first !== '0') return (first >= '1' && first <= '9') || first === '-' ? s : undefined;
  for (let i = 1; i < s.length; i++) {
    const c = s[i]!;
    if (c === '0' || c === '_') continue;
    if ((c >= '1' && c <= '9') || c === '-') return s.slice(i);
    if (c === '.') return s.slice(i - 1);
    return undefined;
  }
  return s.slice(-1);
}

/** The paging parameters after validation; huge values are clamped (a skip past the end, a limit of "all"). */
export interface Paging {
  skip: number;
  limit: number;
}

const CLAMP = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Returns `skip` (default 0, ≥ 0) and `limit` (default 100, > 0) from the
 * query, or FastAPI's 422 issues, one per bad parameter in the order skip, limit.
 */
export function parsePaging(params: Map<string, string>): Paging | ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const skip = checkInt(params, 'skip', 0, { ge: 0 }, issues);
  const limit = checkInt(params, 'limit', 100, { gt: 0 }, issues);
  return issues.length > 0 ? issues : { skip: skip!, limit: limit! };
}

function checkInt(
  params: Map<string, string>,
  name: string,
  fallback: number,
  bound: { ge: number } | { gt: number },
  issues: ValidationIssue[],
): number | undefined {
  const input = params.get(name);
  if (input === undefined) return fallback;
  // the common spelling, e.g. "900000", without BigInt; anything else the pydantic way
  const value = /^(0|[1-9][0-9]{0,14})$/.test(input) ? Number(input) : parsePydanticInt(input);
  const loc: ['query', string] = ['query', name];
  if (value === 'int_parsing') {
    const msg = 'Input should be a valid integer, unable to parse string as an integer';
    issues.push({ type: 'int_parsing', loc, msg, input });
  } else if (value === 'int_parsing_size') {
    const msg = 'Unable to parse input string as an integer, exceeded maximum size';
    issues.push({ type: 'int_parsing_size', loc, msg, input });
  } else if ('ge' in bound && value < bound.ge) {
    const msg = `Input should be greater than or equal to ${bound.ge}`;
    issues.push({ type: 'greater_than_equal', loc, msg, input, ctx: { ge: bound.ge } });
  } else if ('gt' in bound && value <= bound.gt) {
    const msg = `Input should be greater than ${bound.gt}`;
    issues.push({ type: 'greater_than', loc, msg, input, ctx: { gt: bound.gt } });
  } else {
    // huge values are clamped: a skip past any end, a limit of "all"
    return typeof value === 'bigint' ? Number(value > CLAMP ? CLAMP : value) : value;
  }
  return undefined;
}
