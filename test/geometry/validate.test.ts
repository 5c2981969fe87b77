// validate's geometry rule: one problem per invalid feature in the GeoJSON
// file, structure as errors, OGC rules as warnings (errors with --strict), a
// summary after 10 per file in text, every one in --json, and the cache.
// The coverage rule is off: these invalid features overlap their neighbours on purpose.
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GeometryChecker } from '../../build/geometry/cache.ts';
import { problemLines } from '../../build/core/report.ts';
import { buildCatalogue } from '../../build/build.ts';
import { validateManifests } from '../../build/manifest/validate.ts';
import { MeasurementCache } from '../../build/measure/cache.ts';
import { measureGeoJSON } from '../../build/measure/measure.ts';
import { cli } from '../support/cli.ts';

const DATA = 'data/earth/FJI/FJI_ADM1.geojson';
const PREVIEW = 'data/earth/FJI/preview/FJI_ADM1.preview.geojson';
const square = [
  [
    [0, 0],
    [1, 0],
    [1, 1],
    [0, 1],
    [0, 0],
  ],
];
const bowTie = [
  [
    [0, 0],
    [2, 2],
    [2, 0],
    [0, 2],
    [0, 0],
  ],
];
const unclosed = [
  [
    [0, 0],
    [1, 0],
    [1, 1],
    [0, 1],
  ],
];

function collection(geometries: number[][][][]): string {
  const lines = geometries.map((coordinates, i) =>
    JSON.stringify({ type: 'Feature', properties: { n: i }, geometry: { type: 'Polygon', coordinates } }),
  );
  return `{"type":"FeatureCollection","features":[\n${lines.join(',\n')}\n]}\n`;
}

/** A tree with one ADM1 dataset whose file and preview hold `geometries`, the manifest's stats right. */
async function tree(
  root: string,
  geometries: number[][][][],
  crs = { authority: 'OGC', code: 'CRS84', epsg: 4326 },
): Promise<void> {
  mkdirSync(join(root, 'data/earth/FJI/preview'), { recursive: true });
  writeFileSync(join(root, DATA), collection(geometries));
  writeFileSync(join(root, PREVIEW), collection(geometries));
  const stats = await measureGeoJSON(join(root, DATA));
  const manifest = {
    schema_version: 1,
    body: 'earth',
    iso_a3: 'FJI',
    name: { en: 'Fiji', es: 'Fiyi' },
    crs,
    status: 'ok',
    source: { name: 'test', url: 'https://example.org', license: 'CC0-1.0', retrieved: '2026-11-22' },
    datasets: [{ level: 'ADM1', path: DATA, ...stats, preview: PREVIEW, license: 'CC0-1.0' }],
  };
  writeFileSync(join(root, 'data/earth/FJI/manifest.json'), JSON.stringify(manifest, null, 2));
}

describe('validate: geometry', () => {
  const dir = mkdtempSync(join(tmpdir(), 'geoshelf-geometry-validate-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  const root = () => join(dir, String(n++));

  it('one problem per invalid feature, in the GeoJSON file (data and preview): structure → error, OGC → warning', async () => {
    const r = root();
    await tree(r, [square, bowTie, unclosed]);
    const { problems, geometry } = await validateManifests(r, {
      measurer: new MeasurementCache(),
      coverage: false,
    });
    const shown = (file: string) => [
      {
        file,
        pointer: '/features/1/geometry/coordinates/0',
        rule: 'geometry',
        severity: 'warning',
        message: 'self-intersection at or near [1, 1]',
      },
      {
        file,
        pointer: '/features/2/geometry/coordinates/0',
        rule: 'geometry',
        severity: 'error',
        message: 'ring is not closed: it starts at [0, 0] and ends at [0, 1]',
      },
    ];
    expect(problems).toEqual([...shown(DATA), ...shown(PREVIEW)]);
    expect(geometry.get(DATA)).toEqual({ checked: 3, invalid: 2 });
  });

  it('--strict: the OGC problems are errors too', async () => {
    const r = root();
    await tree(r, [bowTie]);
    const { problems } = await validateManifests(r, {
      measurer: new MeasurementCache(),
      coverage: false,
      strict: true,
    });
    expect(problems.map((p) => p.severity)).toEqual(['error', 'error']);
  });

  // Out of range: lon 1000; lat -500 (in a ring that also crosses itself); 1e300.
  const outOfRange = [
    [
      [
        [0, 0],
        [10, 0],
        [1000, 5],
        [0, 5],
        [0, 0],
      ],
    ],
    [
      [
        [0, 0],
        [10, 0],
        [10, -500],
        [0, 5],
        [0, 0],
      ],
    ],
    [
      [
        [0, 0],
        [1e300, 0],
        [1, 1],
        [0, 0],
      ],
    ],
  ];

  it('a lon/lat dataset: each feature’s first position out of range is a warning at its pointer, beside its validity problem', async () => {
    const r = root();
    await tree(r, outOfRange);
    const { problems, geometry } = await validateManifests(r, {
      measurer: new MeasurementCache(),
      coverage: false,
    });
    const shown = (file: string) => [
      `${file}: /features/0/geometry/coordinates/0/2: warning: coordinate out of range: longitude 1000 is outside [-180, 180]`,
      `${file}: /features/1/geometry/coordinates/0: warning: self-intersection at or near [0.099, 0]`,
      `${file}: /features/1/geometry/coordinates/0/2: warning: coordinate out of range: latitude -500 is outside [-90, 90]`,
      `${file}: /features/2/geometry/coordinates/0/1: warning: coordinate out of range: longitude 1e+300 is outside [-180, 180]`,
    ];
    expect(problems.map((p) => `${p.file}: ${p.pointer}: ${p.severity}: ${p.message}`)).toEqual([
      ...shown(DATA),
      ...shown(PREVIEW),
    ]);
    expect(problems.every((p) => p.rule === 'geometry')).toBe(true);
    expect(geometry.get(DATA)).toEqual({ checked: 3, invalid: 1 }); // the count is of invalid geometries
    const strict = await validateManifests(r, {
      measurer: new MeasurementCache(),
      coverage: false,
      strict: true,
    });
    expect(strict.problems.map((p) => p.severity)).toEqual(Array(8).fill('error'));
  });

  it('a dataset in a projected CRS (EPSG:3857): one crs error, and coordinates are not checked against lon/lat ranges', async () => {
    const r = root();
    await tree(r, outOfRange, { authority: 'EPSG', code: '3857', epsg: 3857 });
    const { problems } = await validateManifests(r, { measurer: new MeasurementCache(), coverage: false });
    expect(problems.map((p) => `${p.rule}: ${p.severity}: ${p.message}`)).toEqual([
      'crs: error: EPSG:3857 is not a longitude/latitude CRS geoshelf accepts on earth: use OGC:CRS84 (epsg 4326) or EPSG:4326 (epsg 4326)',
      'geometry: warning: self-intersection at or near [0.099, 0]',
      'geometry: warning: self-intersection at or near [0.099, 0]',
    ]);
  });

  it('text output: the first 10 invalid features of a file, then a count', () => {
    const problems = Array.from({ length: 13 }, (_, i) => ({
      file: DATA,
      pointer: `/features/${i}/geometry/coordinates/0`,
      rule: 'geometry' as const,
      severity: 'warning' as const,
      message: 'self-intersection at or near [1, 1]',
    }));
    const lines = problemLines(problems, { command: 'validate', perFile: 10 });
    expect(lines).toHaveLength(11);
    expect(lines[0]).toBe(
      `${DATA}: /features/0/geometry/coordinates/0: warning: self-intersection at or near [1, 1]`,
    );
    expect(lines[10]).toBe(`${DATA}: … and 3 more geometry problems (all of them with --json)`);
  });

  /** A tree of a valid square and a bow-tie, validated once with a geometry cache, which is saved. */
  async function checkedOnce(): Promise<{ r: string; cacheFile: string; first: GeometryChecker }> {
    const r = root();
    await tree(r, [square, bowTie]);
    const cacheFile = join(r, '.cache/geoshelf/geometry.json');
    const first = new GeometryChecker({ cacheFile });
    await validateManifests(r, { measurer: new MeasurementCache(), coverage: false, geometry: first });
    await first.save();
    return { r, cacheFile, first };
  }

  it('a file checked before at the same size, mtime and sha256 is not checked again; a changed one is', async () => {
    const { r, cacheFile, first } = await checkedOnce();
    expect(first.stats).toEqual({ filesChecked: 2, cacheHits: 0 });
    const again = new GeometryChecker({ cacheFile });
    const { problems } = await validateManifests(r, {
      measurer: new MeasurementCache(),
      coverage: false,
      geometry: again,
    });
    expect(again.stats).toEqual({ filesChecked: 0, cacheHits: 2 });
    expect(problems).toHaveLength(2);
    writeFileSync(join(r, PREVIEW), collection([square, square])); // same size, new content
    utimesSync(join(r, PREVIEW), new Date(), new Date(Date.now() + 5000));
    const third = new GeometryChecker({ cacheFile });
    const after = await validateManifests(r, {
      measurer: new MeasurementCache(),
      coverage: false,
      geometry: third,
    });
    expect(third.stats).toEqual({ filesChecked: 1, cacheHits: 1 });
    expect(after.problems.map((p) => p.file)).toEqual([DATA]);
  });

  it('a cached verdict recorded for other bytes (another sha256) at the same size and mtime is not taken', async () => {
    const { r, cacheFile } = await checkedOnce();
    const cache = JSON.parse(readFileSync(cacheFile, 'utf8')) as {
      data: Record<string, { sha256: string; result: unknown }>;
    };
    const [key, entry] = Object.entries(cache.data).find(([path]) => path.endsWith(DATA))!;
    cache.data[key] = {
      ...entry,
      sha256: '0'.repeat(64),
      result: { ...(entry.result as object), issues: [] },
    };
    writeFileSync(cacheFile, JSON.stringify(cache));
    const again = new GeometryChecker({ cacheFile });
    const { problems } = await validateManifests(r, {
      measurer: new MeasurementCache(),
      coverage: false,
      geometry: again,
    });
    expect(again.stats).toEqual({ filesChecked: 1, cacheHits: 1 });
    expect(problems.map((p) => p.file)).toContain(DATA);
  });

  it('build publishes with geometry warnings (status on the page and in the API) and refuses a structural error', async () => {
    const r = root();
    await tree(r, [square, bowTie]);
    const built = await buildCatalogue({ root: r, out: join(r, 'dist') });
    expect(built.ok && built.warnings.map((p) => `${p.file}: ${p.severity}`)).toEqual([
      `${DATA}: warning`,
      `${PREVIEW}: warning`,
    ]);
    const api = JSON.parse(readFileSync(join(r, 'dist/api/v1/index.json'), 'utf8')) as {
      entries: { datasets: { geometry?: unknown }[] }[];
    };
    expect(api.entries[0]!.datasets[0]!.geometry).toEqual({ invalid: 1, checked: 2 });
    expect(readFileSync(join(r, 'dist/earth/FJI/index.html'), 'utf8')).toContain(
      '>1 invalid feature</small>',
    );

    const broken = root();
    await tree(broken, [square, unclosed]);
    const refused = await buildCatalogue({ root: broken, out: join(broken, 'dist') });
    expect(refused.ok).toBe(false);
    expect(existsSync(join(broken, 'dist'))).toBe(false);
  });

  it('CLI: a build that fails prints the warnings, then its errors apart and last, then the count of each', async () => {
    const r = root();
    await tree(r, [bowTie, square]); // FJI: 2 warnings
    // CHL (before FJI in file order): 6 stats errors
    cpSync('test/fixtures/manifests/false/stats/data/earth/CHL', join(r, 'data/earth/CHL'), {
      recursive: true,
    });
    const run = await cli('build', '--root', r, '--out', join(r, 'dist'));
    expect(run.code).toBe(1);
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines.slice(0, 3)).toEqual([
      `${join(r, DATA)}: /features/0/geometry/coordinates/0: warning: self-intersection at or near [1, 1]`,
      `${join(r, PREVIEW)}: /features/0/geometry/coordinates/0: warning: self-intersection at or near [1, 1]`,
      '',
    ]);
    expect(lines.slice(3, -1)).toHaveLength(6);
    for (const line of lines.slice(3, -1))
      expect(line).toMatch(/CHL\/manifest\.json: \/datasets\/0\/\w+: file /);
    expect(lines.at(-1)).toBe(
      'geoshelf build: 8 problems in 3 files (6 errors, 2 warnings); nothing was written',
    );
    expect(existsSync(join(r, 'dist'))).toBe(false);
  });

  it('CLI: warnings alone exit 0, --strict exits 1; --json carries every problem with its severity', async () => {
    const r = root();
    await tree(r, [bowTie, square]);
    const plain = await cli('validate', '--root', r, '--no-cache');
    expect(plain.code).toBe(0);
    expect(plain.stderr).toBe(
      [
        `${join(r, DATA)}: /features/0/geometry/coordinates/0: warning: self-intersection at or near [1, 1]`,
        `${join(r, PREVIEW)}: /features/0/geometry/coordinates/0: warning: self-intersection at or near [1, 1]`,
        '2 problems in 2 files (2 warnings): 2 geometry\n',
      ].join('\n'),
    );
    const strict = await cli('validate', '--root', r, '--no-cache', '--strict', '--json');
    expect(strict.code).toBe(1);
    const problems = JSON.parse(strict.stdout) as { file: string; severity: string }[];
    expect(problems.map((p) => `${p.file} ${p.severity}`)).toEqual([
      `${join(r, DATA)} error`,
      `${join(r, PREVIEW)} error`,
    ]);
  });
});
