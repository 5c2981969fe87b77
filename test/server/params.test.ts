import { describe, expect, it } from 'vitest';
import { parsePaging, parsePydanticInt, parseQuery, trimUnicodeWhitespace } from '../../src/server/params.ts';

describe('query integers are parsed like pydantic v2 (lax str → int)', () => {
  const accepted: [string, bigint][] = [
    ['5', 5n],
    ['-5', -5n],
    ['-0', 0n],
    [' 5 ', 5n],
    ['\t5\n', 5n],
    ['\u00a05\u3000', 5n], // Unicode White_Space is trimmed
    ['+5', 5n],
    ['005', 5n],
    ['000', 0n],
    ['1_000', 1000n],
    ['1_000_000', 1000000n],
    ['1.0', 1n],
    ['10.000', 10n],
    ['00.0', 0n],
    [' +1_0.00 ', 10n],
    ['99999999999999999999999999', 99999999999999999999999999n],
    ['-99999999999999999999999999', -99999999999999999999999999n],
  ];
  for (const [input, value] of accepted) {
    it(`${JSON.stringify(input)} → ${value}`, () => expect(parsePydanticInt(input)).toBe(value));
  }
  const rejected = [
    '',
    ' ',
    'abc',
    '1.5',
    '1.',
    '.0',
    '1e3',
    '0x10',
    '+-1',
    '--1',
    '-+1',
    '1__0',
    '_1',
    '1_',
    '5 5',
    '\ufeff5',
    '١',
  ];
  for (const input of rejected) {
    it(`${JSON.stringify(input)} → int_parsing`, () => expect(parsePydanticInt(input)).toBe('int_parsing'));
  }
  it('more than 4300 digits → int_parsing_size', () => {
    expect(parsePydanticInt('9'.repeat(4301))).toBe('int_parsing_size');
    expect(parsePydanticInt('9'.repeat(4300))).toBe(BigInt('9'.repeat(4300)));
  });
});

describe('Unicode whitespace is trimmed like Rust’s str::trim, in one pass from each end', () => {
  // Rust's char::is_whitespace: the Unicode White_Space property.
  const WHITE_SPACE = [
    ...'\t\n\v\f\r \u0085\u00a0\u1680\u2028\u2029\u202f\u205f\u3000',
    ...Array.from({ length: 11 }, (_, i) => String.fromCharCode(0x2000 + i)), // U+2000–U+200A
  ];
  it('each White_Space character is trimmed at both ends and kept inside', () => {
    for (const c of WHITE_SPACE) {
      expect([c.codePointAt(0), trimUnicodeWhitespace(`${c}${c}1${c}2${c}`)]).toEqual([
        c.codePointAt(0),
        `1${c}2`,
      ]);
    }
  });
  it('look-alikes that are not White_Space stay: U+200B, U+FEFF, U+180E, U+001C', () => {
    for (const c of ['\u200b', '\ufeff', '\u180e', '\u001c']) {
      expect(trimUnicodeWhitespace(` ${c}1${c} `)).toBe(`${c}1${c}`);
    }
  });
  it('all whitespace → ""; nothing to trim → the same string', () => {
    expect(trimUnicodeWhitespace(WHITE_SPACE.join(''))).toBe('');
    expect(trimUnicodeWhitespace('')).toBe('');
    expect(trimUnicodeWhitespace('1 2')).toBe('1 2');
  });
});

describe('hostile integers (64 KB) get the verdict they always had', () => {
  // "?skip=1" + 16,000 "+" + "x" once held the event loop, quadratic in the run.
  const run = ' '.repeat(64 * 1024);
  it('"1" + 64 KB of spaces + "x" → int_parsing', () => {
    expect(parsePydanticInt(`1${run}x`)).toBe('int_parsing');
  });
  it('64 KB of spaces around "7" → 7; a run of U+3000 before "x" → int_parsing', () => {
    expect(parsePydanticInt(`${run}7${run}`)).toBe(7n);
    expect(parsePydanticInt(`${'\u3000'.repeat(64 * 1024)}x`)).toBe('int_parsing');
  });
  it('through parsePaging: the 422 issue quotes the whole input', () => {
    const input = `1${run}x`;
    expect(parsePaging(new Map([['skip', input]]))).toEqual([
      {
        type: 'int_parsing',
        loc: ['query', 'skip'],
        msg: 'Input should be a valid integer, unable to parse string as an integer',
        input,
      },
    ]);
  });
});

describe('query strings are read like Starlette', () => {
  it('a repeated parameter keeps its last value', () => {
    expect(parseQuery('limit=1&limit=3').get('limit')).toBe('3');
  });
  it('"+" is a space, %XX is decoded, a name without "=" is blank', () => {
    const params = parseQuery('a=1+2&b=%2B5&c&d=%zz&e=%C3%B1');
    expect([...params]).toEqual([
      ['a', '1 2'],
      ['b', '+5'],
      ['c', ''],
      ['d', '%zz'],
      ['e', 'ñ'],
    ]);
  });
  it('invalid UTF-8 in %XX becomes U+FFFD', () => {
    expect(parseQuery('x=%ff').get('x')).toBe('\ufffd');
  });
});

describe('paging parameters', () => {
  it('defaults: skip 0, limit 100', () => {
    expect(parsePaging(new Map())).toEqual({ skip: 0, limit: 100 });
  });
  it('huge values are clamped: a skip past any end, a limit of "all"', () => {
    const big = '1' + '0'.repeat(40);
    expect(
      parsePaging(
        new Map([
          ['skip', big],
          ['limit', big],
        ]),
      ),
    ).toEqual({
      skip: Number.MAX_SAFE_INTEGER,
      limit: Number.MAX_SAFE_INTEGER,
    });
  });
  it('issues come in the order skip, limit', () => {
    const issues = parsePaging(
      new Map([
        ['limit', '0'],
        ['skip', 'x'],
      ]),
    );
    expect(Array.isArray(issues) && issues.map((i) => i.loc[1])).toEqual(['skip', 'limit']);
  });
});
