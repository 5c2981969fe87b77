// The unit facts (build/site/unit-facts.ts) against reference tools, on real
// units of the sample (the long project): every area within 0.1 % of
// GeographicLib's geodesic area on WGS 84 (pyproj's Geod, in .venv-oracle/,
// which .ci/run makes), and every label point within its unit as GEOS judges
// it (shapely, /usr/bin/python3): thin regions (Chile's), concave ones and
// islands (Japan, Canada), the 3,141 U.S. counties (the Aleutians cross
// 180°), and countries split at the antimeridian (Russia, Fiji).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { unitFacts } from '../../build/site/unit-facts.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const VENV_PYTHON = join(ROOT, '.venv-oracle/bin/python');
const dir = mkdtempSync(join(tmpdir(), 'geoshelf-facts-oracle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LEVELS = [
  'URY/URY_ADM1',
  'CHL/CHL_ADM1',
  'JPN/JPN_ADM1',
  'CAN/CAN_ADM1',
  'ARG/ARG_ADM1',
  'USA/USA_ADM2',
  'RUS/RUS_ADM0',
  'FJI/FJI_ADM0',
  'ATA/ATA_ADM0',
];

interface Feature {
  geometry: unknown;
}

function facts(level: string) {
  const path = join(ROOT, `data/earth/${level}.geojson`);
  const features = (JSON.parse(readFileSync(path, 'utf8')) as { features: Feature[] }).features;
  return { path, facts: features.map((f) => unitFacts(f.geometry, 'earth')) };
}

describe('unit facts against GeographicLib and GEOS', () => {
  for (const level of LEVELS) {
    it(`${level}: every area within 0.1 % of GeographicLib's (pyproj Geod, WGS 84)`, () => {
      const { path, facts: ours } = facts(level);
      const out = execFileSync(VENV_PYTHON, [join(ROOT, 'test/geo/area_oracle.py'), path], {
        encoding: 'utf8',
        timeout: 120_000,
      });
      const theirs = JSON.parse(out) as number[];
      expect(theirs).toHaveLength(ours.length);
      const off = ours
        .map((f, i) => ({ i, ours: f.area_km2, theirs: Math.abs(theirs[i]!) / 1e6 }))
        .filter((x) => Math.abs(x.ours - x.theirs) > 1e-3 * x.theirs + 1e-6);
      expect(off).toEqual([]);
    }, 120_000);

    // Antarctica's one polygon is a cap round the pole with the coast as its hole: invalid, nothing is within it.
    if (level.startsWith('ATA')) continue;
    it(`${level}: every label point lies within its unit (GEOS)`, () => {
      const { path, facts: ours } = facts(level);
      const labels = join(dir, `${level.replace('/', '-')}.labels.json`);
      writeFileSync(labels, JSON.stringify(ours.map((f) => f.label)));
      const out = execFileSync('/usr/bin/python3', [join(ROOT, 'test/geo/label_oracle.py'), path, labels], {
        encoding: 'utf8',
        timeout: 120_000,
      });
      const verdict = JSON.parse(out) as { outside: number[]; invalid: number[] };
      expect(verdict.outside).toEqual([]);
    }, 120_000);
  }
});
