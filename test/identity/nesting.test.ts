// The nesting rule (issue 18 §2): a unit more than 1 % of whose area lies
// outside its parent in the level above, or outside every unit of it, is a
// warning of validate. In-process on the false/nesting fixture (boxes whose
// shares are known exactly), and the cache across runs. The shares of real
// units against GEOS: nesting-oracle.test.ts (the long project).
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readLevelUnits } from '../../build/identity/level.ts';
import { NestingChecker } from '../../build/identity/nesting-cache.ts';
import { checkLevelNesting, NESTING_LIMIT } from '../../build/identity/nesting.ts';
import { findParents } from '../../build/identity/parents.ts';
import { validateManifests } from '../../build/manifest/validate.ts';
import { MeasurementCache } from '../../build/measure/cache.ts';

const FIXTURE = new URL('../fixtures/manifests/false/nesting/', import.meta.url).pathname;
const SAMPLE = new URL('../../data/earth/', import.meta.url).pathname;
const PRY = join(FIXTURE, 'data/earth/PRY');
const level = (name: string) => [
  { path: `data/earth/PRY/PRY_${name}.geojson`, real: join(PRY, `PRY_${name}.geojson`) },
];

describe('nesting: units against their parents', () => {
  it('a unit 0.5 % outside its parent: no problem; 2 % outside: one, with its share', async () => {
    const issues = await checkLevelNesting(level('ADM2'), level('ADM1'));
    const byName = new Map(issues.map((i) => [i.unit.name, i]));
    expect(byName.has('Half a percent out')).toBe(false); // 0.05 of 10.05 outside: 0.50 %
    const two = byName.get('Two percent out')!;
    expect(two.outside).toBeCloseTo(0.2 / 10.2, 12); // 1.96 %
    expect(two.outside).toBeGreaterThan(NESTING_LIMIT);
    expect(two).toMatchObject({ by: 'code', parent: { code: 'PY-1', feature: 0 }, unit: { feature: 1 } });
  });

  it('parent by the data’s code first, else by largest overlap; a code that names no unit falls back to overlap', async () => {
    const [units, parents] = await Promise.all([
      readLevelUnits([level('ADM2')[0]!.real]),
      readLevelUnits([level('ADM1')[0]!.real]),
    ]);
    const found = findParents(units, parents).map(({ parent, by }) => [parent, by]);
    expect(found).toEqual([
      [0, 'code'], // PY-1
      [0, 'code'],
      [1, 'overlap'], // no parent code: it lies in PY-2
      [0, 'code'], // filed under PY-1, lies in PY-2: the code wins (and the unit is reported)
      [-1, 'overlap'], // meets no unit
      [1, 'overlap'], // parent code PY-9 names no unit
      [1, 'overlap'],
    ]);
  });

  it('a unit filed under a parent it lies outside: entirely outside, and where it lies', async () => {
    const issues = await checkLevelNesting(level('ADM2'), level('ADM1'));
    const wrong = issues.find((i) => i.unit.code === 'PY-2-B')!;
    expect(wrong).toMatchObject({ outside: 1, parent: { code: 'PY-1' }, mostlyIn: { code: 'PY-2' } });
  });

  it('a unit that meets no unit of the level above: a problem without a parent', async () => {
    const issues = await checkLevelNesting(level('ADM2'), level('ADM1'));
    const offshore = issues.find((i) => i.unit.code === 'PY-9-A')!;
    expect(offshore.parent).toBeUndefined();
    expect(offshore.outside).toBe(1);
  });

  it('codes read from the property release --code-key names: parent codes find their parent by it', async () => {
    // The parents' codes under another property: without the key, parentISO names no unit and the
    // parent is found by overlap; with it, "Filed under the wrong parent" is found under PY-1 again.
    const dir = mkdtempSync(join(tmpdir(), 'geoshelf-nesting-key-'));
    try {
      const parents = [{ path: level('ADM1')[0]!.path, real: join(dir, 'PRY_ADM1.geojson') }];
      const text = readFileSync(level('ADM1')[0]!.real, 'utf8');
      writeFileSync(parents[0]!.real, text.replaceAll('"shapeISO"', '"src_code"'));
      const wrong = (issues: Awaited<ReturnType<typeof checkLevelNesting>>) =>
        issues.find((i) => i.unit.name === 'Filed under the wrong parent');
      expect(wrong(await checkLevelNesting(level('ADM2'), parents))).toBeUndefined();
      expect(wrong(await checkLevelNesting(level('ADM2'), parents, 'src_code'))).toMatchObject({
        by: 'code',
        outside: 1,
        parent: { code: 'PY-1' },
      });
      // The cache keeps the two apart.
      const hashed = (files: { path: string; real: string }[]) =>
        files.map((f) => ({ ...f, sha256: f.path }));
      const cacheFile = join(dir, 'nesting.json');
      const plain = new NestingChecker({ cacheFile });
      expect(wrong(await plain.check(hashed(level('ADM2')), hashed(parents)))).toBeUndefined();
      await plain.save();
      const keyed = new NestingChecker({ cacheFile, codeKey: 'src_code' });
      expect(wrong(await keyed.check(hashed(level('ADM2')), hashed(parents)))).toBeDefined();
      expect(keyed.stats).toEqual({ levelsChecked: 1, cacheHits: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('warnings do not fail validate; --strict makes them errors', async () => {
    // The fixture's boxes overlap on purpose: the coverage rule is not this test's.
    const options = { measurer: new MeasurementCache(), coverage: false } as const;
    const lenient = await validateManifests(FIXTURE, options);
    expect(lenient.problems.map((p) => [p.rule, p.severity])).toEqual(Array(3).fill(['nesting', 'warning']));
    const strict = await validateManifests(FIXTURE, { ...options, strict: true });
    expect(strict.problems.map((p) => p.severity)).toEqual(Array(3).fill('error'));
  });

  it('one summary per pair of levels; a line of its own for a unit entirely outside or mostly in another parent; every unit with --verbose', async () => {
    const options = { measurer: new MeasurementCache(), coverage: false } as const;
    const { problems } = await validateManifests(FIXTURE, options);
    expect(problems.map((p) => p.message)).toEqual([
      '"Filed under the wrong parent" (PY-2-B) lies entirely outside its parent PY-1 (ADM1); it lies mostly in PY-2',
      '"Offshore" (PY-9-A) lies outside every unit of ADM1',
      // West (0…−50) and East (−50…−40) of ADM0 (−60…−40): the children cover 12.1 % of them.
      'ADM2 in ADM1: the 7 units cover 12.1 % of ADM1, 12.4 % of their area lies outside their parents; ' +
        '4 units lie more than 1 % outside, most "Half out, unknown parent code" (PY-2-D) 50.0 %, ' +
        '"Two percent out" (PY-1-B) 2.0 % (each with validate --verbose)',
    ]);
    expect(problems[2]).toMatchObject({ file: 'data/earth/PRY/PRY_ADM2.geojson', rule: 'nesting' });
    expect(problems[2]!.pointer).toBeUndefined();
    const verbose = await validateManifests(FIXTURE, { ...options, verbose: true });
    expect(verbose.problems.map((p) => p.pointer)).toEqual([
      '/features/1',
      '/features/3',
      '/features/4',
      '/features/6',
    ]);
  });

  it("the sample: JPN's 34 prefectures out of a coarse outline are one summary; San Andrés, entirely outside COL, a line", async () => {
    const root = mkdtempSync(join(tmpdir(), 'geoshelf-nesting-sample-'));
    try {
      for (const iso of ['JPN', 'COL'])
        cpSync(join(SAMPLE, iso), join(root, 'data/earth', iso), { recursive: true });
      const { problems, coverage } = await validateManifests(root, { measurer: new MeasurementCache() });
      const nesting = problems.filter((p) => p.rule === 'nesting');
      expect(nesting.map((p) => p.message.replace(/: the .*/, ''))).toEqual([
        '"San Andrés y Providencia" (CO-SAP) lies entirely outside its parent COL (ADM0)',
        'ADM1 in ADM0',
        'ADM1 in ADM0',
      ]);
      expect(nesting).toHaveLength(3);
      expect(nesting.filter((p) => p.pointer === undefined).map((p) => p.file)).toEqual([
        'data/earth/COL/COL_ADM1.geojson',
        'data/earth/JPN/JPN_ADM1.geojson',
      ]);
      expect(coverage.get('earth/JPN/ADM1')?.nesting).toMatchObject({
        parent_level: 'ADM0',
        units_outside: 34,
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  describe('the cache', () => {
    const root = mkdtempSync(join(tmpdir(), 'geoshelf-nesting-'));
    afterAll(() => rmSync(root, { recursive: true, force: true }));
    const run = async () => {
      const nesting = new NestingChecker({ cacheFile: join(root, 'nesting.json') });
      const measurer = new MeasurementCache();
      const { problems } = await validateManifests(root, { measurer, nesting, coverage: false });
      await nesting.save();
      return { messages: problems.map((p) => p.message), stats: nesting.stats };
    };

    it('an unchanged tree is not read again; a changed level above is', async () => {
      cpSync(FIXTURE, root, { recursive: true });
      const first = await run();
      expect(first.stats).toEqual({ levelsChecked: 2, cacheHits: 0 }); // ADM1 in ADM0, ADM2 in ADM1
      const second = await run();
      expect(second.stats).toEqual({ levelsChecked: 0, cacheHits: 2 });
      expect(second.messages).toEqual(first.messages);
      // West grows east by 0.5°: "Two percent out" now lies inside it (and the ADM1 in ADM0 check runs again).
      const adm1 = join(root, 'data/earth/PRY/PRY_ADM1.geojson');
      writeFileSync(
        adm1,
        readFileSync(adm1, 'utf8').replace('[-50,-25],[-50,-15]', '[-49.5,-25],[-49.5,-15]'),
      );
      const third = await run();
      expect(third.stats).toEqual({ levelsChecked: 2, cacheHits: 0 });
      expect(third.messages.some((m) => m.includes('Two percent out'))).toBe(false);
    });
  });
});
