// Coverage figures are measured on the manifest's body: the same gap between
// the same two boxes, drawn on the Earth, the Moon and Mars, is reported by
// `validate` (--json's detail.area_m2, and the message) with areas in the
// ratio of the bodies' squared radii (build/core/shared/crs.ts: the Moon's
// and Mars's IAU 2015 spheres).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ACCEPTED_CRS } from '../../build/core/shared/crs.ts';
import type { Problem } from '../../build/core/problem.ts';
import type { Body } from '../../build/core/shared/manifest.ts';
import { validateManifests } from '../../build/manifest/validate.ts';
import { MeasurementCache } from '../../build/measure/cache.ts';
import { boxFeature, writeCountry } from '../support/body-tree.ts';

const BODIES: { body: Body; iso: string; level: string }[] = [
  { body: 'earth', iso: 'AND', level: 'ADM1' },
  { body: 'moon', iso: 'LAC', level: 'ADM1' }, // not QUAD: a grid of its own, whose coverage is not checked
  { body: 'mars', iso: 'MCQ', level: 'ADM1' },
];

/** A slit 0.0001° wide between two 1° boxes, closed by a box below and one above: a gap narrower than 100 m on each body (10 m on the Earth). */
const GAP = 0.0001;
const ring = (code: string, points: number[][]) => ({
  type: 'Feature',
  properties: { shapeISO: code, shapeName: `Box ${code}` },
  geometry: { type: 'Polygon', coordinates: [[...points, points[0]]] },
});
const [a, b] = [11, 11 + GAP]; // the slit's sides
const features = [
  boxFeature([10, 20, a, 21], 'A-1'),
  boxFeature([b, 20, 12, 21], 'A-2'),
  ring('A-3', [[10, 19], [12, 19], [12, 20], [b, 20], [a, 20], [10, 20]]),
  ring('A-4', [[10, 21], [a, 21], [b, 21], [12, 21], [12, 22], [10, 22]]),
];

/** The radii the figures must be measured with: IUGG's mean Earth radius, and the spheres of IAU_2015:30100 and IAU_2015:49900 (`gdalsrsinfo`). */
const RADIUS_M: Record<Body, number> = { earth: 6_371_008.8, moon: 1_737_400, mars: 3_396_190 };

let root = '';
const gaps = new Map<Body, Problem>();

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'geoshelf-bodies-'));
  for (const b of BODIES) await writeCountry(root, { ...b, crs: ACCEPTED_CRS.find((c) => c.body === b.body)! }, features);
  const { problems } = await validateManifests(root, { measurer: new MeasurementCache() });
  expect(problems.map((p) => p.rule)).toEqual(['coverage', 'coverage', 'coverage']);
  for (const p of problems) gaps.set(p.file.split('/')[1] as Body, p);
});

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

const areaOf = (body: Body) => (gaps.get(body)!.detail as { area_m2: number }).area_m2;

it.each(['moon', 'mars'] as const)(
  'a %s gap’s area is the Earth’s × (its radius / the Earth’s)²',
  (body) => {
    expect(gaps.get(body)!.detail).toMatchObject({ kind: 'gap' });
    expect(gaps.get(body)!.message).toMatch(/^gap of [\d.]+ (km²|m²) /);
    const ratio = areaOf(body) / areaOf('earth');
    expect(ratio / (RADIUS_M[body] / RADIUS_M.earth) ** 2).toBeCloseTo(1, 5);
  },
);
