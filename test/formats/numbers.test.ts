// How the writers spell numbers: dBase's plain decimal text, TopoJSON's
// JSON text and grid, checked on random doubles of every magnitude (GDAL
// reads the results back in readback.test.ts).
import { expect, test } from 'vitest';
import { numberText } from '../../build/formats/dbase.ts';
import { plainDecimal } from '../../build/formats/fields.ts';
import { jsonText, quantizationFor } from '../../build/formats/topojson.ts';

/** Returns `n` finite doubles from random bit patterns (every exponent alike, subnormals included), seeded. */
function randomDoubles(n: number): number[] {
  let seed = 0x9e3779b9;
  const next = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return seed >>> 0;
  };
  const view = new DataView(new ArrayBuffer(8));
  const out: number[] = [];
  while (out.length < n) {
    view.setUint32(0, next());
    view.setUint32(4, next());
    const v = view.getFloat64(0);
    if (Number.isFinite(v)) out.push(v);
  }
  return out;
}

const EDGES = [0, 1, -1, 0.1, 1e-7, 1e-6, 1e20, 1e21, 1e-300, 5e-324, 1.7976931348623157e308, 2 ** 63, 1.5];

test('plainDecimal: no exponent, and the text parses back to the same double', () => {
  // One expect for the loop (each call costs more than the writing it checks).
  const wrong: string[] = [];
  for (const v of [...EDGES, ...EDGES.map((e) => -e), ...randomDoubles(20_000)]) {
    const text = plainDecimal(v);
    const plain = /^-?\d+(\.\d+)?$/.test(text);
    if (!plain || !Object.is(Number(text), v === 0 ? 0 : v)) wrong.push(`${v} → ${text}`); // -0 is written "0"
  }
  expect(wrong).toEqual([]);
  expect(plainDecimal(1e-7)).toBe('0.0000001');
  expect(plainDecimal(-2.5e21)).toBe('-2500000000000000000000');
  expect(plainDecimal(1.5e-10)).toBe('0.00000000015');
});

test('dBase numberText: exactly the field’s decimals, the same double', () => {
  expect(numberText(0.5, 3)).toBe('0.500');
  expect(numberText(2, 1)).toBe('2.0');
  expect(numberText(12, 0)).toBe('12');
  expect(numberText(0.30000000000000004, 17)).toBe('0.30000000000000004');
  expect(Number(numberText(1e-7, 9))).toBe(1e-7);
});

test('TopoJSON jsonText: JSON.parse gives the same value; integers past 2^63 written with an exponent', () => {
  const values = [
    123456789012345680000,
    -(2 ** 63),
    2 ** 62,
    1e21,
    'a"b',
    null,
    true,
    { a: [1, { b: 2 ** 64 }] },
  ];
  for (const v of values) expect(JSON.parse(jsonText(v))).toEqual(v);
  expect(jsonText({ big: 123456789012345680000 })).toBe('{"big":1.2345678901234568e+20}');
  expect(jsonText({ n: 2 ** 62, s: '12345678901234567890' })).toBe(
    JSON.stringify({ n: 2 ** 62, s: '12345678901234567890' }),
  );
  const changed = randomDoubles(2_000).filter((v) => {
    const back = JSON.parse(jsonText([v])) as unknown[];
    return back.length !== 1 || !Object.is(back[0], v);
  });
  expect(changed).toEqual([]);
});

test('TopoJSON grid: 10⁻⁶° steps over longitudes and latitudes; none for extents no 32-bit grid holds', () => {
  expect(quantizationFor([-180, -90, 180, 90])).toBe(360_000_001);
  expect(quantizationFor([10, 10, 10, 10])).toBe(2); // one point
  expect(quantizationFor([0, 0, 100, 1e-9])).toBe(100_000_001); // thin, near the equator
  expect(quantizationFor([-1e300, -1e300, 1e300, 1e300])).toBeUndefined(); // too many grid points
  expect(quantizationFor([-1.7e308, 0, 1.7e308, 1])).toBeUndefined(); // the extent overflows
  expect(quantizationFor([0, 0, 1e-320, 1e-320])).toBeUndefined(); // the step overflows (1 / subnormal)
  expect(quantizationFor([1e9, 0, 1e9 + 1e-4, 1])).toBeUndefined(); // a step lost in rounding far from 0
  expect(quantizationFor([0, 0, 2200, 1])).toBeUndefined(); // over 2^31 steps of 10⁻⁶
});
