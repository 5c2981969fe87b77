// World GeoParquet files against pyarrow, shapely ≥ 2 and pyproj (issue 30
// §4 and §5; the long project, as every .venv-oracle test): the sample's
// Mars and Moon catalogues and the build fixture's Earth, built in process;
// each world .parquet must hold the world GeoJSON's features (every
// property, every double), each with country, license and attribution, and
// declare the body's CRS (test/formats/world_parquet_oracle.py).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../build/build.ts';
import type { ApiIndex } from '../../build/core/shared/api.ts';
import { FIXTURE } from '../build/helpers.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const PYTHON = join(ROOT, '.venv-oracle/bin/python');
const ORACLE = join(ROOT, 'test/formats/world_parquet_oracle.py');
const root = mkdtempSync(join(tmpdir(), 'geoshelf-world-oracle-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const CRS: Record<string, string> = { earth: 'OGC:CRS84', mars: 'IAU_2015:49900', moon: 'IAU_2015:30100' };

describe('world GeoParquet against pyarrow, shapely ≥ 2 and pyproj', () => {
  it('every world .parquet holds its world GeoJSON’s features, with country, license and attribution, in the body’s CRS', async () => {
    expect(existsSync(PYTHON)).toBe(true);
    cpSync(join(FIXTURE, 'data'), join(root, 'data'), { recursive: true });
    for (const body of ['mars', 'moon']) {
      cpSync(join(ROOT, 'data', body), join(root, 'data', body), { recursive: true });
    }
    const out = join(root, 'dist');
    const result = await buildCatalogue({ root, out, tiles: false });
    expect(result.ok).toBe(true);
    const index = JSON.parse(readFileSync(join(out, 'api/v1/index.json'), 'utf8')) as ApiIndex;
    const parquets = index.world_files.filter((f) => f.format === 'parquet');
    expect(new Set(parquets.map((f) => f.body))).toEqual(new Set(['earth', 'mars', 'moon']));
    const input = parquets.map((f) => [
      join(out, f.url.slice(1)),
      join(out, f.url.slice(1).replace(/\.parquet$/, '.geojson')),
      CRS[f.body],
    ]);
    const verdicts = execFileSync(PYTHON, [ORACLE], {
      input: JSON.stringify(input),
      encoding: 'utf8',
      timeout: 300_000,
      maxBuffer: 1 << 26,
    })
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { file: string; problems: string[]; rows: number });
    expect(verdicts.map((v) => v.file)).toEqual(input.map((i) => i[0]));
    expect(verdicts.filter((v) => v.problems.length > 0)).toEqual([]);
    expect(verdicts.every((v) => v.rows > 0)).toBe(true);
  }, 600_000);
});
