// Published quality (issue 29 §5): each level's coverage figures, as
// validate measured them, on its country page and in the country's API
// document; every release records them in the ledger, and the releases API
// says which levels became clean. In-process, on the build fixture with an
// overlap injected into CHL ADM1 and then taken out again.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inscribedCircle } from '../../build/coverage/measure.ts';
import type { ApiReleases, CountryDocument } from '../../build/core/shared/api.ts';
import { releasedLevel } from '../../build/release/ledger-shapes.ts';
import { cli, copyDataTree } from '../support/cli.ts';
import { ledgerRelease } from '../support/ledger.ts';

const FIXTURE = new URL('../fixtures/build', import.meta.url).pathname;
const ADM1 = 'data/earth/CHL/CHL_ADM1.geojson';
const TMP = join(tmpdir(), `geoshelf-coverage-published-${process.pid}`);
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

type Ring = [number, number][];
interface Feature {
  geometry: { type: 'Polygon'; coordinates: Ring[] } | { type: 'MultiPolygon'; coordinates: Ring[][] };
}

/** Returns a unit's polygons (a Polygon as one). */
const polygons = (f: Feature): Ring[][] =>
  f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates;

/** Returns ADM1's text with a triangle of unit 0 inside unit 1 (a quarter of its room across): one overlap. */
function withOverlap(text: string): string {
  const fc = JSON.parse(text) as { features: Feature[] };
  const [a, b] = fc.features as [Feature, Feature];
  let best = { point: [0, 0], widthM: 0 };
  for (const p of polygons(b)) {
    const room = inscribedCircle(
      p.map((r) => Float64Array.from(r.flat())),
      6_371_008.8,
      10,
    );
    if (room.widthM > best.widthM) best = room;
  }
  const d = best.widthM / 4 / 111_195; // degrees of latitude
  const [x, y] = best.point as [number, number];
  const triangle: Ring = [
    [x - d, y - d / 2],
    [x + d, y - d / 2],
    [x, y + d],
    [x - d, y - d / 2],
  ];
  a.geometry = { type: 'MultiPolygon', coordinates: [...polygons(a), [triangle]] };
  return JSON.stringify(fc);
}

/** Writes ADM1 and does what a publisher does next: `manifest CHL`, `preview CHL/ADM1`. */
async function writeLevel(root: string, text: string): Promise<void> {
  writeFileSync(join(root, ADM1), text);
  for (const args of [
    ['manifest', 'CHL'],
    ['preview', 'CHL/ADM1'],
  ]) {
    const r = await cli(args[0]!, '--root', root, ...args.slice(1));
    expect(r.code, r.stderr).toBe(0);
  }
}

async function releaseAndBuild(root: string, version: string): Promise<void> {
  const released = await cli('release', version, '--root', root);
  expect(released.code, released.stderr).toBe(0);
  const built = await cli('build', '--root', root, '--out', join(root, 'dist'), '--quiet');
  expect(built.code, built.stderr).toBe(0);
}

const read = (root: string, path: string) => readFileSync(join(root, 'dist', path), 'utf8');
const adm1Coverage = (root: string) =>
  (JSON.parse(read(root, 'api/v1/earth/CHL.json')) as CountryDocument).urls.find((u) => u.level === 'ADM1')!
    .coverage;

describe('published quality: coverage figures on the page, in the API and in each release', () => {
  it('an overlap shows on the country page and in the API, the release records it, and the next release says the level became clean', async () => {
    const root = copyDataTree(FIXTURE, TMP);
    const original = readFileSync(join(root, ADM1), 'utf8');
    await writeLevel(root, withOverlap(original));
    await releaseAndBuild(root, '1.0.0');

    // The API: ADM1's figures, one overlap; ADM0 (one unit) has none to show.
    const doc = JSON.parse(read(root, 'api/v1/earth/CHL.json')) as CountryDocument;
    const figures = adm1Coverage(root)!;
    expect(figures).toMatchObject({ units: 3, overlaps: { count: 1 }, gaps: { count: 0 }, edges: 0 });
    expect(figures.overlaps.area_m2).toBeGreaterThan(0);
    expect(figures.nesting).toMatchObject({ parent_level: 'ADM0' });
    expect(doc.urls.find((u) => u.level === 'ADM0')!.coverage).toBeUndefined();
    // The page: the same figures, in words.
    const page = read(root, 'earth/CHL/index.html');
    expect(page).toContain('How the units fit together');
    const row = /<th scope="row" data-label="Level">ADM1<\/th>[\s\S]*?<\/tr>/.exec(
      page.slice(page.indexOf('id="coverage"')),
    )![0];
    expect(row).toContain('<span class="coverage-defects">defects</span>');
    expect(row).toContain('1 overlap (');
    expect(row).toContain('no gaps');
    // The ledger's record of the release holds the figures the API published.
    const first = await ledgerRelease(root, '1.0.0');
    expect(first.record.levels.find((l) => l.country === 'CHL' && l.level === 'ADM1')!.coverage).toEqual(
      figures,
    );

    // The overlap taken out: the next release's API entry says ADM1 became clean.
    await writeLevel(root, original);
    await releaseAndBuild(root, '1.1.0');
    expect(adm1Coverage(root)).toMatchObject({
      overlaps: { count: 0, area_m2: 0 },
      gaps: { count: 0 },
      edges: 0,
    });
    expect(read(root, 'earth/CHL/index.html')).toContain('<span class="coverage-clean">clean</span>');
    const releases = (JSON.parse(read(root, 'api/releases.json')) as ApiReleases).releases;
    const [newer, older] = releases;
    expect(newer!.coverage!.became_clean).toEqual(['earth/CHL/ADM1']);
    expect(newer!.coverage!.clean).toBe(newer!.coverage!.levels);
    expect(older!.coverage!.became_clean).toEqual([]);
    expect(older!.coverage!.clean).toBe(older!.coverage!.levels - 1);
  });

  it('a ledger level whose coverage figures are not numbers, or a share above 1 → the ledger check names the field', () => {
    const level = {
      body: 'earth',
      country: 'CHL',
      level: 'ADM1',
      files: [{ path: ADM1, sha256: 'a'.repeat(64) }],
      ids: [],
    };
    const figures = {
      units: 3,
      gap_width_m: 100,
      overlaps: { count: 1, area_m2: 12.5 },
      gaps: { count: 0, area_m2: 0 },
      edges: 0,
      nesting: { parent_level: 'ADM0', parent_covered: 0.37, outside: 0.016, units_outside: 2 },
    };
    expect(releasedLevel(level)).toBeUndefined();
    expect(releasedLevel({ ...level, coverage: figures })).toBeUndefined();
    expect(releasedLevel({ ...level, coverage: { ...figures, overlaps: { count: 1, area_m2: '12' } } })).toBe(
      'coverage: overlaps: area_m2: expected an area ≥ 0',
    );
    const nesting = { ...figures.nesting, outside: 1.5 };
    expect(releasedLevel({ ...level, coverage: { ...figures, nesting } })).toBe(
      'coverage: nesting: outside: expected a share from 0 to 1',
    );
  });
});
