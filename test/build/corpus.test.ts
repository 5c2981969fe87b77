// The shared World-GeoJSON corpus (real manifests): ARG lists files the corpus
// leaves out, so the build must refuse it; without ARG it must build.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../build/build.ts';
import { cli } from '../support/cli.ts';
import { corpusPresent, WORLD_GEOJSON } from '../support/corpus.ts';

const CORPUS = WORLD_GEOJSON;
const scratch = mkdtempSync(join(tmpdir(), 'geoshelf-corpus-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.skipIf(!corpusPresent(CORPUS))('build of the World-GeoJSON corpus', () => {
  it('with ARG (files missing) → every problem printed as FILE: POINTER: message, exit 1, no output', async () => {
    const out = join(scratch, 'refused');
    const run = await cli('build', '--root', CORPUS, '--out', out);
    expect(run.code).toBe(1);
    const lines = run.stderr.trim().split('\n');
    const arg = join(CORPUS, 'data/earth/ARG'); // files are named from the current folder
    expect(lines).toContain(
      `${arg}/manifest.json: /datasets/0/path: file ${arg}/ARG_ADM0.geojson does not exist`,
    );
    // As validate prints them: 10 problems per file and rule, then a count; and ADM1's preview-stale warning.
    expect(lines.filter((line) => line.startsWith(`${arg}/manifest.json: `))).toHaveLength(12);
    expect(lines).toContain(
      `${arg}/manifest.json: … and 15 more file-missing problems (all of them with --json)`,
    );
    // 10 of them are nesting warnings (AND's and ATG's summaries, ARG's 8 units outside every parent),
    // 10 preview-stale ones (previews coarser than their manifests state: test/manifests/corpus.test.ts).
    expect(lines.at(-1)).toBe(
      'geoshelf build: 45 problems in 11 files (25 errors, 20 warnings); nothing was written',
    );
    expect(existsSync(out)).toBe(false);
  });

  it('without ARG → builds: review status, previews drawn, files published', async () => {
    const root = join(scratch, 'root');
    cpSync(join(CORPUS, 'data'), join(root, 'data'), { recursive: true });
    rmSync(join(root, 'data/earth/ARG'), { recursive: true });
    const out = join(root, 'dist');
    const result = await buildCatalogue({ root, out });
    expect(result.ok && [result.manifests, result.datasets]).toEqual([7, 9]);
    const atg = readFileSync(join(out, 'earth/ATG/index.html'), 'utf8');
    expect(atg).toContain('banner-review');
    expect(atg).toMatch(/<title id="map-title">Map of Antigua and Barbuda, ADM1 preview<\/title><path/);
    const ala = readFileSync(join(out, 'earth/ALA/index.html'), 'utf8');
    expect(ala).toContain('geoBoundaries has no');
    expect(readFileSync(join(out, 'data/earth/AND/AND_ADM1.geojson'))).toEqual(
      readFileSync(join(CORPUS, 'data/earth/AND/AND_ADM1.geojson')),
    );
    const again = await buildCatalogue({ root, out });
    expect(again.ok && [again.geojsonFilesRead, again.write.written]).toEqual([0, 0]);
  });
});
