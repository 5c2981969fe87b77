// The units of a level (build/site/units.ts) and their API shape
// (build/site/api-units.ts): ids, names, parents, parts, and bboxes, the plain
// one checked against @turf/bbox and the display one across the antimeridian.
import turfBbox from '@turf/bbox';
import type { FeatureCollection } from 'geojson';
import { describe, expect, it } from 'vitest';
import { apiUnits, levelDisplayBbox } from '../../build/site/api-units.ts';
import { bboxes, levelUnits } from '../../build/site/units.ts';
import type { Dataset, Manifest } from '../../build/core/shared/manifest.ts';

const square = (x: number, y: number, d = 1) => ({
  type: 'Polygon',
  coordinates: [
    [
      [x, y],
      [x + d, y],
      [x + d, y + d],
      [x, y + d],
      [x, y],
    ],
  ],
});
const feature = (properties: Record<string, unknown>, geometry: object | null, id?: string) => ({
  type: 'Feature',
  ...(id ? { id } : {}),
  properties,
  geometry,
});
const dataset = (level: string, parts: string[] = []) =>
  ({ level, parts: parts.map((code) => ({ code })) }) as unknown as Dataset;

describe('levelUnits', () => {
  it('unique codes → the code is the id; name, code and parent from shapeName, shapeISO, parentISO', () => {
    const units = levelUnits(
      [
        feature({ shapeName: 'Texas', shapeISO: 'US-TX', parentISO: 'USA' }, square(-100, 30)),
        feature({ shapeName: 'Utah', shapeISO: 'US-UT', parentISO: 'USA' }, square(-112, 39)),
      ],
      dataset('ADM1'),
    );
    expect(units.map((u) => [u.id, u.name, u.code, u.parent])).toEqual([
      ['US-TX', 'Texas', 'US-TX', 'USA'],
      ['US-UT', 'Utah', 'US-UT', 'USA'],
    ]);
  });

  it("no ISO code → the level's own key (a county's FIPS in src_shape_id) is its code; the id stays the feature id", () => {
    const units = levelUnits(
      [
        feature(
          { shapeName: 'Autauga', shapeISO: '', parentISO: 'US-AL', src_shape_id: '01001' },
          square(-86, 32),
          'USA:ADM2:US-AL.01001',
        ),
        feature(
          { shapeName: 'Baldwin', FIPS: '01003', parentISO: 'US-AL' },
          square(-87, 30),
          'USA:ADM2:US-AL.01003',
        ),
      ],
      dataset('ADM2'),
    );
    expect(units.map((u) => [u.id, u.code])).toEqual([
      ['USA-ADM2-US-AL.01001', '01001'],
      ['USA-ADM2-US-AL.01003', '01003'],
    ]);
  });

  it('no codes (US counties) → the feature id, made URL-safe; a part from adm1ISO', () => {
    const units = levelUnits(
      [
        feature(
          { shapeName: 'Autauga', shapeISO: '', parentISO: 'US-AL', adm1ISO: 'US-AL' },
          square(-86, 32),
          'USA:ADM2:US-AL.01001',
        ),
        feature({ shapeName: 'Baldwin', parentISO: 'US-AL' }, square(-87, 30), 'USA:ADM2:US-AL.01003'),
      ],
      dataset('ADM2', ['US-AL']),
    );
    expect(units.map((u) => [u.id, u.parent, u.part])).toEqual([
      ['USA-ADM2-US-AL.01001', 'US-AL', 'US-AL'],
      ['USA-ADM2-US-AL.01003', 'US-AL', 'US-AL'],
    ]);
  });

  it('neither codes nor ids → level and name, a repeat gets "-2"; other name properties kept for search', () => {
    const units = levelUnits(
      [
        feature({ shapeName: 'San José', name_en: 'Saint Joseph' }, square(0, 0)),
        feature({ shapeName: 'San José' }, square(2, 0)),
      ],
      dataset('ADM3'),
    );
    expect(units.map((u) => u.id)).toEqual(['ADM3-San-Jose', 'ADM3-San-Jose-2']);
    expect(units[0].names).toEqual(['Saint Joseph']);
  });

  it('a feature without geometry has no bbox and no map shape: skipped', () => {
    const units = levelUnits([feature({ shapeName: 'Ghost', shapeISO: 'X-G' }, null)], dataset('ADM1'));
    expect(units).toEqual([]);
  });

  it('bbox equals @turf/bbox (plain min/max)', () => {
    const collection = {
      type: 'FeatureCollection',
      features: [
        feature(
          { shapeName: 'A', shapeISO: 'A' },
          {
            type: 'MultiPolygon',
            coordinates: [square(-70, -30).coordinates, square(-75.5, -55.25, 3).coordinates],
          },
        ),
        feature(
          { shapeName: 'F', shapeISO: 'F' },
          {
            type: 'MultiPolygon',
            coordinates: [square(179, -17).coordinates, square(-180, -17, 0.5).coordinates],
          },
        ),
      ],
    };
    const units = levelUnits(collection.features, dataset('ADM1'));
    collection.features.forEach((f, i) => {
      expect(units[i].bbox).toEqual(turfBbox(f as unknown as FeatureCollection));
    });
  });
});

describe('display bbox (RFC 7946 §5.2)', () => {
  it('Fiji-like: -180…180 plainly, west > east for display', () => {
    expect(bboxes([179, 180, -180, -179.5], [-17, -16])).toEqual({
      bbox: [-180, -17, 180, -16],
      display_bbox: [179, -17, -179.5, -16],
    });
  });

  it('a shape that does not cross keeps its plain bbox', () => {
    const { bbox, display_bbox } = bboxes([-75, -66], [-56, -17]);
    expect(display_bbox).toEqual(bbox);
  });

  it('a level: its units’ display boxes joined across the antimeridian; API units carry both boxes and a permalink', () => {
    const units = levelUnits(
      [
        feature({ shapeName: 'West', shapeISO: 'FJ-W' }, square(177, -18)),
        feature(
          { shapeName: 'East', shapeISO: 'FJ-E' },
          {
            type: 'MultiPolygon',
            coordinates: [square(179.5, -17, 0.5).coordinates, square(-180, -17, 1).coordinates],
          },
        ),
      ],
      dataset('ADM1'),
    );
    const atlas = { levels: [{ level: 'ADM1' as const, units }] };
    expect(levelDisplayBbox(atlas, 'ADM1')).toEqual([177, -18, -179, -16]);
    const m = { body: 'earth', iso_a3: 'FJI' } as Manifest;
    const [east] = apiUnits('/x/', m, atlas).ADM1!.slice(1);
    expect(east).toMatchObject({
      id: 'FJ-E',
      bbox: [-180, -17, 180, -16],
      display_bbox: [179.5, -17, -179, -16],
      page: '/x/earth/FJI/#unit-FJ-E',
    });
  });
});
