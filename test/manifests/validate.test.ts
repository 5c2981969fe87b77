// validate: the behaviours beyond one rule per fixture — no cascades from a
// schema error, preview size limit, shared files measured once, line:column,
// and the CLI (exit codes, summary, --json).
import { formatProblem } from '../../build/core/problem.ts';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseJson } from '../../build/manifest/load.ts';
import { MeasurementCache } from '../../build/measure/cache.ts';
import { validateManifests } from '../../build/manifest/validate.ts';
import { bboxMessage } from '../../build/manifest/validate-bbox.ts';
import { GeometryChecker } from '../../build/geometry/cache.ts';
import { cli, FIXTURES, lines, tempCopy } from './helpers.ts';

// Tests change raw manifest JSON anywhere, as a user's editor would.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const TRUE = join(FIXTURES, 'true');
const CHL = 'data/earth/CHL/manifest.json';
const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

function copyOfTrue(): string {
  const root = tempCopy(TRUE);
  roots.push(root);
  return root;
}

function editManifest(root: string, file: string, change: (m: Json) => void): void {
  const manifest = JSON.parse(readFileSync(join(root, file), 'utf8')) as Json;
  change(manifest);
  writeFileSync(join(root, file), `${JSON.stringify(manifest, null, 2)}\n`);
}

describe('validate', () => {
  it('bbox-member messages say both values and how to fix it', () => {
    expect(bboxMessage('/features/2/geometry/bbox', [0, 0, 1, 1], [0, 0, 2, 1])).toBe(
      "is [0,0,1,1] but the geometry's coordinates span [0,0,2,1] (RFC 7946 5: a bbox holds their extent): set it to [0,0,2,1] or remove it",
    );
    expect(bboxMessage('/bbox', [177, -18, -179.4, -17], [-179.9, -18, 177.5, -17])).toBe(
      "is [177,-18,-179.4,-17] but the file's coordinates span [-179.9,-18,177.5,-17]; west > east is the antimeridian form of RFC 7946 5.2, but geoshelf wants plain min/max, as in the manifest: set it to [-179.9,-18,177.5,-17] or remove it",
    );
    expect(bboxMessage('/features/0/bbox', [0, 0, -5, 1, 2, 9], [0, 0, 1, 1])).toMatch(
      /: set it to \[0,0,-5,1,1,9\] or remove it$/, // heights kept
    );
    expect(bboxMessage('/bbox', null, [0, 0, 1, 1])).toBe(
      "is not an array of 4 numbers [west, south, east, north] (or 6, with heights): set it to [0,0,1,1], the extent of the file's coordinates, or remove it",
    );
    expect(bboxMessage('/bbox', [0, 0, 1, 1], [Infinity, Infinity, -Infinity, -Infinity])).toBe(
      'is given but the file has no coordinates: remove it',
    );
  });

  it("bbox-member: a data file's own bbox that is not its extent is a warning, an error with --strict; a preview's is not checked", async () => {
    const root = join(FIXTURES, 'false', 'bbox-member');
    const preview = readFileSync(join(root, 'data/earth/CHL/preview/CHL_ADM1.preview.geojson'), 'utf8');
    expect(preview).toContain('"bbox":[0,0,1,1]'); // a simplified copy: its bbox is the dataset's business
    const shown = (p: { file: string; pointer?: string; severity: string }) =>
      `${p.file} ${p.pointer} ${p.severity}`;
    // The fixture's boxes need not form a coverage: fixtures.test.ts says why.
    const plain = await validateManifests(root, { measurer: new MeasurementCache(), coverage: false });
    expect(plain.problems.map(shown)).toEqual([
      'data/earth/CHL/CHL_ADM1.geojson /bbox warning',
      'data/earth/CHL/CHL_ADM1.geojson /features/0/bbox warning',
    ]);
    const strict = await validateManifests(root, {
      measurer: new MeasurementCache(),
      strict: true,
      coverage: false,
    });
    expect(strict.problems.map(shown)).toEqual([
      'data/earth/CHL/CHL_ADM1.geojson /bbox error',
      'data/earth/CHL/CHL_ADM1.geojson /features/0/bbox error',
    ]);
  });

  it('a dataset failing the schema is not checked further; the other datasets still are', async () => {
    const root = copyOfTrue();
    editManifest(root, CHL, (m) => (m.datasets[0].level = 'ADM9'));
    rmSync(join(root, 'data/earth/CHL/CHL_ADM1.geojson'));
    const { manifests, problems } = await validateManifests(root, { measurer: new MeasurementCache() });
    expect(problems.map(formatProblem)).toEqual([
      `${CHL}: /datasets/0/level: must be ADM0 … ADM5 or QUAD, got "ADM9"`,
      `${CHL}: /datasets/1/path: file data/earth/CHL/CHL_ADM1.geojson does not exist`,
    ]);
    expect(manifests.map((m) => m.file)).toEqual(['data/earth/URY/manifest.json']); // only schema-valid ones
  });

  it('a missing file is one problem: nothing about its bytes, sha256, features or unassigned count', async () => {
    const root = copyOfTrue();
    rmSync(join(root, 'data/earth/CHL/ADM2/unassigned.geojson'));
    const { problems } = await validateManifests(root, { measurer: new MeasurementCache() });
    expect(problems.map(formatProblem)).toEqual([
      `${CHL}: /datasets/2/parts/2/path: file data/earth/CHL/ADM2/unassigned.geojson does not exist`,
    ]);
  });

  it('a directory where a file should be → file-missing, "is not a file"', async () => {
    const root = copyOfTrue();
    rmSync(join(root, 'data/earth/URY/URY_ADM0.geojson'));
    mkdirSync(join(root, 'data/earth/URY/URY_ADM0.geojson'));
    const { problems } = await validateManifests(root, { measurer: new MeasurementCache() });
    expect(problems.map(formatProblem)).toEqual([
      'data/earth/URY/manifest.json: /datasets/0/path: file data/earth/URY/URY_ADM0.geojson is not a file',
    ]);
  });

  it('parts listing {LEVEL}/unassigned.geojson without an unassigned count → unassigned', async () => {
    const root = copyOfTrue();
    editManifest(root, CHL, (m) => delete m.datasets[2].unassigned);
    const { problems } = await validateManifests(root, { measurer: new MeasurementCache() });
    expect(problems).toEqual([
      {
        file: CHL,
        pointer: '/datasets/2/unassigned',
        rule: 'unassigned',
        severity: 'error',
        message: 'is missing but the parts include data/earth/CHL/ADM2/unassigned.geojson',
      },
    ]);
  });

  it('preview larger than 2 MiB → preview-size, naming the file and its size', async () => {
    const root = copyOfTrue();
    const preview = 'data/earth/CHL/preview/CHL_ADM0.preview.geojson';
    const text = readFileSync(join(root, preview), 'utf8');
    writeFileSync(join(root, preview), text + ' '.repeat(2 * 1024 * 1024 + 1 - Buffer.byteLength(text)));
    const { problems } = await validateManifests(root, { measurer: new MeasurementCache() });
    expect(problems).toEqual([
      {
        file: CHL,
        pointer: '/datasets/0/preview',
        rule: 'preview-size',
        severity: 'error',
        message: `file ${preview} has 2097153 bytes, more than 2 MiB (2097152)`,
        paths: [preview],
      },
    ]);
  });

  it('shared files are measured once per run (unassigned.geojson is a part and the unassigned count)', async () => {
    const measurer = new MeasurementCache();
    await validateManifests(TRUE, { measurer });
    // CHL: ADM0, ADM1, 3 parts, 1 preview; URY: ADM0, 1 preview (measured for the geometry check).
    expect(measurer.stats.filesMeasured).toBe(8);
  });

  it('a second run over unchanged files reads no GeoJSON bytes (the cache under <root>/.cache/)', async () => {
    const root = copyOfTrue();
    expect((await validateManifests(root)).problems).toEqual([]); // default measurer: saves the cache
    const cacheFile = join(root, '.cache/geoshelf/measurements.json');
    expect(existsSync(cacheFile)).toBe(true);
    const measurer = new MeasurementCache({ cacheFile });
    const geometry = new GeometryChecker({ cacheFile: join(root, '.cache/geoshelf/geometry.json') });
    expect((await validateManifests(root, { measurer, geometry })).problems).toEqual([]);
    expect(measurer.stats).toEqual({ filesMeasured: 0, bytesRead: 0, cacheHits: 8 });
    expect(geometry.stats).toEqual({ filesChecked: 0, cacheHits: 8 });
  });

  it('invalid manifest JSON → line:column, also at the end of a truncated file', () => {
    expect(parseJson('{\n  "a": 1,\n  "b": [1, 2\n')).toEqual({
      error: "invalid JSON at line 4, column 1: Expected ',' or ']' after array element",
    });
    expect(parseJson('{\n  "a": 1\n  "b": 2\n}')).toEqual({
      error: "invalid JSON at line 3, column 3: Expected ',' or '}' after property value",
    });
  });

  it('a manifest starting with a byte order mark is read as JSON', () => {
    expect(parseJson('\uFEFF{"a": 1}')).toEqual({ value: { a: 1 } });
  });

  it('a root without data/ → a one-line error naming the folder it looked for', async () => {
    const result = await cli('validate', '--root', FIXTURES);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(lines(result.stderr)).toEqual([
      `${FIXTURES}data: no such folder (--root names the folder that holds data/)`,
    ]);
  });
});

describe('geoshelf validate (CLI)', () => {
  it('no problem → exit 0 and "N manifests, N datasets: no problems" on stderr', async () => {
    const result = await cli('validate', '--root', TRUE, '--no-cache');
    expect(result).toEqual({ code: 0, stdout: '', stderr: '2 manifests, 4 datasets: no problems\n' });
  });

  it('problems → exit 1, one "FILE: POINTER: message" line each then a count, on stderr', async () => {
    const root = 'test/fixtures/manifests/false/stats'; // as a user types it: files are named from here
    const result = await cli('validate', '--root', root, '--no-cache', '--no-coverage');
    expect([result.code, result.stdout]).toEqual([1, '']);
    const expected = lines(readFileSync(join(root, 'expected.txt'), 'utf8')).map((line) =>
      line
        .replaceAll('data/earth/', `${root}/data/earth/`)
        .replace('manifest CHL', `manifest --root ${root} CHL`),
    );
    expect(lines(result.stderr)).toEqual([...expected, '6 problems in 1 file: 6 stats']);
  });

  it('--json prints an array of {file, pointer, rule, severity, message}', async () => {
    const root = join(FIXTURES, 'false', 'license');
    const result = await cli('validate', '--root', root, '--json', '--no-cache');
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual([
      {
        file: join(root, CHL), // as in the text: named from the current folder
        pointer: '/datasets/0/license',
        rule: 'license',
        severity: 'error',
        message: 'is "CC-BY-4.0" but source.license is "public-domain", which covers every dataset',
      },
      {
        file: join(root, 'data/earth/URY/manifest.json'),
        pointer: '/datasets/0/license',
        rule: 'license',
        severity: 'error',
        message: '"CC-BY-4.0" is not in source.licenses (CC0-1.0)',
      },
    ]);
  });

  it('--json with no problem prints [] and exits 0', async () => {
    const result = await cli('validate', '--root', TRUE, '--json', '--no-cache');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([]);
  });

  it('ISO3 arguments validate only those countries, so --strict gates only them; a code that is not ISO3 is a usage mistake (exit 2)', async () => {
    const root = tempCopy(join(FIXTURES, 'false', 'bbox-member')); // CHL: two warnings
    roots.push(root);
    cpSync(join(TRUE, 'data/earth/URY'), join(root, 'data/earth/URY'), { recursive: true });
    expect((await cli('validate', '--root', root, '--strict')).code).toBe(1);
    expect(await cli('validate', '--root', root, '--strict', 'ury')).toEqual({
      code: 0,
      stdout: '',
      stderr: '1 manifest, 1 dataset: no problems\n',
    });
    const chl = await cli('validate', '--root', root, '--strict', 'CHL');
    expect(chl.code).toBe(1);
    expect(lines(chl.stderr).at(-1)).toBe('4 problems in 1 file: 2 bbox-member, 2 coverage'); // errors, with --strict;
    expect(await cli('validate', '--root', root, 'XX', 'CHL')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'geoshelf validate: "XX": expected ISO3 codes (3 letters, e.g. CHL)\n',
    });
    expect(await cli('validate', '--root', root, 'PER')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'geoshelf validate: PER: no data/*/PER/manifest.json\n',
    });
  });

  it('a misnamed folder is one line naming the folder and its name, not one per listed file', async () => {
    const root = copyOfTrue();
    renameSync(join(root, 'data/earth/URY'), join(root, 'data/earth/ury'));
    const result = await cli('validate', '--root', root, '--no-cache');
    expect(result.code).toBe(1);
    const [ury, URY] = [`${root}/data/earth/ury/`, `${root}/data/earth/URY/`];
    expect(lines(result.stderr)).toEqual([
      `${ury}manifest.json: /iso_a3: is "URY" but the manifest is in ${ury}, and its files are listed under ${URY}: rename the folder to ${URY}`,
      '1 problem in 1 file: 1 folder',
    ]);
  });

  it('a manifest one folder too shallow is not read, and says so; a tree with no manifest is an error', async () => {
    const root = copyOfTrue();
    cpSync(join(root, CHL), join(root, 'data/CHL/manifest.json'));
    cpSync(join(root, CHL), join(root, 'data/earth/manifest.json'));
    const shallow = await cli('validate', '--root', root, '--no-cache');
    expect(shallow.code).toBe(0); // a warning: the tree's manifests are right
    expect(lines(shallow.stderr)).toEqual([
      `${root}/data/CHL/manifest.json: warning: not read: a manifest goes in its country's folder, data/{body}/{ISO3}/manifest.json (e.g. data/earth/CHL/manifest.json)`,
      `${root}/data/earth/manifest.json: warning: not read: a manifest goes in its country's folder, data/{body}/{ISO3}/manifest.json (e.g. data/earth/CHL/manifest.json)`,
      '2 problems in 2 files (2 warnings): 2 folder',
    ]);
    rmSync(join(root, 'data/earth'), { recursive: true });
    rmSync(join(root, 'data/CHL'), { recursive: true });
    const empty = await cli('validate', '--root', root);
    expect(empty).toEqual({
      code: 1,
      stdout: '',
      stderr: `${root}/data: no manifests: each country needs data/{body}/{ISO3}/manifest.json, e.g. data/earth/CHL/manifest.json\n1 problem in 1 file: 1 input\n`,
    });
  });

  it('keeps measurements in <root>/.cache/geoshelf/measurements.json unless --no-cache', async () => {
    const root = copyOfTrue();
    expect((await cli('validate', '--root', root)).code).toBe(0);
    expect(existsSync(join(root, '.cache/geoshelf/measurements.json'))).toBe(true);
  });
});
