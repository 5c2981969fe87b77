import { describe, expect, it } from 'vitest';
import { parsePaging, parsePydanticInt, parseQuery } from '../../src/server/params.ts';

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
