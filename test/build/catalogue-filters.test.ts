import { describe, expect, it } from 'vitest';
import {
  comparator,
  matches,
  normalise,
  searchKey,
  type Filters,
  type RowKeys,
} from '../../src/client/catalogue-filters.ts';

const row = (
  name: string,
  es: string,
  iso3: string,
  iso2: string,
  extra: Partial<RowKeys> = {},
): RowKeys => ({
  search: searchKey([name, es, iso3, iso2]),
  name,
  iso3,
  body: 'earth',
  region: '',
  status: 'ok',
  levels: ['ADM0'],
  licenses: ['public-domain'],
  ...extra,
});
const none: Filters = { query: '', body: '', status: '', license: '', level: '' };
const ROWS = [
  row('Chile', 'Chile', 'CHL', 'CL', { levels: ['ADM0', 'ADM1'] }),
  row('Åland Islands', 'Islas Åland', 'ALA', 'AX', { status: 'review' }),
  row('Peru', 'Perú', 'PER', 'PE', { licenses: ['CC-BY-4.0'] }),
  row('Germany', 'Alemania', 'DEU', 'DE'),
];
const found = (filters: Partial<Filters>) =>
  ROWS.filter((r) => matches(r, { ...none, ...filters })).map((r) => r.iso3);

describe('index search', () => {
  it('normalise drops case and diacritics', () => {
    expect(normalise(' Åland PERÚ ')).toBe('aland peru');
  });
  it('name in English or Spanish, any case, with or without accents', () => {
    expect(found({ query: 'chile' })).toEqual(['CHL']);
    expect(found({ query: 'alemania' })).toEqual(['DEU']);
    expect(found({ query: 'aland' })).toEqual(['ALA']);
    expect(found({ query: 'Perú' })).toEqual(['PER']);
  });
  it('ISO3 and ISO2 codes', () => {
    expect(found({ query: 'DEU' })).toEqual(['DEU']);
    expect(found({ query: 'cl' })).toEqual(['CHL']);
    expect(found({ query: 'ax' })).toEqual(['ALA']);
  });
  it('two-letter words match word starts only; longer ones anywhere in a name', () => {
    expect(found({ query: 'er' })).toEqual([]);
    expect(found({ query: 'many' })).toEqual(['DEU']);
  });
  it('filters combine with the query: status, licence, level', () => {
    expect(found({ status: 'review' })).toEqual(['ALA']);
    expect(found({ license: 'CC-BY-4.0' })).toEqual(['PER']);
    expect(found({ level: 'ADM1' })).toEqual(['CHL']);
    expect(found({ level: 'ADM1', query: 'peru' })).toEqual([]);
    expect(found({})).toHaveLength(4);
  });
  it('sorting by ISO3, by status, descending', () => {
    expect([...ROWS].sort(comparator('iso3', false)).map((r) => r.iso3)).toEqual([
      'ALA',
      'CHL',
      'DEU',
      'PER',
    ]);
    expect([...ROWS].sort(comparator('name', true)).map((r) => r.iso3)).toEqual(['PER', 'DEU', 'CHL', 'ALA']);
    expect([...ROWS].sort(comparator('status', false))[3].iso3).toBe('ALA');
  });
});
