// The level reader (build/identity/level.ts) takes positions flat from the
// one GeoJSON reader; its units must be exactly those of parsing each feature
// whole: the same code, name, parent code, properties and shape (rings closed,
// repeated positions dropped, degenerate rings left out, winding fixed).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { levelUnit, readLevelUnits } from '../../build/identity/level.ts';
import { sameShape } from '../../build/identity/shape.ts';

const FILES = [
  'data/earth/USA/USA_ADM1.geojson', // multipolygons with holes
  'data/earth/CHL/CHL_ADM1.geojson',
  'test/fixtures/manifests/false/geometry/data/earth/URY/URY_ADM1.geojson', // a bow-tie and an unclosed ring
];

describe('level reader', () => {
  for (const file of FILES) {
    it(`${file}: the flat reader's units equal those of JSON.parse`, async () => {
      const features = (JSON.parse(readFileSync(file, 'utf8')) as { features: unknown[] }).features;
      const expected = features.map((f) => levelUnit(f));
      const read = await readLevelUnits([file]);
      expect(read.length).toBe(expected.length);
      read.forEach((u, i) => {
        const e = expected[i]!;
        expect({ ...u, shape: undefined }).toEqual({ ...e, shape: undefined });
        expect(u.shape === undefined).toBe(e.shape === undefined);
        if (u.shape && e.shape) {
          expect(sameShape(u.shape, e.shape)).toBe(true);
          expect(u.shape.area).toBe(e.shape.area);
        }
      });
    });
  }
});
