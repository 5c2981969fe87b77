// The real published manifests of ../shared/corpus/world-geojson: the seven
// complete countries validate and are reproduced exactly by `manifest`; ARG
// lacks 25 files on purpose, and validate reports exactly those.
import { formatProblem } from '../../build/core/problem.ts';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MeasurementCache } from '../../build/measure/cache.ts';
import { validateManifests } from '../../build/manifest/validate.ts';
import { cli, lines, tempCopy } from './helpers.ts';
import { corpusPresent, WORLD_GEOJSON } from '../support/corpus.ts';

const CORPUS = WORLD_GEOJSON;
const present = corpusPresent(join(CORPUS, 'data'));
const ARG = 'data/earth/ARG/manifest.json';
// The ADM2 parts not copied into the corpus (see ../shared/corpus/world-geojson/SOURCE.md): all but AR-C and unassigned.
const MISSING_PARTS = 'ABDFGHJKLMNPQRSTUVWXYZ'.split('');
const COMPLETE = ['ABW', 'AIA', 'ALA', 'AND', 'ATG', 'LIE', 'SMR'];

describe.skipIf(!present)('corpus: world-geojson (../shared/corpus/world-geojson)', () => {
  const roots: string[] = [];
  afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

  /** A temp copy of the corpus without ARG: the seven complete countries. */
  function completeCopy(): string {
    const root = tempCopy(CORPUS);
    roots.push(root);
    rmSync(join(root, 'data/earth/ARG'), { recursive: true });
    return root;
  }

  it('validate reports exactly ARG’s 25 missing files as errors, and the units that do not nest as warnings', async () => {
    // No cache file: the corpus is read-only input.
    const { manifests, problems } = await validateManifests(CORPUS, { measurer: new MeasurementCache() });
    expect(manifests).toHaveLength(8);
    const errors = problems.filter((p) => p.severity === 'error');
    expect(errors.map(formatProblem)).toEqual([
      `${ARG}: /datasets/0/path: file data/earth/ARG/ARG_ADM0.geojson does not exist`,
      `${ARG}: /datasets/2/path: file data/earth/ARG/ARG_ADM2.geojson does not exist`,
      `${ARG}: /datasets/2/preview: file data/earth/ARG/preview/ARG_ADM2.preview.geojson does not exist`,
      ...MISSING_PARTS.map((letter) => {
        const index = 'ABCDFGHJKLMNPQRSTUVWXYZ'.indexOf(letter); // parts in manifest order, AR-C included
        return `${ARG}: /datasets/2/parts/${index}/path: file data/earth/ARG/ADM2/AR-${letter}.geojson does not exist`;
      }),
    ]);
    expect(new Set(errors.map((p) => p.rule))).toEqual(new Set(['file-missing']));
    // Sources of different scales and years (test/identity/nesting.test.ts checks the shares against GEOS).
    // Previews coarser than the 100 m their manifests state (the corpus mixes files of several commits):
    // each such preview is one preview-stale warning at its dataset.
    const warnings = new Map<string, number>();
    const stale: string[] = [];
    for (const p of problems.filter((p) => p.severity === 'warning')) {
      if (p.rule === 'preview-stale') {
        stale.push(`${p.file.split('/')[2]}${p.pointer}`);
        continue;
      }
      expect(p.rule).toBe('nesting');
      warnings.set(p.file, (warnings.get(p.file) ?? 0) + 1);
    }
    expect(stale).toEqual([
      'ABW/datasets/0/preview',
      'AIA/datasets/0/preview',
      'ALA/datasets/0/preview',
      'AND/datasets/0/preview',
      'AND/datasets/1/preview',
      'ARG/datasets/1/preview',
      'ATG/datasets/0/preview',
      'ATG/datasets/1/preview',
      'LIE/datasets/0/preview',
      'SMR/datasets/0/preview',
    ]);
    // One summary per whole level (AND, ATG: docs/manifests.md), a line per unit outside every parent
    // (ARG's unassigned); ARG's ADM2 misses files, so it gets no summary of its share.
    expect(Object.fromEntries(warnings)).toEqual({
      'data/earth/AND/AND_ADM1.geojson': 1,
      'data/earth/ARG/ADM2/unassigned.geojson': 8,
      'data/earth/ATG/ATG_ADM1.geojson': 1,
    });
  });

  it('without ARG: validate exits 0 (nesting warnings only), manifest --check is clean, manifest leaves the 7 manifests byte-identical', async () => {
    const root = completeCopy();
    expect(readdirSync(join(root, 'data/earth')).sort()).toEqual(COMPLETE);
    const before = COMPLETE.map((iso) => readFileSync(join(root, `data/earth/${iso}/manifest.json`)));
    const mtimes = COMPLETE.map((iso) => statSync(join(root, `data/earth/${iso}/manifest.json`)).mtimeMs);

    const validate = await cli('validate', '--root', root);
    expect([validate.code, validate.stdout]).toEqual([0, '']);
    // A nesting summary for AND's and ATG's ADM1; 9 previews coarser than their manifests state (above).
    expect(lines(validate.stderr).at(-1)).toBe(
      '11 problems in 9 files (11 warnings): 9 preview-stale, 2 nesting',
    );
    expect(
      lines(validate.stderr)
        .slice(0, -1)
        .every(
          (line) =>
            line.includes(': warning: ADM1 in ADM0: ') || line.includes(': warning: preview is stale: '),
        ),
    ).toBe(true);

    const check = await cli('manifest', '--root', root, '--check');
    expect(check.code).toBe(0);
    expect(lines(check.stdout)).toEqual([]);

    const write = await cli('manifest', '--root', root);
    expect(write).toMatchObject({ code: 0, stdout: '' });
    COMPLETE.forEach((iso, i) => {
      const file = join(root, `data/earth/${iso}/manifest.json`);
      expect(readFileSync(file).equals(before[i]!), iso).toBe(true);
      expect(statSync(file).mtimeMs, iso).toBe(mtimes[i]);
    });
  });
});
