// Our verdict equals GEOS's (shapely's is_valid) on every feature: the sample
// data, the real corpus and generated geometries. A feature with an RFC 7946
// structural error is ours alone and is not compared.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../support/random.ts';
import { coastUnit } from './coast.ts';
import { gridGeometry, starPolygon } from './generate.ts';
import { compareWithGeos, skipOracle, writeCollection } from './oracle.ts';

const REPO = new URL('../../', import.meta.url).pathname;
const CORPUS = new URL('../../../shared/corpus/world-geojson/', import.meta.url).pathname;

function geojsonFiles(dir: string): string[] {
  const out = execFileSync('find', [dir, '-name', '*.geojson', '-type', 'f']).toString().trim();
  return out === '' ? [] : out.split('\n').sort();
}

describe.skipIf(skipOracle)('geometry verdict = GEOS (shapely is_valid)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'geoshelf-geometry-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('agrees on every feature of the sample data under data/ (with its known invalid features)', async () => {
    const result = await compareWithGeos(geojsonFiles(join(REPO, 'data')));
    expect(result.disagreements).toEqual([]);
    expect(result.compared).toBeGreaterThan(10_000);
    expect(result.invalid).toBeGreaterThan(0); // ANT, FJI, RUS, TUV, a BRA state, US counties
  }, 60_000);

  it.skipIf(!existsSync(CORPUS))(
    'agrees on every feature of the corpus ../shared/corpus/world-geojson (skipped where absent)',
    async () => {
      const result = await compareWithGeos(geojsonFiles(CORPUS));
      expect(result.disagreements).toEqual([]);
      expect(result.compared).toBeGreaterThan(0);
    },
  );

  it('agrees on 3,000 random grid geometries (touches, spikes, crossings, nesting of every kind)', async () => {
    const random = seededRandom(10);
    const file = writeCollection(
      dir,
      'grid.geojson',
      Array.from({ length: 3000 }, () => gridGeometry(random)),
    );
    const result = await compareWithGeos([file]);
    expect(result.disagreements).toEqual([]);
    expect(result.invalid).toBeGreaterThan(500);
    expect(result.compared - result.invalid).toBeGreaterThan(300);
  });

  it('agrees on generated valid polygons of 150-1,500 positions with holes', async () => {
    const random = seededRandom(11);
    const geometries = Array.from({ length: 40 }, (_, i) => ({
      type: 'MultiPolygon',
      coordinates: [
        starPolygon(random, i, 0, 0.4, 150 + i * 34, i % 4),
        starPolygon(random, i, 1, 0.4, 150, 0),
      ],
    }));
    const result = await compareWithGeos([writeCollection(dir, 'stars.geojson', geometries)]);
    expect(result.disagreements).toEqual([]);
    expect(result.invalid).toBe(0);
  });

  it("agrees on jagged coast units (bench:geometry's shape), valid by construction but for those made invalid", async () => {
    const random = seededRandom(12);
    const valid = Array.from({ length: 150 }, (_, i) => coastUnit(random, i, { invalidEvery: Infinity }));
    const made = Array.from({ length: 60 }, (_, i) => coastUnit(random, i, { grid: 40, invalidEvery: 2 }));
    const result = await compareWithGeos([
      writeCollection(dir, 'coast.geojson', valid),
      writeCollection(dir, 'coast-invalid.geojson', made),
    ]);
    expect(result.disagreements).toEqual([]);
    expect(result.compared).toBe(210);
    expect(result.invalid).toBeGreaterThan(20); // of the 30 made invalid (a polygon in a bay stays valid)
  });
});
