// `geoshelf repair ISO3/LEVEL` (issue 29 §4) on the sample's CHL ADM1 with
// three defects injected (test/coverage/inject.ts): an overlap (a triangle
// of one unit inside another), a 60 m square gap, and a shared vertex nudged
// by 1e-7° in one unit. The copy must pass validate's coverage rule, each
// defect repaired as documented, the original untouched. In-process; GEOS
// judges the same copy in oracle.test.ts (long).
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../build/core/errors.ts';
import { repairedPath, repairLevel, type LevelRepair } from '../../build/repair/repair-level.ts';
import { areaM2 } from '../../build/repair/repair.ts';
import { checkLevel } from '../../build/coverage/cache.ts';
import { cli } from '../support/cli.ts';
import { ADM1, defectiveTree } from './tree.ts';

const TMP = mkdtempSync(join(tmpdir(), 'geoshelf-repair-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('geoshelf repair CHL/ADM1 with an overlap, a gap and a nudged edge injected', () => {
  let tree: Awaited<ReturnType<typeof defectiveTree>>;
  let repaired: LevelRepair;
  let original: string;
  beforeAll(async () => {
    tree = await defectiveTree(TMP);
    const real = join(tree.root, ADM1);
    original = sha256(real);
    const before = await checkLevel([{ path: ADM1, real, sha256: '' }], [], {
      body: 'earth',
      gapWidthM: 100,
    });
    expect(new Set(before.findings.map((f) => f.kind))).toEqual(new Set(['overlap', 'gap', 'edge'])); // there to repair
    repaired = await repairLevel(tree.root, 'CHL/ADM1');
  });

  it('the copy passes the coverage rule; the original is untouched; the copy is beside it by default', () => {
    expect(repaired.problems).toEqual([]);
    expect(sha256(join(tree.root, ADM1))).toBe(original);
    expect(repaired.out).toBe(join(tree.root, 'data/earth/CHL/CHL_ADM1.repaired.geojson'));
    expect(repairedPath(ADM1)).toBe('data/earth/CHL/CHL_ADM1.repaired.geojson');
  });

  it('the overlap goes to the unit it lies inside (the longer shared border), cut from the other', () => {
    expect(repaired.overlaps).toBe(1);
    const [x, y] = tree.overlap.map((i) => repaired.units[i]!);
    const changes = [x!, y!].map((u) => u.afterM2 - u.beforeM2);
    // One of the two loses the triangle; the one it lies inside keeps its area.
    expect(changes.filter((d) => d === 0)).toHaveLength(1);
    expect(Math.min(...changes)).toBeLessThan(-1e6);
  });

  it('the gap (a 60 m square) goes to the unit that borders it all round, within 1 % of 3,600 m²', () => {
    expect(repaired.gaps).toBe(1);
    const g = repaired.units[tree.gap]!;
    expect(Math.abs(g.afterM2 - g.beforeM2 - 3600) / 3600).toBeLessThan(0.01);
  });

  it('the nudged vertex is snapped back, and no other unit moves by more than a sliver', () => {
    expect(repaired.snapped).toBeGreaterThanOrEqual(1);
    const others = repaired.units.filter((_, i) => !tree.overlap.includes(i) && i !== tree.gap);
    for (const u of others) expect(Math.abs(u.afterM2 - u.beforeM2)).toBeLessThan(100);
  });

  it('every unit is reported with its area change, as the CLI prints it', async () => {
    const out = join(TMP, 'elsewhere.geojson');
    const r = await cli('repair', '--root', tree.root, '--out', out, 'chl/adm1');
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /elsewhere\.geojson: \d+ vert(ex|ices) snapped, .*1 overlap given to one unit, 1 gap filled$/,
    );
    expect(lines.slice(1)).toHaveLength(repaired.units.length);
    expect(
      lines.filter((l) => /^ {2}".*" \(CL-[A-Z]+\): (unchanged|[+-][\d,.]+ (m|km)²)/.test(l)),
    ).toHaveLength(repaired.units.length);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(repaired.out, 'utf8'));
  });

  it('--out naming the level itself → a usage error, the original untouched', async () => {
    await expect(repairLevel(tree.root, 'CHL/ADM1', { out: join(tree.root, ADM1) })).rejects.toThrow(
      UsageError,
    );
    expect(sha256(join(tree.root, ADM1))).toBe(original);
  });

  it('a level the manifest does not have, or a selector that is not ISO3/LEVEL → one line, no stack', async () => {
    const noLevel = await cli('repair', '--root', tree.root, 'CHL/ADM3');
    expect(noLevel.code).toBe(1);
    expect(noLevel.stderr).toMatch(/CHL\/ADM3: no such dataset/);
    const bad = await cli('repair', '--root', tree.root, 'CHL');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/"CHL": expected ISO3\/LEVEL/);
  });
});

describe('areaM2: the area a unit reports', () => {
  it('a hole wound the same way as its outer ring (against RFC 7946) is still taken away', () => {
    const square = (x: number, y: number, d: number): [number, number][] => [
      [x, y],
      [x + d, y],
      [x + d, y + d],
      [x, y + d],
      [x, y],
    ];
    const outer = areaM2([[square(0, 0, 1)]], 6_371_008.8);
    const hole = areaM2([[square(0.25, 0.25, 0.5)]], 6_371_008.8);
    const against = areaM2([[square(0, 0, 1), square(0.25, 0.25, 0.5).reverse()]], 6_371_008.8);
    const alike = areaM2([[square(0, 0, 1), square(0.25, 0.25, 0.5)]], 6_371_008.8);
    expect(against).toBeCloseTo(outer - hole, 3);
    expect(alike).toBeCloseTo(outer - hole, 3);
  });
});
