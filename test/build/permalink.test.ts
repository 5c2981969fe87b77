// The permalink a page follows (src/client/permalink.ts): the hash is anyone's
// to type, so malformed escapes select nothing instead of throwing.
import { describe, expect, it } from 'vitest';
import { permalinkId } from '../../src/client/permalink.ts';

describe('permalinkId', () => {
  it.each([
    ['#unit-CL-RM', 'CL-RM'],
    ['#unit-k3f9a2m7x0qp', 'k3f9a2m7x0qp'],
    ['#unit-USA-ADM2-US-WY.56045', 'USA-ADM2-US-WY.56045'],
    ['#unit-S%C3%A3o%20Paulo', 'São Paulo'],
    ['#unit-', ''],
  ])('%s → %s', (hash, id) => {
    expect(permalinkId(hash)).toBe(id);
  });

  it.each([
    ['#unit-%', 'a lone "%"'],
    ['#unit-%E0%A4%A', 'a UTF-8 sequence cut short'],
    ['#unit-%zz', 'a "%" without two hex digits'],
    ['#unit-%C3', 'a lead byte alone'],
    ['#unit-%ED%A0%80', 'an encoded surrogate'],
  ])('%s (%s) → no selection, no throw', (hash) => {
    expect(permalinkId(hash)).toBeUndefined();
  });

  it.each(['', '#', '#units', '#q=chile', 'unit-CL-RM'])('%j is no permalink', (hash) => {
    expect(permalinkId(hash)).toBeUndefined();
  });
});
