// Adversarial shapes (issue 16, section 2): ordinary-looking features on
// which the checks once went quadratic (long teeth, thousands of holes or
// polygons). The verdict and kind equal GEOS's; the indexes that keep them
// near n log n give exactly the answers of the plain loops; and the work,
// counted rather than timed, stays within c·n·log2 n.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkGeometryFile } from '../../build/geometry/check-file.ts';
import { indexLimits, work } from '../../build/geometry/limits.ts';
import { checkFlat, flatten } from '../../build/geometry/validity.ts';
import { seededRandom } from '../support/random.ts';
import { adversarialShapes } from './adversarial.ts';
import { gridGeometry, manyRingsGeometry, type Polygonal } from './generate.ts';
import { geosVerdicts, skipOracle, writeCollection } from './oracle.ts';

/** Every shape, valid and with each of its defects, of about `vertices` positions. */
function variants(vertices: number): { name: string; geometry: Polygonal }[] {
  return adversarialShapes.flatMap((shape) =>
    [undefined, ...shape.defects].map((defect) => ({
      name: `${shape.name} (${defect ?? 'valid'})`,
      geometry: shape.make(vertices, defect),
    })),
  );
}

function check(geometry: Polygonal) {
  return checkFlat(flatten(geometry.type, geometry.coordinates));
}

/** Runs `run` with every index limit set to `value` (0: indexes everywhere; Infinity: the plain loops). */
function withLimits<T>(value: number, run: () => T): T {
  const saved = { ...indexLimits };
  for (const key of Object.keys(indexLimits) as (keyof typeof indexLimits)[]) indexLimits[key] = value;
  try {
    return run();
  } finally {
    Object.assign(indexLimits, saved);
  }
}

/** The work checkFlat counts on `geometry` (build/geometry/limits.ts). */
function workOn(geometry: Polygonal): number {
  work.tests = 0;
  check(geometry);
  return work.tests;
}

describe('adversarial shapes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'geoshelf-adversarial-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.skipIf(skipOracle)(
    'GEOS agrees at ~2,000 vertices: each shape valid, each defect invalid with the same kind',
    async () => {
      const all = variants(2000);
      const file = writeCollection(
        dir,
        'adversarial.geojson',
        all.map((v) => v.geometry),
      );
      const geos = geosVerdicts([file])[0]!;
      const { issues } = await checkGeometryFile(file);
      const ours = new Map(issues.map((issue) => [issue.feature, issue.kind]));
      const rows = all.map(({ name }, i) => [name, ours.get(i) ?? 'valid']);
      const expected = all.map(({ name }, i) => {
        const [valid, reason] = geos[i]!;
        const kind = ours.get(i);
        // GEOS words a kind in title case ("Ring Self-intersection[x y]").
        return [name, valid ? 'valid' : kind && reason.toLowerCase().startsWith(kind) ? kind : reason];
      });
      expect(rows).toEqual(expected);
      expect(rows.filter(([, kind]) => kind !== 'valid').length).toBe(
        adversarialShapes.reduce((n, s) => n + s.defects.length, 0),
      );
    },
  );

  it('the indexes give exactly the plain loops’ answers (shapes, defects, 1,200 random geometries)', () => {
    const random = seededRandom(16);
    const geometries = [
      ...variants(600).map((v) => v.geometry),
      ...Array.from({ length: 600 }, () => gridGeometry(random)),
      ...Array.from({ length: 600 }, () => manyRingsGeometry(random)),
    ];
    const plain = withLimits(Infinity, () => geometries.map(check));
    const indexed = withLimits(0, () => geometries.map(check));
    expect(indexed).toEqual(plain);
    expect(plain.filter(Boolean).length).toBeGreaterThan(500); // many invalid, of every kind
  });

  it.each(adversarialShapes.map((shape) => [shape.name, shape]))(
    '%s: the work at 20,000 vertices stays within 32·n·log2 n',
    (_, shape) => {
      const geometry = shape.make(20_000);
      const n = flatten(geometry.type, geometry.coordinates).positions;
      expect(workOn(geometry)).toBeLessThan(32 * n * Math.log2(n));
    },
  );

  it('with the indexes off, teeth and a square of holes take quadratic work: the bound above catches a return to it', () => {
    for (const name of ['teeth', 'square with square holes']) {
      const geometry = adversarialShapes.find((shape) => shape.name === name)!.make(20_000);
      const n = flatten(geometry.type, geometry.coordinates).positions;
      expect([name, withLimits(Infinity, () => workOn(geometry)) > 32 * n * Math.log2(n)]).toEqual([
        name,
        true,
      ]);
    }
  });
});
