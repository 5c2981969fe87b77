import { describe, expect, it } from 'vitest';
import { normaliseId, normaliseType, parseNumber } from '../../src/locations/normalise.ts';

describe('type values', () => {
  it('any letter case is stored lowercase', () => {
    expect(['Convenience', 'BENCINERA', 'Servicio', 'otro'].map(normaliseType)).toEqual([
      'convenience',
      'bencinera',
      'servicio',
      'otro',
    ]);
  });
  it('legacy names: pronto → convenience, otros → otro', () => {
    expect([normaliseType('pronto'), normaliseType('Pronto'), normaliseType('OTROS')]).toEqual([
      'convenience',
      'convenience',
      'otro',
    ]);
  });
  it('unknown types → undefined', () => {
    expect([normaliseType('gasolinera'), normaliseType('')]).toEqual([undefined, undefined]);
  });
});

describe('ids', () => {
  it('32 hex digits or hyphenated, any case → lowercase hyphenated', () => {
    expect(normaliseId('120A2E23F90F4013978BBB7F2736A423')).toBe('120a2e23-f90f-4013-978b-bb7f2736a423');
    expect(normaliseId('120A2E23-F90F-4013-978B-BB7F2736A423')).toBe('120a2e23-f90f-4013-978b-bb7f2736a423');
  });
  it('anything else → undefined', () => {
    for (const bad of [
      '',
      '120a2e23',
      '120a2e23-f90f4013-978b-bb7f2736a423',
      'g20a2e23f90f4013978bbb7f2736a423',
    ]) {
      expect(normaliseId(bad)).toBeUndefined();
    }
  });
});

describe('coordinates', () => {
  it('numbers and decimal strings are accepted', () => {
    expect([
      parseNumber(-33.1),
      parseNumber('-23.6361582403'),
      parseNumber(' 12 '),
      parseNumber('1e-3'),
    ]).toEqual([-33.1, -23.6361582403, 12, 0.001]);
  });
  it('non-finite or non-numeric values → undefined', () => {
    for (const bad of [NaN, Infinity, 'NaN', 'Infinity', '', '1,5', '0x10', 'abc', null, true, [1]]) {
      expect(parseNumber(bad)).toBeUndefined();
    }
  });
  it('decimal forms: "5.", ".5", "+1.5E+2" accepted; ".", "1.2.3", "e5", "1e" refused', () => {
    expect(['5.', '.5', '+1.5E+2'].map(parseNumber)).toEqual([5, 0.5, 150]);
    for (const bad of ['.', '1.2.3', 'e5', '1e', '-', '1 2']) expect(parseNumber(bad)).toBeUndefined();
  });
  it('64 KB of digits: the verdict of a short string (a refusal before "x", a number or too large)', () => {
    // "\d+\.?\d*" took seconds on 20,000 digits and an "x": its two runs traded digits
    const digits = '1'.repeat(64 * 1024);
    expect(parseNumber(`${digits}x`)).toBeUndefined();
    expect(parseNumber(`${'0'.repeat(64 * 1024)}7.5`)).toBe(7.5);
    expect(parseNumber(digits)).toBeUndefined(); // finite only up to about 1.8e308
  });
});
