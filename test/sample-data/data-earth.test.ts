// The committed sample data (data/earth/, made by scripts/sample-data/) follows
// the corpus' house style. Numbers against manifests are `geoshelf validate`'s job.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const EARTH = join(import.meta.dirname, '../../data/earth');
const LEVEL_FILE = /^([A-Z]{3})_(ADM[0-5])\.geojson$/;

interface Feature {
  id: string;
  properties: Record<string, string>;
  geometry: { type: string; coordinates: number[][][] | number[][][][] };
}

/** Returns every level file `{ISO3}_{LEVEL}.geojson` (not previews or split parts) with its text. */
function levelFiles(): { iso3: string; level: string; path: string; text: string }[] {
  return readdirSync(EARTH).flatMap((iso3) =>
    readdirSync(join(EARTH, iso3)).flatMap((name) => {
      const match = LEVEL_FILE.exec(name);
      if (!match) return [];
      const path = join(EARTH, iso3, name);
      return [{ iso3, level: match[2], path, text: readFileSync(path, 'utf8') }];
    }),
  );
}

/** Returns twice the signed planar area of a closed ring: > 0 when counter-clockwise. */
function signedArea2(ring: number[][]): number {
  let sum = 0;
  for (let i = 0; i + 1 < ring.length; i++) sum += ring[i][0] * ring[i + 1][1] - ring[i + 1][0] * ring[i][1];
  return sum;
}

const files = levelFiles();
const features = (text: string) => (JSON.parse(text) as { features: Feature[] }).features;

describe('data/earth sample data', () => {
  it('has a manifest and an ADM0 outline for every country (~240)', () => {
    const countries = readdirSync(EARTH);
    expect(countries.length).toBeGreaterThanOrEqual(235);
    for (const iso3 of countries) {
      expect(readdirSync(join(EARTH, iso3))).toEqual(
        expect.arrayContaining(['manifest.json', `${iso3}_ADM0.geojson`]),
      );
    }
  });

  it('every level file has one feature per line, a bbox on line 1, "]}" last and no final newline', () => {
    for (const { path, text } of files) {
      const lines = text.split('\n');
      expect(lines[0], path).toMatch(/^\{"type":"FeatureCollection","bbox":\[[-\d.,]+\],"features":\[$/);
      expect(lines.at(-1), path).toBe(']}');
      expect(lines.length - 2, path).toBe(features(text).length);
    }
  });

  it('every feature has an id "{ISO3}:{LEVEL}:…" and house-style properties', () => {
    const problems: string[] = [];
    for (const { iso3, level, path, text } of files) {
      for (const { id, properties } of features(text)) {
        if (!id.startsWith(`${iso3}:${level}:`)) problems.push(`${path}: id ${id}`);
        if (properties.shapeGroup !== iso3 || properties.shapeType !== level)
          problems.push(`${id}: shapeGroup/Type`);
        if (typeof properties.shapeName !== 'string' || typeof properties.shapeISO !== 'string')
          problems.push(`${id}: names`);
        if (level !== 'ADM0' && !/^[A-Z]{3}:ADM\d:/.test(properties.parentID))
          problems.push(`${id}: parentID`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('coordinates are lon/lat with at most 6 decimals, rings closed and wound as RFC 7946 asks', () => {
    const problems: string[] = []; // collected, as one expect per position would take a minute
    for (const { path, text } of files) {
      for (const { id, geometry } of features(text)) {
        if (geometry.type !== 'Polygon' && geometry.type !== 'MultiPolygon')
          problems.push(`${id}: ${geometry.type}`);
        const polygons = (
          geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates
        ) as number[][][][];
        for (const rings of polygons) {
          rings.forEach((ring, i) => {
            const [first, last] = [ring[0], ring[ring.length - 1]];
            if (ring.length < 4 || first[0] !== last[0] || first[1] !== last[1])
              problems.push(`${id}: ring ${i} open`);
            if (signedArea2(ring) > 0 !== (i === 0)) problems.push(`${id}: ring ${i} wound the wrong way`);
            if (ring.some(([x, y]) => Math.abs(x) > 180 || Math.abs(y) > 90))
              problems.push(`${id}: not lon/lat`);
          });
        }
      }
      if (/\d\.\d{7}/.test(text)) problems.push(`${path}: a number with more than 6 decimals`);
    }
    expect(problems).toEqual([]);
  });

  it("Chile's outline is lon/lat and reaches Easter Island", () => {
    const manifest = JSON.parse(readFileSync(join(EARTH, 'CHL/manifest.json'), 'utf8')) as {
      datasets: { level: string; bbox: number[] }[];
    };
    const [west, south, east, north] = manifest.datasets.find((dataset) => dataset.level === 'ADM0')!.bbox;
    expect(west).toBeCloseTo(-109.4, 0);
    expect(south).toBeCloseTo(-55.9, 0);
    expect(east).toBeCloseTo(-66.4, 0);
    expect(north).toBeCloseTo(-17.5, 0);
  });

  it('every USA county (ADM2) names an ADM1 state that exists as its parent', () => {
    const states = new Set(
      features(readFileSync(join(EARTH, 'USA/USA_ADM1.geojson'), 'utf8')).map((f) => f.id),
    );
    const counties = features(readFileSync(join(EARTH, 'USA/USA_ADM2.geojson'), 'utf8'));
    expect(counties.length).toBeGreaterThan(3000);
    for (const county of counties) expect(states.has(county.properties.parentID), county.id).toBe(true);
  });
});
