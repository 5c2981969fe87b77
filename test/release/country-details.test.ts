// A country described differently is a `country-changed` entry (issue 26):
// which manifest fields are the country's description, in process on the
// fixture's Fiji. The same through `release` and the built pages, with two
// releases and a build: test/release/trust-pages.test.ts (long project).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detailChanges } from '../../build/release/country-details.ts';

type Manifest = Record<string, unknown> & {
  name: Record<string, string>;
  source: Record<string, string>;
  datasets: Record<string, unknown>[];
};
const FIJI = new URL('../fixtures/build/data/earth/FJI/manifest.json', import.meta.url);
const fiji = () => JSON.parse(readFileSync(FIJI, 'utf8')) as Manifest;

describe('country-changed: the fields that describe a country', () => {
  it('a new name, source licence and level licence are each listed, sorted by field, from → to', () => {
    const now = fiji();
    now.name.en = 'Republic of Fiji';
    now.source.license = 'CC0-1.0';
    now.datasets[0]!.license = 'CC0-1.0';
    expect(detailChanges(fiji(), now)).toEqual([
      { field: 'ADM0.license', from: 'CC-BY-4.0', to: 'CC0-1.0' },
      { field: 'name.en', from: 'Fiji', to: 'Republic of Fiji' },
      { field: 'source.license', from: 'CC-BY-4.0', to: 'CC0-1.0' },
    ]);
  });

  it('a field added or removed is from or to null (notes added, a Spanish name dropped)', () => {
    const now = fiji();
    now.notes = 'Rotuma included';
    delete now.name.es;
    expect(detailChanges(fiji(), now)).toEqual([
      { field: 'name.es', from: 'Fiyi', to: null },
      { field: 'notes', from: null, to: 'Rotuma included' },
    ]);
  });

  it('the measured numbers, the file paths and the preview simplification are no description', () => {
    const now = fiji();
    Object.assign(now.datasets[0]!, {
      bytes: 1,
      sha256: '0'.repeat(64),
      features: 9,
      bbox: [0, 0, 1, 1],
      path: 'data/earth/FJI/other.geojson',
      properties: ['x'],
    });
    now.datasets[0]!.preview = { path: 'data/earth/FJI/preview/p.geojson', simplification: 0.5 };
    expect(detailChanges(fiji(), now)).toEqual([]);
  });

  it('a level only one manifest has is not described field by field: it is reported added or removed', () => {
    const now = fiji();
    now.datasets.push({ ...now.datasets[0]!, level: 'ADM1', license: 'ODbL-1.0' });
    expect(detailChanges(fiji(), now)).toEqual([]);
    expect(detailChanges(now, fiji())).toEqual([]);
  });

  it('a manifest that is not what the schema says (datasets not a list) is compared without a crash', () => {
    const now = { ...fiji(), datasets: 'none' };
    expect(detailChanges(fiji(), now)).toEqual([]);
  });
});
