// The coverage rule (issue 29 §1) on small fixtures sorted by verdict:
// true/ levels are coverages (shared edges matched vertex for vertex, an
// island filling a hole, a lake wider than the gap width), each false/ level
// has one defect (an overlap, a narrow gap, a vertex moved by 1e-7°, a vertex
// one neighbour lacks) and lists in FILE.expected.txt the exact lines
// validate prints. In-process; GEOS checks real levels in oracle.test.ts (long).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatProblem } from '../../build/core/problem.ts';
import { checkLevel } from '../../build/coverage/cache.ts';
import { coverageEdges } from '../../build/coverage/edges.ts';
import { GAP_WIDTH_M } from '../../build/coverage/coverage.ts';
import { shapeOf } from '../../build/identity/shape.ts';
import { coverageProblem } from '../../build/manifest/validate-coverage.ts';

const FIXTURES = new URL('../fixtures/coverage/', import.meta.url).pathname;
const files = (verdict: string) => readdirSync(join(FIXTURES, verdict)).filter((f) => f.endsWith('.geojson'));

/** Returns the lines validate prints for the level in `path` (named as in the expected files). */
async function lines(path: string, gapWidthM = GAP_WIDTH_M): Promise<string[]> {
  const name = `test/fixtures/coverage/${path}`;
  const level = await checkLevel([{ path: name, real: join(FIXTURES, path), sha256: '' }], [], {
    body: 'earth',
    gapWidthM,
  });
  return level.findings.map((f) => formatProblem(coverageProblem(f, false)));
}

describe('coverage: levels sorted by verdict', () => {
  for (const file of files('true')) {
    it(`true/${file}: a coverage, no problems`, async () => {
      expect(await lines(`true/${file}`)).toEqual([]);
    });
  }

  for (const file of files('false')) {
    it(`false/${file}: reports exactly the expected lines`, async () => {
      const expected = readFileSync(join(FIXTURES, 'false', file.replace(/\.geojson$/, '.expected.txt')), 'utf8');
      expect(await lines(`false/${file}`)).toEqual(expected.split('\n').filter(Boolean));
    });
  }

  it('gap width: a hole wider than --gap-width is no gap (the 56 m gap at 50 m, the 1.85 km lake at 2 km)', async () => {
    expect(await lines('false/gap.geojson', 50)).toEqual([]);
    const lake = await lines('true/lake.geojson', 2000);
    expect(lake).toHaveLength(1);
    expect(lake[0]).toMatch(/: gap of 4\.\d\d km² \(1\.\d km wide\) inside "West" \(XX-W\) near /);
  });

  it('detail: kind, the units as JSON pointers, the area in m² and a point inside the overlap', async () => {
    const real = join(FIXTURES, 'false/overlap.geojson');
    const level = await checkLevel([{ path: 'level.geojson', real, sha256: '' }], [], {
      body: 'earth',
      gapWidthM: GAP_WIDTH_M,
    });
    const { detail } = coverageProblem(level.findings[0]!, true);
    // 0.02° × 0.001° at 33.45° S: 2,224 m × 111 m.
    expect(detail).toMatchObject({ kind: 'overlap', features: ['/features/1', '/features/2'] });
    expect(detail!.area_m2).toBeCloseTo(206_329, -2);
    const [lon, lat] = detail!.point;
    expect(lon).toBeGreaterThan(-70.56);
    expect(lon).toBeLessThan(-70.54);
    expect(lat).toBeGreaterThan(-33.45);
    expect(lat).toBeLessThan(-33.449);
  });
});

describe('coverageEdges: the shared-edge topology of a level', () => {
  it('matches each shared segment with its neighbour’s, running the other way; the outline stays unmatched', () => {
    const fc = JSON.parse(readFileSync(join(FIXTURES, 'true/grid.geojson'), 'utf8')) as {
      features: { geometry: unknown }[];
    };
    const shapes = fc.features.map((f) => shapeOf(f.geometry));
    const { first, unit, twin } = coverageEdges(shapes);
    for (let s = 0; s < twin.length; s++) {
      if (twin[s]! >= 0) expect(twin[twin[s]!]).toBe(s);
    }
    const matched = (u: number) => {
      let n = 0;
      for (let s = first[u]!; s < first[u + 1]!; s++) if (twin[s]! >= 0) n++;
      return n;
    };
    // West: its hole (the island) and 3 east edges; South-east: 5 shared; North-east: 4; the island: all 4.
    expect([0, 1, 2, 3].map(matched)).toEqual([7, 5, 4, 4]);
    expect(unit[first[3]!]).toBe(3);
  });
});
