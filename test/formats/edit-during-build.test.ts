// A level edited while `build` runs is never cached under the sha256
// validate measured (issue 27 item 5): the conversion reads the file again
// once made, and an edit since is a one-line file-changed problem; restored
// byte for byte, the next clean build publishes the original names. The
// edit is made from build's own progress hook, as downloads start: no sleep.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../build/build.ts';
import { UserError } from '../../build/core/errors.ts';
import { fixtureCopy } from '../build/helpers.ts';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const ADM1 = 'data/earth/CHL/CHL_ADM1.geojson';

/** The download files of CHL_ADM1 under `dir` that hold `text` (a unit's name). */
function downloadsHolding(dir: string, text: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.startsWith('CHL_ADM1.') && !e.name.endsWith('.geojson'))
    .filter((e) => readFileSync(join(e.parentPath, e.name)).includes(text))
    .map((e) => e.name);
}

describe('a level edited during build', () => {
  it('→ refused in one line (file-changed), nothing cached under its old sha256; restored, a clean build publishes the original names', async () => {
    const root = fixtureCopy();
    roots.push(root);
    const path = join(root, ADM1);
    const original = readFileSync(path);
    const edited = original.toString('utf8').replace('"Antofagasta"', '"Antofagasta Norte"');
    const out = join(root, 'dist');
    let problems: unknown;
    try {
      const built = await buildCatalogue({
        root,
        out,
        tiles: false,
        onProgress: (stage, done) => {
          if (stage === 'converting downloads' && done === undefined) writeFileSync(path, edited);
        },
      });
      problems = built.ok ? 'built' : built.problems;
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      problems = error.problems;
    }
    expect(problems).toEqual([
      expect.objectContaining({
        file: ADM1,
        rule: 'file-changed',
        message: expect.stringMatching(
          /^changed while the command read it \(its sha256 is now [0-9a-f]{12}…/,
        ),
      }),
    ]);

    writeFileSync(path, original);
    const clean = await buildCatalogue({ root, out, tiles: false });
    expect(clean.ok).toBe(true);
    expect(downloadsHolding(out, 'Antofagasta Norte')).toEqual([]);
    expect(downloadsHolding(out, 'Antofagasta').sort()).toEqual([
      'CHL_ADM1.fgb',
      'CHL_ADM1.gpkg',
      'CHL_ADM1.parquet', // its statistics and its pages (under 4 KiB: not gzipped)
      'CHL_ADM1.topojson', // (the Shapefile is deflated in its zip)
    ]);
  });
});
