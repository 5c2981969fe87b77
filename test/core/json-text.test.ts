// Where malformed JSON breaks, as a line and a column: V8 gives a position for
// some mistakes, only a quoted context for an unexpected token, and the whole
// text when it is short; each is turned into the place of the mistake.
import { describe, expect, it } from 'vitest';
import { parseJsonText } from '../../build/core/json-text.ts';

describe('parseJsonText', () => {
  it.each([
    // [text, line, column, reason]
    ['not json at all', 1, 2, "Unexpected token 'o'"], // whole text quoted
    ['{"foo": o}', 1, 9, "Unexpected token 'o'"], // whole text quoted, the token also earlier
    ['{"a": 1, "b": tru, "c": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}', 1, 18, "Unexpected token ','"],
    ['[1,\n2,\n 3, 4, 5, 6, 7, 8, 9, 10, x, 11, 12, 13, 14, 15, 16, 17]', 3, 27, "Unexpected token 'x'"],
    ['[\n  {"id": "a",\n   "name": "x",, }\n]', 3, 16, 'Expected double-quoted property name'],
    ['{\n  "a": 1\n  "b": 2\n}', 3, 3, "Expected ',' or '}' after property value"],
    ['[1] 2', 1, 5, 'Unexpected non-whitespace character after the JSON'],
    ['{"a": [1, 2', 1, 12, "Expected ',' or ']' after array element"],
    ['', 1, 1, 'unexpected end of file'],
  ])('%j → line %i, column %i: %s', (text, line, column, reason) => {
    expect(parseJsonText(text)).toEqual({ line, column, reason });
  });

  it('valid JSON → its value; a byte order mark is skipped', () => {
    expect(parseJsonText('{"a": [1, "x"]}')).toEqual({ value: { a: [1, 'x'] } });
    expect(parseJsonText('\uFEFF[true]')).toEqual({ value: [true] });
  });
});
