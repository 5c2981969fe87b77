import { describe, expect, it } from 'vitest';
import { bboxOf, cleanArea, featureCollectionText, round6 } from '../../scripts/sample-data/geometry.ts';

// A unit square, counter-clockwise (RFC 7946 outer ring), and its clockwise copy.
const CCW = [
  [0, 0],
  [1, 0],
  [1, 1],
  [0, 1],
  [0, 0],
];
const CW = [...CCW].reverse();

describe('round6', () => {
  it('rounds to 6 decimals and prints without trailing zeros', () => {
    expect(JSON.stringify([round6(-70.1234567), round6(12.5000004), round6(0.1 + 0.2)])).toBe(
      '[-70.123457,12.5,0.3]',
    );
  });
  it('never yields -0', () => {
    expect(Object.is(round6(-0.0000001), 0)).toBe(true);
  });
});

describe('cleanArea', () => {
  it('winds the outer ring counter-clockwise and holes clockwise (RFC 7946)', () => {
    const hole = [
      [0.25, 0.25],
      [0.75, 0.25],
      [0.75, 0.75],
      [0.25, 0.25],
    ];
    expect(cleanArea({ type: 'Polygon', coordinates: [CW, hole] })).toEqual({
      type: 'Polygon',
      coordinates: [CCW, [...hole].reverse()],
    });
  });
  it('closes an open ring and drops repeated positions after rounding', () => {
    const open = [
      [0, 0],
      [1, 0],
      [1.0000001, 0],
      [1, 1],
      [0, 1],
    ];
    expect(cleanArea({ type: 'Polygon', coordinates: [open] })).toEqual({
      type: 'Polygon',
      coordinates: [CCW],
    });
  });
  it('drops polygons with no area left, and returns a Polygon when one remains', () => {
    const flat = [
      [0, 0],
      [1, 1],
      [0, 0],
      [0, 0],
    ];
    expect(cleanArea({ type: 'MultiPolygon', coordinates: [[flat], [CCW]] })).toEqual({
      type: 'Polygon',
      coordinates: [CCW],
    });
  });
  it('returns undefined when nothing remains', () => {
    expect(
      cleanArea({
        type: 'Polygon',
        coordinates: [
          [
            [5, 5],
            [5, 5.0000001],
            [5, 5],
            [5, 5],
          ],
        ],
      }),
    ).toBeUndefined();
  });
});

describe('featureCollectionText', () => {
  it('writes the corpus layout: bbox on line 1, one feature per line, "]}" last, no final newline', () => {
    const square = { type: 'Polygon' as const, coordinates: [CCW] };
    const text = featureCollectionText([
      { id: 'AAA:ADM0:AAA', properties: { shapeName: 'A' }, geometry: square },
      { id: 'BBB:ADM0:BBB', properties: { shapeName: 'B' }, geometry: square },
    ]);
    const lines = text.split('\n');
    expect(lines[0]).toBe('{"type":"FeatureCollection","bbox":[0,0,1,1],"features":[');
    expect(lines[1]).toBe(
      '{"type":"Feature","id":"AAA:ADM0:AAA","properties":{"shapeName":"A"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]}},',
    );
    expect(lines[2].endsWith('}}')).toBe(true);
    expect(lines[3]).toBe(']}');
    expect(lines).toHaveLength(4);
  });
  it('bbox is the plain min/max, so a level crossing the antimeridian spans -180…180', () => {
    const east = {
      type: 'Polygon' as const,
      coordinates: [
        [
          [179, 0],
          [180, 0],
          [180, 1],
          [179, 0],
        ],
      ],
    };
    const west = {
      type: 'Polygon' as const,
      coordinates: [
        [
          [-180, 0],
          [-179, 0],
          [-180, 1],
          [-180, 0],
        ],
      ],
    };
    expect(bboxOf([east, west])).toEqual([-180, 0, 180, 1]);
  });
});
