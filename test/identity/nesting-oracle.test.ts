// The nesting rule's shares of real units against GEOS (shapely 1.8): for
// every unit, 1 − area(unit ∩ parent) / area(unit) with the parent the rule
// finds, on the sample data (Natural Earth provinces in their countries, U.S.
// counties in their states) and the World-GeoJSON corpus (Buenos Aires).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLevelUnits } from '../../build/identity/level.ts';
import { NESTING_LIMIT } from '../../build/identity/nesting.ts';
import { findParents } from '../../build/identity/parents.ts';
import { hasShapely, skipOracle } from '../geometry/oracle.ts';
import { corpusPresent, WORLD_GEOJSON } from '../support/corpus.ts';
import { geos, ORACLE_BOUND_MS } from './oracle.ts';

const SAMPLE = new URL('../../data/earth/', import.meta.url).pathname;

describe.skipIf(skipOracle)('nesting shares of real units against GEOS', () => {
  it('shapely is there (CI fails without it)', () => expect(hasShapely).toBe(true));

  /** Checks every unit's share outside its parent against GEOS's 1 − area(unit ∩ parent) / area(unit). */
  async function compare(child: string, parent: string): Promise<number> {
    const [units, parents] = await Promise.all([readLevelUnits([child]), readLevelUnits([parent])]);
    const found = findParents(units, parents);
    const pairs: [string, number, string, number][] = [];
    found.forEach(({ parent: p }, i) => {
      pairs.push([child, i, child, i], [child, i, parent, Math.max(p, 0)]);
    });
    const answer = geos({ files: [child, parent], pairs });
    let flagged = 0;
    found.forEach(({ parent: p, inside }, i) => {
      const area = answer.pairs[2 * i];
      const shared = answer.pairs[2 * i + 1];
      if (area == null || shared == null || p < 0) return;
      const ours = 1 - inside / units[i]!.shape!.area;
      const theirs = 1 - shared / area;
      expect(Math.abs(ours - theirs), `${child} feature ${i}`).toBeLessThan(1e-9);
      if (theirs > NESTING_LIMIT) flagged++;
    });
    return flagged;
  }

  it(
    'sample data: Natural Earth 1:10m provinces against the 1:50m countries, and the U.S. counties in their states',
    async () => {
      // The ADM0 outlines are coarser than their ADM1 units: coasts and islands stick out (true warnings).
      expect(await compare(`${SAMPLE}CHL/CHL_ADM1.geojson`, `${SAMPLE}CHL/CHL_ADM0.geojson`)).toBe(5);
      expect(await compare(`${SAMPLE}JPN/JPN_ADM1.geojson`, `${SAMPLE}JPN/JPN_ADM0.geojson`)).toBe(34);
      // One topology: every county nests in its state.
      expect(await compare(`${SAMPLE}USA/ADM2/US-MD.geojson`, `${SAMPLE}USA/USA_ADM1.geojson`)).toBe(0);
    },
    ORACLE_BOUND_MS,
  );

  it.skipIf(!corpusPresent(WORLD_GEOJSON))(
    'World-GeoJSON: Buenos Aires partidos and comunas filed under a city drawn elsewhere',
    async () => {
      const arg = join(WORLD_GEOJSON, 'data/earth/ARG');
      expect(await compare(join(arg, 'ADM2/AR-C.geojson'), join(arg, 'ARG_ADM1.geojson'))).toBe(12);
    },
    ORACLE_BOUND_MS,
  );
});
