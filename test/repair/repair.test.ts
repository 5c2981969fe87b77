// `geoshelf repair ISO3/LEVEL` (issue 29 §4) on the sample's CHL ADM1 with
// three defects injected (test/coverage/inject.ts): an overlap (a triangle
// of one unit inside another), a 60 m square gap, and a shared vertex nudged
// by 1e-7° in one unit; and on the sample's USA ADM2 published only as
// parts, with its invalid units (us-atlas's zero-width spikes and rings
// touching themselves) and edges that do not match across two parts. The
// copy must pass validate's geometry and coverage rules, each defect
// repaired as documented, the original untouched; `--json` says the same
// for programs (checked on the parts, whose repair costs a third of CHL's).
// In-process; GEOS judges the copies in oracle.test.ts (long).
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../build/core/errors.ts';
import type { Problem } from '../../build/core/problem.ts';
import { checkLevel, type LevelCoverage } from '../../build/coverage/cache.ts';
import { checkGeometry } from '../../build/geometry/validity.ts';
import {
  repairedPartPath,
  repairedPath,
  repairLevel,
  type LevelRepair,
} from '../../build/repair/repair-level.ts';
import { areaM2, repairUnits } from '../../build/repair/repair.ts';
import type { RepairJson } from '../../src/cli/commands/repair.ts';
import type { Collection } from '../coverage/inject.ts';
import { cli } from '../support/cli.ts';
import { ADM1, defectiveTree, partsTree } from './tree.ts';

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
    expect(repaired.files.map((f) => f.out)).toEqual([
      join(tree.root, 'data/earth/CHL/CHL_ADM1.repaired.geojson'),
    ]);
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
      /elsewhere\.geojson: 0 invalid units made valid, \d+ vert(ex|ices) snapped, .*1 overlap given to one unit, 1 gap filled$/,
    );
    expect(lines.slice(1)).toHaveLength(repaired.units.length);
    expect(
      lines.filter((l) => /^ {2}".*" \(CL-[A-Z]+\): (unchanged|[+-][\d,.]+ (m|km)²)/.test(l)),
    ).toHaveLength(repaired.units.length);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(repaired.files[0]!.out, 'utf8'));
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

/** Returns the features of a GeoJSON file. */
const featuresOf = (path: string) => (JSON.parse(readFileSync(path, 'utf8')) as Collection).features;

describe("geoshelf repair USA/ADM2 published only as parts (the sample's CA, NV, OR and VA counties)", () => {
  let tree: Awaited<ReturnType<typeof partsTree>>;
  let before: LevelCoverage;
  let invalid: number;
  let sums: string[];
  let repaired: LevelRepair;
  beforeAll(async () => {
    tree = await partsTree(TMP, ['US-CA', 'US-NV', 'US-OR', 'US-VA']);
    const files = tree.parts.map((path) => ({ path, real: join(tree.root, path), sha256: '' }));
    before = await checkLevel(files, [], { body: 'earth', gapWidthM: 100 });
    const geometries = tree.parts.flatMap((path) =>
      featuresOf(join(tree.root, path)).map((f) => f.geometry!),
    );
    invalid = geometries.filter((g) => checkGeometry(g.type, g.coordinates)).length;
    sums = tree.parts.map((path) => sha256(join(tree.root, path)));
    repaired = await repairLevel(tree.root, 'USA/ADM2');
  });

  it('the parts hold what repair is for: invalid units, and edges that do not match across two parts', () => {
    expect(invalid).toBeGreaterThanOrEqual(3);
    const across = before.findings.filter((f) => new Set(f.units.map((u) => u.file)).size > 1);
    expect(across.map((f) => f.units.map((u) => u.name))).toContainEqual(['Modoc', 'Washoe']);
  });

  it('is repaired as one level: a copy of each part in ADM2.repaired/ under its own name, its units in order; the parts untouched', () => {
    expect(repaired.parts).toBe(true);
    expect(repaired.files.map((f) => f.copy)).toEqual(tree.parts.map(repairedPartPath));
    expect(repairedPartPath('data/earth/USA/ADM2/US-CA.geojson')).toBe(
      'data/earth/USA/ADM2.repaired/US-CA.geojson',
    );
    for (const [k, part] of tree.parts.entries()) {
      const copy = featuresOf(repaired.files[k]!.out);
      expect(copy.map((f) => f.properties)).toEqual(
        featuresOf(join(tree.root, part)).map((f) => f.properties),
      );
    }
    expect(tree.parts.map((path) => sha256(join(tree.root, path)))).toEqual(sums);
  });

  it('every invalid unit is made valid and none is lost: the copy passes the geometry and coverage rules', () => {
    expect(repaired.madeValid).toBe(invalid);
    expect(repaired.problems).toEqual([]);
    for (const file of repaired.files)
      for (const f of featuresOf(file.out))
        expect(checkGeometry(f.geometry!.type, f.geometry!.coordinates)).toBeUndefined();
    expect(repaired.units.filter((u) => !(u.afterM2 > 0))).toEqual([]);
  });

  it('making a unit valid drops spikes and untwists rings, which hold no area: each unit changes by a sliver at most', () => {
    for (const u of repaired.units)
      expect(Math.abs(u.afterM2 - u.beforeM2) / u.beforeM2, u.label).toBeLessThan(1e-4);
  });

  it("--out DIR: each part copied into DIR under its own name; a DIR that is the parts' own folder → a usage error", async () => {
    const dir = join(TMP, 'usa-adm2');
    const r = await cli('repair', '--root', tree.root, '--out', dir, 'usa/adm2');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(
      new RegExp(`^4 parts of USA/ADM2 in ${dir}/: ${repaired.madeValid} invalid units made valid, `),
    );
    for (const file of repaired.files)
      expect(readFileSync(join(dir, file.source.split('/').at(-1)!), 'utf8')).toBe(
        readFileSync(file.out, 'utf8'),
      );
    const over = await cli(
      'repair',
      '--root',
      tree.root,
      '--out',
      join(tree.root, 'data/earth/USA/ADM2'),
      'USA/ADM2',
    );
    expect(over.code).toBe(2);
    expect(over.stderr).toMatch(
      /--out: .*US-CA\.geojson is a file of the level: repair never writes over one/,
    );
    expect(tree.parts.map((path) => sha256(join(tree.root, path)))).toEqual(sums);
  });
  it("--json: one object on stdout, the copies, the counts, each unit's area before, after and change (m², to 0.1), the problems left", async () => {
    // On this level rather than CHL's (a repair of CHL costs three times more): each unit's file is its part's copy.
    const dir = join(TMP, 'usa-adm2-json');
    const r = await cli('repair', '--root', tree.root, '--json', '--out', dir, 'USA/ADM2');
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout) as RepairJson;
    const copyIn = (path: string) => join(dir, basename(path));
    expect(json).toMatchObject({
      level: 'USA/ADM2',
      gap_width_m: 100,
      files: tree.parts.map((p) => ({ source: join(tree.root, p), copy: copyIn(p) })), // named from here, as validate names them
      made_valid: repaired.madeValid,
      snapped: repaired.snapped,
      noded: repaired.noded,
      overlaps: repaired.overlaps,
      gaps: repaired.gaps,
      problems: [],
    });
    expect(new Set(json.units.map((u) => u.file)).size).toBe(tree.parts.length);
    expect(json.units).toHaveLength(repaired.units.length);
    json.units.forEach((u, i) => {
      const unit = repaired.units[i]!;
      expect(u).toMatchObject({ file: copyIn(unit.file), pointer: `/features/${unit.feature}` });
      expect([u.name, u.code]).toEqual([unit.name, unit.code]); // a county has no code: none printed
      expect(u.area_before_m2).toBeCloseTo(unit.beforeM2, 0);
      expect(u.area_after_m2).toBeCloseTo(unit.afterM2, 0);
      expect(u.area_change_m2).toBeCloseTo(u.area_after_m2 - u.area_before_m2, 0);
    });
  });

  it("--json: a problem left is validate --json's; a unit drawn as a line, which no repair can give an area, keeps its geometry problem", async () => {
    const small = await partsTree(TMP, ['US-DE']);
    const part = small.parts[0]!;
    const fc = JSON.parse(readFileSync(join(small.root, part), 'utf8')) as Collection;
    const line: [number, number][] = [
      [-75.6, 39.0],
      [-75.5, 39.0],
      [-75.4, 39.0],
      [-75.6, 39.0],
    ];
    fc.features.push({
      type: 'Feature',
      properties: { shapeName: 'Line' },
      geometry: { type: 'Polygon', coordinates: [line] },
    });
    writeFileSync(join(small.root, part), JSON.stringify(fc));
    expect((await cli('manifest', '--root', small.root, 'USA')).code).toBe(0);
    const r = await cli('repair', '--root', small.root, '--json', 'USA/ADM2');
    expect(r.code, r.stderr).toBe(0); // a warning, as validate's
    const json = JSON.parse(r.stdout) as RepairJson;
    const v = await cli('validate', '--root', small.root, '--json', '--no-nesting', '--no-coverage', 'USA');
    const pointer = `/features/${fc.features.length - 1}/`;
    const theirs = (JSON.parse(v.stdout) as Problem[]).filter(
      (p) => p.rule === 'geometry' && p.pointer!.startsWith(pointer),
    );
    expect(theirs).toHaveLength(1);
    expect(theirs[0]!.file).toBe(join(small.root, part));
    expect(json.problems).toEqual([{ ...theirs[0], file: join(small.root, repairedPartPath(part)) }]);
    expect(json.units.at(-1)).toMatchObject({
      name: 'Line',
      area_before_m2: 0,
      area_after_m2: 0,
      area_change_m2: 0,
    });
  });
});

describe('repairUnits: no unit vanishes', () => {
  const square = (x: number, y: number, d: number): [number, number][] => [
    [x, y],
    [x + d, y],
    [x + d, y + d],
    [x, y + d],
    [x, y],
  ];
  it('a unit lying wholly inside another (drawn over it, no hole cut) keeps its area: an enclave, cut from the other', () => {
    const R = 6_371_008.8;
    const [outer, inner] = [[[square(0, 0, 0.1)]], [[square(0.04, 0.04, 0.02)]]];
    const { units, overlaps } = repairUnits([outer, inner], { radiusM: R, gapWidthM: 100, snapM: 1 });
    expect(overlaps).toBe(1);
    expect(areaM2(units[1], R)).toBeCloseTo(areaM2(inner, R), 0);
    expect(areaM2(units[0], R)).toBeCloseTo(areaM2(outer, R) - areaM2(inner, R), 0);
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
