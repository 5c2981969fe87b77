// Splitting a level into ADM1 parts (issue 5): by code when valid, else by the
// largest overlap, else unassigned; parts that add up, carry adm1ISO, validate,
// and come out byte-identical on a re-run.
import { formatProblem } from '../../build/core/problem.ts';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../build/core/shared/manifest.ts';
import { MeasurementCache } from '../../build/measure/cache.ts';
import { readLevelFeatures as readFeatures, type GeoFeature } from '../../build/geojson/level-features.ts';
import { assignFeatures, parentsOf, slug } from '../../build/split/split.ts';
import { validateManifests } from '../../build/manifest/validate.ts';
import { cli, FIXTURE, tempCopy } from '../support/xta.ts';

const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));
const copy = () => {
  const root = tempCopy();
  roots.push(root);
  return root;
};

async function fixtureAssignments() {
  const parents = parentsOf(await readFeatures(FIXTURE, 'data/earth/XTA/XTA_ADM1.geojson'), ['XTA', 'XT']);
  const features = await readFeatures(FIXTURE, 'data/earth/XTA/XTA_ADM2.geojson');
  return assignFeatures(features, parents);
}

describe('split (stage)', () => {
  it('a valid parentISO assigns by code', async () => {
    const alfa = (await fixtureAssignments()).filter((a) => a.name.startsWith('Alfa'));
    expect(alfa.map((a) => [a.code, a.how])).toEqual(Array(4).fill(['XT-A', 'code']));
  });

  it('no parent code, or one that names no region ("XT-Z"), assigns by the largest overlap', async () => {
    const byName = new Map((await fixtureAssignments()).map((a) => [a.name, a]));
    for (const name of ['Bravo 20', 'Bravo 21', 'Bravo 30', 'Bravo 31', 'Charlie 4', 'Charlie 5']) {
      const a = byName.get(name)!;
      expect(a.how).toBe('overlap');
      expect(a.code).toBe(name.startsWith('Bravo') ? 'XT-B' : 'XT-C');
      expect(a.share).toBeGreaterThan(0.99); // the districts follow the same wiggly borders
    }
  });

  it('features outside every ADM1 polygon are unassigned; a small best overlap is assigned and measured', async () => {
    const assignments = await fixtureAssignments();
    expect(assignments.filter((a) => a.how === 'unassigned').map((a) => a.name)).toEqual([
      'Offshore 0',
      'Offshore 1',
    ]);
    const shoal = assignments.find((a) => a.name === 'Shoal')!;
    expect(shoal.code).toBe('XT-C');
    expect(shoal.share).toBeCloseTo(0.2, 1); // 0.1° of its 0.5° lies west of the coast at -68°
  });

  it('a parent code missing or equal to the country code becomes a stable slug of the name', () => {
    const square = (x: number) => ({
      type: 'Polygon',
      coordinates: [
        [
          [x, 0],
          [x + 1, 0],
          [x + 1, 1],
          [x, 1],
          [x, 0],
        ],
      ],
    });
    const adm1: GeoFeature[] = [
      { type: 'Feature', properties: { shapeName: 'Bío Bío', shapeISO: '' }, geometry: square(0) },
      { type: 'Feature', properties: { shapeName: 'Ñuble', shapeISO: 'XT' }, geometry: square(1) },
      { type: 'Feature', properties: { shapeName: 'Bío-Bío', shapeISO: 'XTA' }, geometry: square(2) },
      { type: 'Feature', properties: { shapeName: 'Maule', shapeISO: 'XT-ML' }, geometry: square(3) },
    ];
    expect(parentsOf(adm1, ['XTA', 'XT']).map((p) => p.code)).toEqual([
      'bio-bio',
      'nuble',
      'bio-bio-2',
      'XT-ML',
    ]);
    expect(slug('Tierra del Fuego, Antártida e Islas del Atlántico Sur')).toBe(
      'tierra-del-fuego-antartida-e-islas-del-atlantico-sur',
    );
  });
});

describe('geoshelf split (CLI)', () => {
  it('writes one part per parent plus unassigned.geojson, and records split_by, parts and unassigned', async () => {
    const root = copy();
    const run = await cli('split', '--level', 'ADM2', '--root', root, 'XTA');
    expect(run.stderr).toBe('');
    expect(run.stdout.split('\n').slice(0, 5)).toEqual([
      '13 features: 4 by code, 7 by overlap, 2 unassigned',
      `  ${root}/data/earth/XTA/ADM2/XT-A.geojson: 4 features`,
      `  ${root}/data/earth/XTA/ADM2/XT-B.geojson: 4 features`,
      `  ${root}/data/earth/XTA/ADM2/XT-C.geojson: 3 features`,
      `  ${root}/data/earth/XTA/ADM2/unassigned.geojson: 2 features`,
    ]);
    expect(run.stdout).toMatch(
      /small overlap: #12 "Shoal" → XT-C \(overlap, best overlap (19|20)\.\d% of its area\)/,
    );
    expect(run.stdout).toContain('unassigned: #10 "Offshore 0" → unassigned (unassigned)');

    const folder = join(root, 'data/earth/XTA');
    expect(readdirSync(folder).sort()).toEqual([
      'ADM2',
      'XTA_ADM1.geojson',
      'XTA_ADM2.geojson',
      'manifest.json',
    ]);
    const manifest = JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8')) as Manifest;
    const adm2 = manifest.datasets[1]!;
    expect(adm2.path).toBe('data/earth/XTA/XTA_ADM2.geojson'); // the level's own file stays
    expect(adm2.split_by).toBe('ADM1');
    expect(adm2.unassigned).toBe(2);
    expect(adm2.parts!.map((p) => p.code)).toEqual(['XT-A', 'XT-B', 'XT-C', 'unassigned']);
    expect(adm2.parts!.reduce((sum, p) => sum + p.features, 0)).toBe(adm2.features);

    const unassigned = await readFeatures(root, 'data/earth/XTA/ADM2/unassigned.geojson');
    expect(unassigned.map((f) => f.properties!.shapeName)).toEqual(['Offshore 0', 'Offshore 1']);
    for (const part of adm2.parts!) {
      const features = await readFeatures(root, part.path);
      expect(features.map((f) => f.properties!.adm1ISO)).toEqual(Array(part.features).fill(part.code));
    }
    // adm1ISO goes before parentISO, as in the corpus.
    const alfa = (await readFeatures(root, 'data/earth/XTA/ADM2/XT-A.geojson'))[0]!;
    expect(Object.keys(alfa.properties!)).toEqual([
      'shapeName',
      'shapeISO',
      'shapeGroup',
      'shapeType',
      'adm1ISO',
      'parentISO',
      'src_shape_id',
    ]);
    const { problems } = await validateManifests(root, { measurer: new MeasurementCache() });
    // XTA's offshore units and its shoal lie outside ADM1 on purpose (nesting warnings), and the
    // shoal lies over Charlie 5 (a coverage warning): nothing else.
    const others = problems.filter((p) => p.rule !== 'nesting' && p.rule !== 'coverage');
    expect(others.map(formatProblem)).toEqual([]);
  });

  it('re-running on the same input gives byte-identical parts and manifest', async () => {
    const root = copy();
    mkdirSync(join(root, 'data/earth/XTA/.ADM2.split-dead0000/'), { recursive: true }); // from a killed run
    const snapshot = () => {
      const dir = join(root, 'data/earth/XTA/ADM2');
      return [
        readFileSync(join(root, 'data/earth/XTA/manifest.json'), 'utf8'),
        ...readdirSync(dir)
          .sort()
          .map((f) => `${f}\n${readFileSync(join(dir, f), 'utf8')}`),
      ];
    };
    await cli('split', '--level', 'ADM2', '--root', root, 'XTA');
    const first = snapshot();
    await cli('split', '--level', 'ADM2', '--root', root, 'XTA');
    expect(snapshot()).toEqual(first);
    expect(readdirSync(join(root, 'data/earth/XTA')).filter((f) => f.startsWith('.'))).toEqual([]);
  });

  it('a level published only as parts is re-split from its parts, its properties gaining adm1ISO', async () => {
    const root = copy();
    await cli('split', '--level', 'ADM2', '--root', root, 'XTA');
    const file = join(root, 'data/earth/XTA/manifest.json');
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
    const { path: _path, bytes: _bytes, sha256: _sha256, ...partsOnly } = manifest.datasets[1]!;
    manifest.datasets[1] = partsOnly; // properties still without adm1ISO: split must add it
    writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
    rmSync(join(root, 'data/earth/XTA/XTA_ADM2.geojson'));
    const run = await cli('split', '--level', 'ADM2', '--root', root, 'XTA');
    // adm1ISO from the first split is a valid code now: every feature but the unassigned goes by code.
    expect(run.stdout.split('\n')[0]).toBe('13 features: 11 by code, 0 by overlap, 2 unassigned');
    const after = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
    expect(after.datasets[1]!.properties).toContain('adm1ISO');
    const { problems } = await validateManifests(root, { measurer: new MeasurementCache() });
    // XTA's offshore units and its shoal lie outside ADM1 on purpose (nesting warnings), and the
    // shoal lies over Charlie 5 (a coverage warning): nothing else.
    const others = problems.filter((p) => p.rule !== 'nesting' && p.rule !== 'coverage');
    expect(others.map(formatProblem)).toEqual([]);
  });

  it('ISO3 and --level in any letter case: "split --level adm2 xta" splits XTA ADM2', async () => {
    const root = copy();
    const run = await cli('split', '--level', 'adm2', '--root', root, 'xta');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout.split('\n')[0]).toBe('13 features: 4 by code, 7 by overlap, 2 unassigned');
  });

  it('bad arguments → exit 2 (usage) or 1 (bad data) with one line, nothing written', async () => {
    const root = copy();
    const before = readFileSync(join(root, 'data/earth/XTA/manifest.json'), 'utf8');
    const cases: [string[], string, number][] = [
      [['--root', root, 'XTA'], 'geoshelf split: --level is required, e.g. --level ADM2 (see --help)', 2],
      [['--level', 'ADM9', '--root', root, 'XTA'], 'geoshelf split: --level: expected ADM2…ADM5 or QUAD', 2],
      [
        ['--level', 'ADM1', '--root', root, 'XTA'],
        '--level ADM1: only levels below ADM1 can be split by ADM1',
        1,
      ],
      [
        ['--level', 'ADM3', '--root', root, 'XTA'],
        'data/earth/XTA/manifest.json: no ADM3 dataset to split',
        1,
      ],
      [['--level', 'ADM2', '--root', root, 'QQQ'], 'QQQ: no data/*/QQQ/manifest.json', 1],
    ];
    for (const [args, message, code] of cases) {
      const run = await cli('split', ...args);
      expect(run.code).toBe(code);
      expect(run.stderr.trim().split('\n')).toEqual([expect.stringContaining(message)]);
    }
    expect(readFileSync(join(root, 'data/earth/XTA/manifest.json'), 'utf8')).toBe(before);
    expect(readdirSync(join(root, 'data/earth/XTA'))).not.toContain('ADM2');
  });
});
