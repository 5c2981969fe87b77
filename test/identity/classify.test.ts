// The re-digitisation rule (build/identity/classify.ts): a unit is judged
// against the noise of its neighbours, never its own offset, so a unit that
// moves, grows or shrinks while its neighbours stay put is a boundary
// change, while a level redrawn everywhere keeps the wide limits. On real
// counties: Rhode Island and Vermont in the Census 2015 and 2017 editions.
import { describe, expect, it } from 'vitest';
import type { LevelUnit } from '../../build/identity/level.ts';
import { matchUnits, type Change } from '../../build/identity/match.ts';
import { identifyCountry, type LevelVintage, type PreviousLevel } from '../../build/identity/registry.ts';
import type { Level } from '../../build/core/shared/manifest.ts';
import { median, neighbourMedians } from '../../build/identity/noise.ts';
import { DEFAULT_THRESHOLDS } from '../../build/identity/thresholds.ts';
import { scale, translate, type MP } from '../release/model/geometry.ts';
import { rng } from '../release/model/level.ts';
import { counties, state, unit, type Feature } from './counties.ts';
import { METRES_PER_DEGREE } from '../../build/core/shared/crs.ts';

type Geometry = Extract<Change, { type: 'geometry' }>;
const IGNORED = new Set(['shapeName', 'shapeISO', 'src_shape_id']);

/** Returns the geometry changes from `olds` to `news` (county lists), by FIPS code. */
function geometryChanges(
  olds: Feature[],
  news: Feature[],
  edit?: [string, (g: MP) => MP],
  perDegree = METRES_PER_DEGREE.earth, // the body's, e.g. METRES_PER_DEGREE.moon
): Map<string, Geometry> {
  const after = news.map((f) =>
    unit(f, edit && f.properties.src_shape_id === edit[0] ? edit[1](f.geometry) : f.geometry),
  );
  const r = matchUnits(
    olds.map((f) => unit(f)),
    after,
    DEFAULT_THRESHOLDS,
    perDegree,
    IGNORED,
  );
  expect(r.identity.size).toBe(olds.length);
  const out = new Map<string, Geometry>();
  for (const c of r.changes) if (c.type === 'geometry') out.set(after[c.new]!.code, c);
  return out;
}

const kinds = (changes: Map<string, Geometry>) =>
  Object.fromEntries([...changes].map(([code, c]) => [code, c.kind]));

describe('re-digitisation is judged against the neighbours, not the pair itself', () => {
  it('distances are metres of the body: a county moved 150 m on the Earth is a boundary change; the same move in degrees on the Moon is 41 m, a re-digitisation', () => {
    const ri = counties(2017, 'US-RI');
    const move: [string, (g: MP) => MP] = ['44009', (g) => translate(g, 150, 0)]; // 150 m of the Earth's
    const earth = geometryChanges(ri, ri, move).get('44009')!;
    const moon = geometryChanges(ri, ri, move, METRES_PER_DEGREE.moon).get('44009')!;
    expect([earth.kind, moon.kind]).toEqual(['boundary', 'redigitised']);
    // The Moon's IAU 2015 sphere (1,737,400 m) against the WGS 84 equator (6,378,137 m).
    expect(moon.max_distance_m! / earth.max_distance_m!).toBeCloseTo(1_737_400 / 6_378_137, 9);
    expect(Math.round(moon.max_distance_m!)).toBe(41);
  });

  it('a county whose radius doubles while its neighbours stay put is a boundary change (one lineage)', () => {
    const ri = counties(2017, 'US-RI');
    const changes = geometryChanges(ri, ri, ['44003', (g) => scale(g, 2)]);
    expect(kinds(changes)).toEqual({ '44003': 'boundary' });
    // Every vertex moved by kilometres, the pair's own ν with them: it is not the noise.
    expect(changes.get('44003')!.offset_m).toBeGreaterThan(2000);
    expect(changes.get('44003')!.reference_offset_m).toBe(0);
  });

  it('a county shrunk to 0.9 or moved whole by 1.5 km, its neighbours unchanged, is a boundary change', () => {
    const ri = counties(2017, 'US-RI');
    expect(kinds(geometryChanges(ri, ri, ['44007', (g) => scale(g, 0.9)]))).toEqual({ '44007': 'boundary' });
    expect(kinds(geometryChanges(ri, ri, ['44009', (g) => translate(g, 1500, 0)]))).toEqual({
      '44009': 'boundary',
    });
  });

  it('a level redrawn everywhere (2015 → 2017, independent sources) keeps the wide limits: every county re-digitised', () => {
    const changes = geometryChanges(counties(2015, 'US-VT'), counties(2017, 'US-VT'));
    expect(changes.size).toBe(14);
    expect(Object.values(kinds(changes)).filter((k) => k !== 'redigitised')).toEqual([]);
    for (const c of changes.values()) expect(c.reference_offset_m).toBeGreaterThan(10);
  });

  it('in that redrawn level, a county grown by 1.5 or moved whole by 3 km still stands out as a boundary change', () => {
    const [y2015, y2017] = [counties(2015, 'US-VT'), counties(2017, 'US-VT')];
    const grown = geometryChanges(y2015, y2017, ['50017', (g) => scale(g, 1.5)]);
    expect(grown.get('50017')!.kind).toBe('boundary');
    const moved = geometryChanges(y2015, y2017, ['50017', (g) => translate(g, 0, 3000)]);
    expect(moved.get('50017')!.kind).toBe('boundary');
    // The others are the re-digitisation they were.
    expect([...moved].filter(([code, c]) => code !== '50017' && c.kind !== 'redigitised')).toEqual([]);
  });
});

describe('a level of one unit is judged by its lineage: the country’s larger levels', () => {
  /** Releases Vermont as ADM0 (the state) and ADM1 (its counties): `before` then `after`. */
  async function vermont(
    before: { adm0: LevelUnit; adm1: LevelUnit[] },
    after: { adm0: LevelUnit; adm1?: LevelUnit[] },
  ) {
    const level = (l: 'ADM0' | 'ADM1', units: LevelUnit[]): LevelVintage => ({
      level: l,
      units,
      places: units.map((_, feature) => ({ file: `${l}.geojson`, feature })),
    });
    const registry = new Map();
    const base = {
      country: 'USA',
      registry,
      thresholds: DEFAULT_THRESHOLDS,
      perDegree: METRES_PER_DEGREE.earth,
      ignored: IGNORED,
    };
    const levels = (x: { adm0: LevelUnit; adm1?: LevelUnit[] }) =>
      x.adm1 ? [level('ADM0', [x.adm0]), level('ADM1', x.adm1)] : [level('ADM0', [x.adm0])];
    const first = await identifyCountry({
      ...base,
      version: '1',
      levels: levels(before),
      previous: new Map(),
    });
    const ids = (l: string) => first.units.filter((u) => u.level === l).map((u) => u.id);
    const previous = new Map<Level, PreviousLevel>([['ADM0', { units: [before.adm0], ids: ids('ADM0') }]]);
    if (after.adm1) previous.set('ADM1', { units: before.adm1, ids: ids('ADM1') });
    const second = await identifyCountry({ ...base, version: '2', levels: levels(after), previous });
    return second.changes.find((c) => c.type === 'geometry' && c.level === 'ADM0') as Geometry | undefined;
  }
  const vt = (year: 2015 | 2017) => ({
    adm0: unit(state(year, 'US-VT')),
    adm1: counties(year, 'US-VT').map((f) => unit(f)),
  });

  it('the state redrawn with its counties (2015 → 2017) is re-digitised, as its counties are', async () => {
    const change = await vermont(vt(2015), vt(2017));
    expect(change?.kind).toBe('redigitised');
    expect(change?.reference_offset_m).toBeGreaterThan(10);
  });

  it('the state grown by 5 % while its counties are redrawn is a boundary change', async () => {
    const grown = {
      ...vt(2017),
      adm0: unit(state(2017, 'US-VT'), scale(state(2017, 'US-VT').geometry, 1.05)),
    };
    expect((await vermont(vt(2015), grown))?.kind).toBe('boundary');
  });

  it('without a larger level, the fixed limits: even a state redrawn by an independent source is a boundary change', async () => {
    expect((await vermont(vt(2015), { adm0: vt(2017).adm0 }))?.kind).toBe('boundary');
    expect((await vermont(vt(2017), { adm0: vt(2017).adm0 }))?.kind).toBe(undefined);
  });
});

describe('the neighbours’ noise: the median offset of the k nearest other pairs', () => {
  it('agrees with a brute-force search on random points, clustered and spread, for k = 1, 3, 8 and more than there are', () => {
    const random = rng(7);
    for (const [n, spread] of [
      [1, 1],
      [2, 1],
      [9, 1],
      [300, 1e6],
      [300, 1],
      [500, 0],
    ] as const) {
      // Half the points in a tight cluster, half spread out: the grid's cells are uneven.
      const xs = Float64Array.from({ length: n }, (_, i) => (i % 2 ? spread : 1) * random() * 1000);
      const ys = Float64Array.from({ length: n }, (_, i) => (i % 2 ? spread : 1) * random() * 1000);
      const values = Float64Array.from({ length: n }, () => Math.floor(random() * 100));
      // Each point's others, nearest first (ties by index), and the distances: computed once for every k.
      const order = Array.from({ length: n }, (_, i) => {
        const d = (j: number) => (xs[i]! - xs[j]!) ** 2 + (ys[i]! - ys[j]!) ** 2;
        const others = [...Array(n).keys()].filter((j) => j !== i).map((j) => [d(j), j] as const);
        return others.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      });
      for (const k of [1, 3, 8, 1000]) {
        const got = neighbourMedians(xs, ys, values, k);
        // Ties at the k-th distance make the choice of neighbours arbitrary: compare where it is unique.
        const wrong = order.filter((others, i) => {
          const tied = k < others.length && others[k - 1]![0] === others[k]![0];
          return !tied && !Object.is(got[i], median(others.slice(0, k).map(([, j]) => values[j]!)));
        });
        expect(wrong).toEqual([]);
      }
    }
  });
});
