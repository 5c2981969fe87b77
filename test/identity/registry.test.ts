// Unit IDs across two releases of the U.S. counties (and states): an ID
// survives a refresh while the unit is the same place, merges and splits get
// new IDs linked both ways, and every county's parent_id is its state.
import { describe, expect, it } from 'vitest';
import type { RegistryUnit } from '../../build/core/shared/api.ts';
import { readLevelUnits, type LevelUnit } from '../../build/identity/level.ts';
import { identifyCountry, type LevelVintage } from '../../build/identity/registry.ts';
import { DEFAULT_THRESHOLDS } from '../../build/identity/thresholds.ts';
import { EDITS, vintages } from '../support/vintages.ts';
import { METRES_PER_DEGREE } from '../../build/core/shared/crs.ts';

const v = vintages();
const IGNORED = new Set(['shapeName', 'shapeISO', 'src_shape_id', 'id', 'parentID', 'parentISO']);
const level = (level: 'ADM1' | 'ADM2', file: string, units: LevelUnit[]): LevelVintage => ({
  level,
  units,
  places: units.map((_, feature) => ({ file, feature })),
});

async function release(
  version: string,
  counties: string,
  states: string,
  registry: Map<string, RegistryUnit>,
  previous?: { counties: LevelVintage; states: LevelVintage; ids: { ADM1: string[]; ADM2: string[] } },
) {
  const [c, s] = await Promise.all([readLevelUnits([counties], 'src_shape_id'), readLevelUnits([states])]);
  const levels = [level('ADM1', 'states.geojson', s), level('ADM2', 'counties.geojson', c)];
  const prev = new Map(
    previous
      ? [
          ['ADM1', { units: previous.states.units, ids: previous.ids.ADM1 }] as const,
          ['ADM2', { units: previous.counties.units, ids: previous.ids.ADM2 }] as const,
        ]
      : [],
  );
  const r = await identifyCountry({
    country: 'USA',
    version,
    levels,
    previous: prev,
    registry,
    thresholds: DEFAULT_THRESHOLDS,
    perDegree: METRES_PER_DEGREE.earth,
    ignored: IGNORED,
  });
  const ids = {
    ADM1: r.units.filter((u) => u.level === 'ADM1').map((u) => u.id),
    ADM2: r.units.filter((u) => u.level === 'ADM2').map((u) => u.id),
  };
  return { ...r, ids, counties: levels[1]!, states: levels[0]! };
}

describe('unit IDs across releases', () => {
  it('every unit gets a distinct opaque ID; a county’s parent_id is its state (by parentISO)', async () => {
    const registry = new Map<string, RegistryUnit>();
    const first = await release('1', v.counties2017, v.states2017, registry);
    expect(first.changes).toEqual([]); // nothing to compare with
    expect(new Set(first.units.map((u) => u.id)).size).toBe(first.units.length);
    for (const u of first.units) expect(u.id).toMatch(/^[0-9a-hjkmnp-tv-z]{12}$/);
    const stateOf = new Map(first.units.filter((u) => u.level === 'ADM1').map((u) => [u.id, u.code]));
    const counties = first.units.filter((u) => u.level === 'ADM2');
    const wrong = counties.filter(
      (u, i) => stateOf.get(u.parent_id ?? '') !== first.counties.units[i]!.parent,
    );
    expect(wrong).toEqual([]);
  });

  it('a refresh with known edits keeps every other ID; merge and split get new IDs with supersedes/superseded_by', async () => {
    const registry = new Map<string, RegistryUnit>();
    const first = await release('1', v.counties2017, v.states2017, registry);
    const idOf = new Map(first.units.filter((u) => u.level === 'ADM2').map((u) => [u.code, u.id]));
    const second = await release('2', v.counties2017Edited, v.states2017, registry, first);
    const now = new Map(second.units.filter((u) => u.level === 'ADM2').map((u) => [u.code, u]));
    // Renamed and re-coded units keep their IDs.
    expect(now.get(EDITS.rename.code)!.id).toBe(idOf.get(EDITS.rename.code));
    expect(now.get(EDITS.recode.to)!.id).toBe(idOf.get(EDITS.recode.from));
    expect(now.get(EDITS.recode.to)!.last_changed).toBe('2');
    expect(now.get(EDITS.boundary.gains)!.id).toBe(idOf.get(EDITS.boundary.gains));
    // The merge: both old units are superseded by one new unit.
    const merged = now.get(EDITS.merge.into)!;
    expect(merged.id).not.toBe(idOf.get(EDITS.merge.into));
    expect(merged.first_seen).toBe('2');
    expect(merged.supersedes?.sort()).toEqual(
      [idOf.get(EDITS.merge.into), idOf.get(EDITS.merge.absorbed)].sort(),
    );
    for (const code of [EDITS.merge.into, EDITS.merge.absorbed]) {
      const old = registry.get(idOf.get(code)!)!;
      expect([old.superseded_by, old.last_seen, old.file]).toEqual([[merged.id], '1', undefined]);
    }
    // The split: one old unit, two new ones.
    const parts = EDITS.split.into.map((code) => now.get(code)!);
    expect(registry.get(idOf.get(EDITS.split.code)!)!.superseded_by?.sort()).toEqual(
      parts.map((p) => p.id).sort(),
    );
    // Everything else: the same ID, seen in both releases, unchanged since the first but for the moved boundary.
    const untouched = [...now.values()].filter(
      (u) =>
        ![
          EDITS.rename.code,
          EDITS.recode.to,
          EDITS.merge.into,
          ...EDITS.split.into,
          EDITS.boundary.gains,
          EDITS.boundary.loses,
        ].includes(u.code),
    );
    expect(untouched.length).toBe(3142 - 7);
    expect(
      untouched.filter((u) => u.id !== idOf.get(u.code) || u.last_changed !== '1' || u.last_seen !== '2'),
    ).toEqual([]);
    expect(second.changes.map((c) => c.type).sort()).toEqual([
      'geometry',
      'geometry',
      'merged',
      'recoded',
      'renamed',
      'split',
    ]);
  });

  it('parent_id by largest overlap when the data has no parent code', async () => {
    const registry = new Map<string, RegistryUnit>();
    const [c, s] = await Promise.all([
      readLevelUnits([v.counties2017], 'src_shape_id'),
      readLevelUnits([v.states2017]),
    ]);
    for (const u of c) u.parent = '';
    const r = await identifyCountry({
      country: 'USA',
      version: '1',
      levels: [level('ADM1', 's', s), level('ADM2', 'c', c)],
      previous: new Map(),
      registry,
      thresholds: DEFAULT_THRESHOLDS,
      perDegree: METRES_PER_DEGREE.earth,
      ignored: IGNORED,
    });
    const stateOf = new Map(r.units.filter((u) => u.level === 'ADM1').map((u) => [u.id, u.code]));
    const counties = r.units.filter((u) => u.level === 'ADM2');
    // Falls Church has no area in this vintage: no parent without a code.
    const wrong = counties.filter(
      (u, i) => c[i]!.shape && stateOf.get(u.parent_id ?? '') !== c[i]!.properties.parentISO,
    );
    expect(wrong).toEqual([]);
    expect(counties.filter((u) => u.parent_id === null).map((u) => u.name)).toEqual(['Falls Church']);
  });
});
