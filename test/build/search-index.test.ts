// The place search: shards written by build/site/search-index.ts, matched and
// ranked by src/client/place-ranking.ts exactly as the browser does (the shards
// of the query's words, queryShardKeys()).
import { describe, expect, it } from 'vitest';
import type { CountryAtlas } from '../../build/site/atlas.ts';
import { renderSearchIndex } from '../../build/site/search-index.ts';
import { levelUnits } from '../../build/site/units.ts';
import type { Dataset, Level, Manifest } from '../../build/core/shared/manifest.ts';
import type { LoadedManifest } from '../../build/manifest/validate.ts';
import { fold, nameShardKeys, SHARD_LIST, shardKey, shardPath, words } from '../../build/core/shared/fold.ts';
import type { SearchRecord } from '../../build/core/shared/api.ts';
import { correctQuery } from '../../src/client/did-you-mean.ts';
import { editDistance } from '../../build/core/shared/edit-distance.ts';
import { queryShardKeys, rank } from '../../src/client/place-ranking.ts';
import { tableCountries } from '../../src/client/place-search.ts';

const manifest = (iso_a3: string, en: string, iso_a2?: string, m49_region?: string) =>
  ({ body: 'earth', iso_a3, iso_a2, name: { en }, m49_region, datasets: [] }) as unknown as Manifest;
const unit = (shapeName: string, shapeISO: string, parentISO: string, x = 0) => ({
  properties: { shapeName, shapeISO, parentISO },
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [x, 0],
        [x + 1, 0],
        [x, 1],
        [x, 0],
      ],
    ],
  },
});
const level = (name: Level, features: ReturnType<typeof unit>[]) => ({
  level: name,
  units: levelUnits(features, { level: name } as Dataset),
});

const countries: [string, string, string?, string?][] = [
  ['GBR', 'United Kingdom', 'GB', 'Northern Europe'],
  ['NLD', 'Netherlands', 'NL', 'Western Europe'],
  ['MMR', 'Myanmar', 'MM'],
  ['CIV', "Côte d'Ivoire", 'CI'],
  ['TUR', 'Türkiye', 'TR'],
  ['SWZ', 'Eswatini', 'SZ'],
  ['FJI', 'Fiji', 'FJ'],
  ['CHL', 'Chile', 'CL', 'South America'],
  ['USA', 'United States', 'US', 'Northern America'],
  ['DEU', 'Germany', 'DE', 'Western Europe'],
  ['CUB', 'Cuba', 'CU', 'Caribbean'],
  ['ARG', 'Argentina', 'AR', 'South America'],
];
const loaded: LoadedManifest[] = countries.map(([iso, en, iso2, region]) => ({
  file: `data/earth/${iso}/manifest.json`,
  manifest: manifest(iso, en, iso2, region),
  text: '',
}));
const atlas = new Map<string, CountryAtlas>([
  [
    'data/earth/USA/manifest.json',
    {
      levels: [
        level('ADM1', [unit('Texas', 'US-TX', 'USA'), unit('Missouri', 'US-MO', 'USA', 2)]),
        level('ADM2', [
          unit('Texas', '', 'US-MO'),
          unit('Texas County', '', 'US-OK', 3),
          unit('Dallas', '', 'US-TX'),
        ]),
      ],
    },
  ],
  [
    'data/earth/CHL/manifest.json',
    {
      levels: [
        level('ADM1', [
          unit('Región Metropolitana de Santiago', 'CL-RM', 'CHL'),
          unit('Bío Bío', 'CL-BI', 'CHL'),
        ]),
      ],
    },
  ],
  [
    'data/earth/DEU/manifest.json',
    { levels: [level('ADM1', [unit('Bayern', 'DE-BY', 'DEU'), unit('Niedersachsen', 'DE-NI', 'DEU', 2)])] },
  ],
  [
    'data/earth/CUB/manifest.json',
    {
      levels: [
        level('ADM1', [unit('Santiago de Cuba', 'CU-13', 'CUB'), unit('La Habana', 'CU-03', 'CUB', 2)]),
      ],
    },
  ],
]);
// One unit with its facts (build/site/unit-files.ts gives them to units read from their level's own file).
const dallas = atlas.get('data/earth/USA/manifest.json')!.levels[1]!.units.find((u) => u.name === 'Dallas')!;
Object.assign(dallas, {
  area_km2: 2350.5,
  label: [-96.78, 32.77],
  geojson: 'api/v1/earth/USA/units/ADM2/x.geojson',
});
const files = renderSearchIndex(loaded, atlas);

const published = new Set(JSON.parse(files.get(SHARD_LIST)!) as string[]);

/** Returns the shards the browser loads for `query`: those of its words that are published. */
function shardsOf(query: string): SearchRecord[][] {
  return queryShardKeys(query, published).map((key) => {
    const text = files.get(shardPath(key));
    if (!text) throw new Error(`${shardPath(key)} is listed in ${SHARD_LIST} but not written`);
    return JSON.parse(text) as SearchRecord[];
  });
}

/** Returns [name, kind, level, country, parent] of the results, as the browser ranks them. */
function hits(query: string) {
  return rank(shardsOf(query), query);
}
function search(query: string) {
  return hits(query).map(({ record: r }) => [r[1], r[0], r[3], r[4], r[5]]);
}
const names = (query: string) => search(query).map((r) => r[0]);

describe('search index', () => {
  it.each([
    ['UK', 'United Kingdom'],
    ['Britain', 'United Kingdom'],
    ['Holland', 'Netherlands'],
    ['Burma', 'Myanmar'],
    ['Ivory Coast', "Côte d'Ivoire"],
    ['Turkey', 'Türkiye'],
    ['Türkiye', 'Türkiye'],
    ['Swaziland', 'Eswatini'],
    ['Eswatini', 'Eswatini'],
    ['Fiyi', 'Fiji'],
    ['Fidji', 'Fiji'],
  ])('a country by another name or language (world-countries): %s → %s', (query, country) => {
    expect(names(query)[0]).toBe(country);
  });

  it('a unit by name, with its level, country and parent named', () => {
    expect(search('Dallas')).toEqual([['Dallas', 'u', 'ADM2', 'United States', 'Texas']]);
    expect(search('Santiago')[0]).toEqual([
      'Región Metropolitana de Santiago',
      'u',
      'ADM1',
      'Chile',
      'Chile',
    ]);
  });

  it("a unit's result carries its area, label point and GeoJSON link; one without facts carries none", () => {
    const [hit] = hits('Dallas');
    expect(hit!.record[10]).toEqual([2350.5, -96.78, 32.77, 'ADM2/x']); // the file under the country's units folder
    expect(hit!.record[9]).toBe(''); // no release ID
    expect(hits('US-TX')[0]!.record.length).toBe(8);
  });

  it('a unit by code: "US-TX" → Texas', () => {
    expect(names('US-TX')).toEqual(['Texas']);
  });

  it('accent- and case-insensitive: "bio bio", "REGION METRO" find Bío Bío and the Región Metropolitana', () => {
    expect(names('bio bio')).toEqual(['Bío Bío']);
    expect(names('REGION METRO')).toEqual(['Región Metropolitana de Santiago']);
  });

  it('ranking: exact name, then prefix, then word prefix; at equal match ADM1 before ADM2', () => {
    expect(search('texas').map((r) => [r[0], r[2]])).toEqual([
      ['Texas', 'ADM1'],
      ['Texas', 'ADM2'],
      ['Texas County', 'ADM2'],
    ]);
  });

  it('countries before their units: "chile" → Chile first', () => {
    expect(names('chile')[0]).toBe('Chile');
  });

  it('M49 regions are found and list their countries', () => {
    const [region] = search('South America');
    expect(region.slice(0, 3)).toEqual(['South America', 'r', 'M49']);
  });

  it('shards are published in a folder per first character (another script by its 256-code-point block), and nothing else is', () => {
    expect(['te', 't_e9', '_6771_4eac', '_e6_72'].map(shardPath)).toEqual([
      'search/t/te.json',
      'search/t/t_e9.json',
      'search/_67/_6771_4eac.json',
      'search/_0/_e6_72.json',
    ]);
  });

  it('a shard lists only names with a word in it, and holds every record once', () => {
    const te = JSON.parse(files.get('search/t/te.json')!) as SearchRecord[];
    for (const record of te) {
      expect(record[2].every((n) => words(fold(n)).some((w) => w.startsWith('te')))).toBe(true);
    }
    expect(new Set(te.map((r) => r[6] + r[1])).size).toBe(te.length);
  });

  it.each([
    ['Bavaria', 'Bayern'],
    ['Lower Saxony', 'Niedersachsen'],
    ['Havana', 'La Habana'],
  ])('a subdivision by its English name (vendored iso3166-2-db/CLDR names): %s → %s', (query, unit) => {
    expect(names(query)[0]).toBe(unit);
  });

  it('a subdivision by a name in another language, ranked after own and English names: "Baviera" → Bayern', () => {
    expect(names('Baviera')[0]).toBe('Bayern');
    expect(hits('Baviera')[0].via).toBe('Baviera');
  });

  it('"unit country": "santiago chile" finds the Chilean unit first, not Santiago de Cuba', () => {
    expect(names('santiago chile')[0]).toBe('Región Metropolitana de Santiago');
    expect(names('santiago cuba')[0]).toBe('Santiago de Cuba');
    expect(names('dallas united states')).toEqual(['Dallas']);
    expect(names('dallas chile')).toEqual([]);
  });

  it('a units-only result puts the countries containing the units in the table', () => {
    expect([...tableCountries(hits('Bavaria'))]).toEqual(['DEU']);
    expect([...tableCountries(hits('chile'))]).toEqual(['CHL']); // a country found: only it
  });

  it('words and shard keys: dotted initials are one word, a shard is two characters, non-ASCII by code point', () => {
    expect(words(fold('Washington, D.C.'))).toEqual(['washington', 'dc']);
    expect(words(fold("Côte d'Ivoire"))).toEqual(['cote', 'd', 'ivoire']);
    expect(words(fold('  St. Helena -- 2 '))).toEqual(['st', 'helena', '2']);
    expect([shardKey('texas'), shardKey('東京'), shardKey('𝔸b'), shardKey('x')]).toEqual([
      'te',
      '_6771_4eac',
      '_1d538b',
      'x',
    ]);
    expect(nameShardKeys(words(fold('Santiago de Cuba')))).toEqual(['sa', 'cu']);
    expect(nameShardKeys(words(fold('La Paz de la Sierra')))).toEqual(['la', 'pa', 'si']);
  });

  it('no match → nothing; one letter loads no shard', () => {
    expect(search('zzzz')).toEqual([]);
    const shardFiles = [...files.keys()].filter((f) => f !== SHARD_LIST);
    expect(shardFiles.every((f) => /^search\/[a-z0-9_]+\/[a-z0-9_]{2,}\.json$/.test(f))).toBe(true);
  });

  it(`${SHARD_LIST} lists every shard written, so a word no name starts ("xyzzy") requests none`, () => {
    const written = [...files.keys()].filter((f) => f !== SHARD_LIST);
    expect([...published].map(shardPath).sort()).toEqual(written.sort());
    expect(queryShardKeys('xyzzy')).toEqual(['xy']); // without the list it would be requested (a 404)
    expect(queryShardKeys('xyzzy', published)).toEqual([]);
    expect(queryShardKeys('xyzzy texas', published)).toEqual(['te']);
  });

  it('a code and a name together: "CL-RM santiago" → the Región Metropolitana, matched by its code', () => {
    expect(names('CL-RM santiago')).toEqual(['Región Metropolitana de Santiago']);
    expect(hits('santiago CL-RM')[0].via).toBe('CL-RM');
    expect(names('US-TX dallas')).toEqual([]); // Dallas is not US-TX: its names hold no "tx"
    expect(names('CL-RM santiago chile')).toEqual(['Región Metropolitana de Santiago']); // and its country
  });

  it('typo tolerance: a query that finds nothing is corrected from the loaded shards ("argentna" → "argentina")', () => {
    expect(search('argentna')).toEqual([]);
    const corrected = correctQuery(shardsOf('argentna'), 'argentna');
    expect(corrected).toBe('argentina');
    expect(names(corrected!)[0]).toBe('Argentina');
    expect(correctQuery(shardsOf('argnetina'), 'argnetina')).toBe('argentina'); // two letters swapped
    expect(correctQuery(shardsOf('niedersachsn'), 'niedersachsn')).toBe('niedersachsen');
    expect(correctQuery(shardsOf('santaigo chile'), 'santaigo chile')).toBe('santiago chile');
    expect(correctQuery(shardsOf('texas'), 'texas')).toBeUndefined(); // nothing to correct
    expect(correctQuery(shardsOf('tex'), 'tex')).toBeUndefined(); // being typed
    expect(correctQuery(shardsOf('argxxxxna'), 'argxxxxna')).toBeUndefined(); // too far from any name
  });

  it('edit distance: insertions, deletions, substitutions and swapped neighbours count one each', () => {
    expect(editDistance('argentna', 'argentina', 2)).toBe(1);
    expect(editDistance('argnetina', 'argentina', 2)).toBe(1);
    expect(editDistance('kitten', 'sitting', 5)).toBe(3);
    expect(editDistance('kitten', 'sitting', 1)).toBe(2); // max + 1 once past max
    expect(editDistance('', 'abc', 5)).toBe(3);
    expect(editDistance('valdiate', 'validate')).toBe(1); // no bound: the CLI's "did you mean"
  });
});

describe('search index: other bodies', () => {
  const mars = {
    file: 'data/mars/MCQ/manifest.json',
    manifest: { body: 'mars', iso_a3: 'MCQ', name: { en: 'Mars Chart (MC) quadrangles' }, datasets: [] },
    text: '',
  } as unknown as LoadedManifest;
  // A Moon manifest whose code happens to be an Earth country's.
  const moon = {
    file: 'data/moon/CHL/manifest.json',
    manifest: { body: 'moon', iso_a3: 'CHL', name: { en: 'Lunar quadrangles' }, datasets: [] },
    text: '',
  } as unknown as LoadedManifest;
  const quad = (shapeName: string, code: string) => ({
    ...unit(shapeName, '', ''),
    properties: { shapeName, shapeISO: '', parentISO: '', code },
  });
  const bodyAtlas = new Map<string, CountryAtlas>([
    [mars.file, { levels: [level('QUAD', [quad('Mare Boreum', 'MC-01'), quad('Diacria', 'MC-02')])] }],
  ]);
  const bodyFiles = renderSearchIndex([mars, moon], bodyAtlas);
  const keys = new Set(JSON.parse(bodyFiles.get(SHARD_LIST)!) as string[]);
  const find = (query: string) =>
    rank(
      queryShardKeys(query, keys).map((key) => JSON.parse(bodyFiles.get(shardPath(key))!) as SearchRecord[]),
      query,
    ).map(({ record: r }) => [r[1], r[3], r[6]]);

  it.each(['Mare Boreum', 'MC-01', 'mare bor'])('a quadrangle of Mars by its name or code: %s', (query) => {
    expect(find(query)[0]).toEqual(['Mare Boreum', 'QUAD', 'mars/MCQ/#unit-MC-01']);
  });

  it("another body's manifest takes no Earth country's names (a Moon code CHL is not Chile)", () => {
    expect(find('Chile')).toEqual([]);
    expect(find('South America')).toEqual([]);
  });
});
