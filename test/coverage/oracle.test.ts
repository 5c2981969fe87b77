// The coverage rule against GEOS (issue 29 §1; the long project): shapely
// ≥ 2.1 in .venv-oracle/ (.ci/run makes it) runs CoverageValidator, the
// pairwise intersections and the union's holes on real levels (the 3,231
// us-atlas counties, the sample's CHL ADM1, the corpus's ARG ADM2 part
// AR-C), and on the same levels with three defects injected: an overlap (a
// triangle of one unit inside another), a gap (a 60 m square hole in a
// unit) and an edge nudged (a vertex two units share moved by 1e-7° in one
// of them). The check must find exactly what GEOS finds, areas within 1 %.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { feature } from 'topojson-client';
import type { Topology } from 'topojson-specification';
import { afterAll, describe, expect, it } from 'vitest';
import { checkLevel, type LevelFinding } from '../../build/coverage/cache.ts';
import { GAP_WIDTH_M } from '../../build/coverage/coverage.ts';
import { injectDefects, type Collection } from './inject.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const PYTHON = join(ROOT, '.venv-oracle/bin/python');
const ORACLE = join(ROOT, 'test/coverage/geos_oracle.py');
const R = 6_371_008.8;

interface Oracle {
  invalid: number[];
  overlaps: [number, number, number][];
  holes: [number, number, number][];
}

const dir = mkdtempSync(join(tmpdir(), 'geoshelf-coverage-oracle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes `fc`, lets GEOS judge it (and write the level it judged), and checks that level ourselves. */
async function bothSides(name: string, fc: Collection): Promise<{ oracle: Oracle; findings: LevelFinding[] }> {
  const input = join(dir, `${name}.geojson`);
  const judged = join(dir, `${name}.judged.geojson`);
  writeFileSync(input, JSON.stringify(fc));
  const out = execFileSync(PYTHON, [ORACLE, input, judged, String(R)], {
    encoding: 'utf8',
    timeout: 300_000,
  });
  const { findings } = await checkLevel([{ path: judged, real: judged, sha256: '' }], [], {
    body: 'earth',
    gapWidthM: GAP_WIDTH_M,
  });
  return { oracle: JSON.parse(out) as Oracle, findings };
}

const unitsOf = (f: LevelFinding) => f.units.map((u) => u.feature);

/**
 * Expects our findings to be GEOS's: the same overlapping pairs (an overlap
 * of ours, areas within 1 %, or slivers of edges that do not match), the same
 * invalid units.
 */
function expectSame({ oracle, findings }: { oracle: Oracle; findings: LevelFinding[] }): void {
  const overlaps = findings.filter((f) => f.kind === 'overlap');
  const pairs = new Set(oracle.overlaps.map(([i, j]) => `${i},${j}`));
  expect(overlaps.map((f) => unitsOf(f).join()).filter((p) => !pairs.has(p))).toEqual([]);
  for (const [i, j, area] of oracle.overlaps) {
    const ours = overlaps.find((f) => unitsOf(f).join() === `${i},${j}`);
    if (ours) expect(Math.abs(ours.areaM2 - area) / area).toBeLessThan(0.01);
    else {
      const sliver = findings.find((f) => f.kind === 'edge' && unitsOf(f).includes(i) && unitsOf(f).includes(j));
      expect(sliver, `units ${i} and ${j} overlap by ${area} m²`).toBeDefined();
      expect(sliver!.widthM).toBeLessThanOrEqual(1);
    }
  }
  // Every unit GEOS finds invalid edges on is in a finding. Every finding names one, or is a hole
  // of GEOS's union of the same area: a gap, or the sliver of an edge moved (CoverageValidator at
  // gap width 0 leaves holes alone, and at a width > 0 it flags inlets of the coast too).
  const named = new Set(findings.flatMap(unitsOf));
  expect(oracle.invalid.filter((u) => !named.has(u))).toEqual([]);
  const invalid = new Set(oracle.invalid);
  const hole = (f: LevelFinding) => oracle.holes.some(([area]) => Math.abs(f.areaM2 - area) / area < 0.01);
  expect(findings.filter((f) => !unitsOf(f).some((u) => invalid.has(u)) && !hole(f))).toEqual([]);
  expect(findings.filter((f) => f.kind === 'gap' && !hole(f))).toEqual([]);
}

function counties(): Collection {
  const topology = JSON.parse(
    readFileSync(join(ROOT, 'node_modules/us-atlas-2017/counties-10m.json'), 'utf8'),
  ) as Topology;
  return feature(topology, topology.objects.counties!) as unknown as Collection;
}

const LEVELS: [string, () => Collection][] = [
  ['us-atlas counties', counties],
  ['sample CHL ADM1', () => JSON.parse(readFileSync(join(ROOT, 'data/earth/CHL/CHL_ADM1.geojson'), 'utf8'))],
  [
    'corpus ARG ADM2 part AR-C',
    () =>
      JSON.parse(readFileSync('/work/shared/corpus/world-geojson/data/earth/ARG/ADM2/AR-C.geojson', 'utf8')),
  ],
];

describe('coverage against GEOS (shapely ≥ 2.1)', () => {
  it('the oracle is installed (.venv-oracle, made by .ci/run)', () => {
    expect(existsSync(PYTHON)).toBe(true);
    const version = execFileSync(PYTHON, ['-c', 'import shapely; print(shapely.__version__)'], { encoding: 'utf8' });
    expect(version.trim().split('.').map(Number)).toSatisfy(([major, minor]: number[]) => major! > 2 || (major === 2 && minor! >= 1));
  });

  for (const [name, read] of LEVELS) {
    it(`${name}: the same findings as GEOS`, async () => {
      expectSame(await bothSides(name.replaceAll(' ', '-'), read()));
    }, 300_000);

    it(`${name} with an overlap, a gap and a nudged edge injected: exactly those, areas within 1 % of GEOS's`, async () => {
      const clean = await bothSides(`${name.replaceAll(' ', '-')}-clean`, read());
      const { fc, overlap, gap, edge } = injectDefects(read());
      const dirty = await bothSides(`${name.replaceAll(' ', '-')}-dirty`, fc);
      expectSame(dirty);
      const before = new Set(clean.findings.map((f) => `${f.kind}:${unitsOf(f).join()}`));
      const added = dirty.findings.filter((f) => !before.has(`${f.kind}:${unitsOf(f).join()}`));
      expect(added.map((f) => f.kind).sort()).toEqual(['edge', 'gap', 'overlap']);
      expect(unitsOf(added.find((f) => f.kind === 'overlap')!)).toEqual(overlap);
      const hole = added.find((f) => f.kind === 'gap')!;
      expect(unitsOf(hole)).toEqual([gap]);
      expect(hole.widthM).toBeGreaterThan(59);
      expect(hole.widthM).toBeLessThan(61);
      expect(unitsOf(added.find((f) => f.kind === 'edge')!)).toContain(edge);
    }, 300_000);
  }
});
