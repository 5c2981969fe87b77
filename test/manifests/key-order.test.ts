// A manifest's fields are set the way people keep manifests (build/manifest/key-order.ts).
import { describe, expect, it } from 'vitest';
import type { Dataset } from '../../build/core/shared/manifest.ts';
import { withFields } from '../../build/manifest/key-order.ts';

const dataset: Dataset = {
  level: 'ADM2',
  path: 'data/earth/XTA/XTA_ADM2.geojson',
  features: 13,
  bbox: [0, 0, 1, 1],
  geometry_types: { Polygon: 13 },
  properties: ['shapeName'],
  license: 'CC0-1.0',
  unassigned: 3,
};

describe('withFields', () => {
  it('a new key goes after the last present anchor; an existing key keeps its place; undefined removes', () => {
    const out = withFields(dataset, { preview: 'p', preview_bytes: 9, unassigned: undefined }, [
      'properties',
      'preview',
    ]);
    expect(Object.keys(out)).toEqual([
      'level',
      'path',
      'features',
      'bbox',
      'geometry_types',
      'properties',
      'preview',
      'preview_bytes',
      'license',
    ]);
    const again = withFields(out, { preview_bytes: 10, split_by: 'ADM1' }, ['preview_bytes']);
    expect(Object.keys(again).slice(5, 9)).toEqual(['properties', 'preview', 'preview_bytes', 'split_by']);
    expect(again.preview_bytes).toBe(10);
  });
});
