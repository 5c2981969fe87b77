// Identity follows geometry first: codes and names shuffled among units are
// renames and re-codes, never merges and splits; a removed unit that comes
// back gets its old ID; a respelling is a respelling; and every feed entry
// names its units' codes and names. On the counties of Rhode Island
// (Census 2015 and 2017 editions).
import { describe, expect, it } from 'vitest';
import type { RegistryUnit, ReleaseChange } from '../../build/core/shared/api.ts';
import type { LevelUnit } from '../../build/identity/level.ts';
import { matchUnits } from '../../build/identity/match.ts';
import { identifyCountry, retiredFromReleases, type PreviousLevel } from '../../build/identity/registry.ts';
import { DEFAULT_THRESHOLDS } from '../../build/identity/thresholds.ts';
import { counties, unit, type Feature } from './counties.ts';
import { METRES_PER_DEGREE } from '../../build/core/shared/crs.ts';

const IGNORED = new Set(['shapeName', 'shapeISO', 'src_shape_id']);
const COLUMN = ['44007', '44003', '44009']; // Providence, Kent and Washington, north to south

/** Releases levels of Rhode Island's counties one after another, as `release` does. */
class Releases {
  readonly registry = new Map<string, RegistryUnit>();
  readonly released = new Map<string, { ids: string[]; units: LevelUnit[] }>(); // by version
  private previous?: PreviousLevel;
  private version = 0;

  async release(units: LevelUnit[]): Promise<{ ids: string[]; changes: ReleaseChange[] }> {
    const r = await identifyCountry({
      country: 'USA',
      version: String(++this.version),
      levels: [
        { level: 'ADM2', units, places: units.map((_, feature) => ({ file: 'ri.geojson', feature })) },
      ],
      previous: new Map(this.previous ? [['ADM2', this.previous] as const] : []),
      registry: this.registry,
      thresholds: DEFAULT_THRESHOLDS,
      perDegree: METRES_PER_DEGREE.earth,
      ignored: IGNORED,
      retired: retiredFromReleases(async (version) => this.released.get(version)),
    });
    const ids = r.units.map((u) => u.id);
    this.released.set(String(this.version), { ids, units });
    this.previous = { units, ids };
    return { ids, changes: r.changes };
  }
}

/** Returns `features` with the codes and names of the counties `codes` rotated: each takes the next one's. */
function rotated(features: Feature[], codes: string[]): LevelUnit[] {
  const of = (code: string) => features.find((f) => f.properties.src_shape_id === code)!.properties;
  return features.map((f) => {
    const k = codes.indexOf(f.properties.src_shape_id as string);
    if (k < 0) return unit(f);
    const next = of(codes[(k + 1) % codes.length]!);
    return unit({
      ...f,
      properties: { ...f.properties, src_shape_id: next.src_shape_id, shapeName: next.shapeName },
    });
  });
}

const types = (changes: ReleaseChange[]) => changes.map((c) => c.type).sort();

describe('identity follows geometry first when codes and names are shuffled', () => {
  it('three counties in a column rotate codes and names, no geometry change: each keeps its ID, 3 renamed and 3 re-coded', async () => {
    const ri = counties(2017, 'US-RI');
    const r = new Releases();
    const first = await r.release(ri.map((f) => unit(f)));
    const second = await r.release(rotated(ri, COLUMN));
    expect(second.ids).toEqual(first.ids);
    expect(types(second.changes)).toEqual(['recoded', 'recoded', 'recoded', 'renamed', 'renamed', 'renamed']);
    // Each entry names the unit by its code and name now.
    const kent = second.changes.find((c) => c.type === 'recoded' && c.from === '44003');
    expect(kent).toMatchObject({
      id: first.ids[ri.findIndex((f) => f.properties.src_shape_id === '44003')],
      code: '44009',
      name: 'Washington',
      to: '44009',
      by: 'geometry',
    });
  });

  it('the same rotation with every line drawn again (2015 → 2017): the same IDs, renamed and re-coded', async () => {
    const r = new Releases();
    const first = await r.release(counties(2015, 'US-RI').map((f) => unit(f)));
    const second = await r.release(rotated(counties(2017, 'US-RI'), COLUMN));
    expect(second.ids).toEqual(first.ids);
    const labels = types(second.changes.filter((c) => c.type !== 'geometry'));
    expect(labels).toEqual(['recoded', 'recoded', 'recoded', 'renamed', 'renamed', 'renamed']);
  });

  it('two counties swap codes: both keep their IDs and are re-coded', async () => {
    const ri = counties(2017, 'US-RI');
    const r = new Releases();
    const first = await r.release(ri.map((f) => unit(f)));
    const swapped = ri.map((f) => {
      const code = f.properties.src_shape_id;
      const other = code === '44001' ? '44005' : code === '44005' ? '44001' : code;
      return unit({ ...f, properties: { ...f.properties, src_shape_id: other } });
    });
    const second = await r.release(swapped);
    expect(second.ids).toEqual(first.ids);
    expect(second.changes.map((c) => c.type === 'recoded' && [c.from, c.to, c.name])).toEqual(
      expect.arrayContaining([
        ['44001', '44005', 'Bristol'],
        ['44005', '44001', 'Newport'],
      ]),
    );
    expect(second.changes.length).toBe(2);
  });
});

describe('a unit restored after a removal gets its old ID back', () => {
  const ri = counties(2017, 'US-RI');
  const without = (code: string, list: Feature[]) => list.filter((f) => f.properties.src_shape_id !== code);

  it('Bristol removed in release 2 and back in release 3: its old ID, reported as added and restored', async () => {
    const r = new Releases();
    const first = await r.release(ri.map((f) => unit(f)));
    const bristol = first.ids[ri.findIndex((f) => f.properties.src_shape_id === '44001')]!;
    const second = await r.release(without('44001', ri).map((f) => unit(f)));
    expect(second.changes).toEqual([
      { type: 'removed', country: 'USA', level: 'ADM2', id: bristol, code: '44001', name: 'Bristol' },
    ]);
    const third = await r.release(ri.map((f) => unit(f)));
    expect(third.ids).toEqual(first.ids);
    expect(third.changes).toEqual([
      {
        type: 'added',
        country: 'USA',
        level: 'ADM2',
        id: bristol,
        code: '44001',
        name: 'Bristol',
        restored: true,
      },
    ]);
    expect(r.registry.get(bristol)).toMatchObject({
      first_seen: '1',
      last_seen: '3',
      last_changed: '3',
      file: 'ri.geojson',
    });
  });

  it('back drawn by another source (the 2015 edition), with its code: its old ID', async () => {
    const r = new Releases();
    const first = await r.release(ri.map((f) => unit(f)));
    await r.release(without('44001', ri).map((f) => unit(f)));
    const back = [
      ...without('44001', ri),
      counties(2015, 'US-RI').find((f) => f.properties.src_shape_id === '44001')!,
    ];
    const third = await r.release(back.map((f) => unit(f)));
    expect(third.ids.at(-1)).toBe(first.ids[ri.findIndex((f) => f.properties.src_shape_id === '44001')]);
    expect(third.changes).toMatchObject([{ type: 'added', restored: true, code: '44001' }]);
  });

  it('a new unit in a place no removed unit held, with a new code, gets a new ID', async () => {
    const r = new Releases();
    const first = await r.release(ri.map((f) => unit(f)));
    await r.release(without('44001', ri).map((f) => unit(f)));
    const elsewhere = counties(2017, 'US-CT')[0]!;
    const third = await r.release([...without('44001', ri), elsewhere].map((f) => unit(f)));
    expect(first.ids).not.toContain(third.ids.at(-1));
    expect(third.changes).toEqual([
      expect.objectContaining({ type: 'added', code: elsewhere.properties.src_shape_id }),
    ]);
    expect(third.changes[0]).not.toHaveProperty('restored');
  });
});

describe('a rename that only respells is spelling_only: case, diacritics, hyphens and spaces do not count', () => {
  const renamed = (from: string, to: string) => {
    const f = counties(2017, 'US-RI')[0]!;
    const named = (name: string) => unit({ ...f, properties: { ...f.properties, shapeName: name } });
    const c = matchUnits(
      [named(from)],
      [named(to)],
      DEFAULT_THRESHOLDS,
      METRES_PER_DEGREE.earth,
      IGNORED,
    ).changes;
    expect(c).toHaveLength(1);
    return c[0]!.type === 'renamed' && c[0]!.spelling_only;
  };

  it.each([
    ['Bío-Bío', 'Biobío'],
    ['Bío Bío', 'BIOBIO'],
    ['Los Ríos', 'Los Rios'],
    ['Santa Cruz de Tenerife', 'Santa Cruz De Tenerife'],
    ["Côte d'Ivoire", 'Cote dIvoire'],
    ['Washington, D.C.', 'Washington DC'],
  ])('%s → %s is a respelling', (from, to) => expect(renamed(from, to)).toBe(true));

  it.each([
    ['Dade', 'Miami-Dade'],
    ['Oglala Lakota', 'Shannon'],
    ['Antofagasta', 'Antofagasta Norte'],
    ['Saint-Denis', 'Saint-Denis-de-Pile'],
    ['San Juan', 'San Julián'],
  ])('%s → %s is a real rename', (from, to) => expect(renamed(from, to)).toBe(false));
});
