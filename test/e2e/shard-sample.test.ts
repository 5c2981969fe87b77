// Issue 28 §3 on the sample (data/, about 250 countries on three bodies):
// `geoshelf build --shard K/N` for N = 1, 2, 3 and 7, each shard in a root
// of its own (as on its own machine, with its own cache), then
// `geoshelf build --merge`, gives every file of a single `build` of the same
// tree with the same --base, with the same sha256, and no other file. Empty
// shards and more shards than tasks: test/shard/merge.test.ts, on a
// smaller tree with a release.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.ts';
import { filesUnder, sha256 } from '../build/helpers.ts';

const SAMPLE = new URL('../../data', import.meta.url).pathname;
const TMP = mkdtempSync(join(tmpdir(), 'geoshelf-shard-sample-'));
const BASE = '/catalogue/';
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

/** Returns a root holding a copy of the sample's data/ (no ledger: the sample has no release). */
function sampleRoot(name: string): string {
  const root = join(TMP, name);
  cpSync(SAMPLE, join(root, 'data'), { recursive: true });
  return root;
}

/** Returns path → sha256 of every file under `dir`. */
function sums(dir: string): Record<string, string> {
  return Object.fromEntries(filesUnder(dir).map((f) => [f, sha256(readFileSync(join(dir, f)))]));
}

let single: Record<string, string>;
const roots: string[] = []; // roots[K-1]: the machine of shard K, for every N
beforeAll(async () => {
  const root = sampleRoot('single');
  const built = await cli(
    'build',
    '--root',
    root,
    '--out',
    join(TMP, 'single-dist'),
    '--base',
    BASE,
    '--quiet',
  );
  expect(built.stderr).toBe('');
  expect(built.code).toBe(0);
  single = sums(join(TMP, 'single-dist'));
  for (let k = 1; k <= 7; k++) roots.push(sampleRoot(`machine-${k}`));
}, 600_000); // a bound for a hang only

describe('a sharded build of the sample is byte-identical to a single build', () => {
  it.each([1, 2, 3, 7])(
    'N = %i: every file of the merge has the sha256 of the single build, none more, none less',
    async (n) => {
      const dirs: string[] = [];
      for (let k = 1; k <= n; k++) {
        const dir = join(TMP, `n${n}`, `shard-${k}`);
        const made = await cli(
          'build',
          '--root',
          roots[k - 1]!,
          '--shard',
          `${k}/${n}`,
          '--out',
          dir,
          '--base',
          BASE,
          '--quiet',
        );
        expect(made.code, made.stderr).toBe(0);
        dirs.push(dir);
      }
      const out = join(TMP, `merged-${n}`);
      const merged = await cli('build', '--merge', ...dirs, '--out', out, '--base', BASE, '--quiet');
      expect(merged.code, merged.stderr).toBe(0);
      expect(sums(out)).toEqual(single);
      if (n === 7) {
        // One shard missing: one line naming it, exit 1, nothing written.
        const refused = await cli(
          'build',
          '--merge',
          ...dirs.slice(1),
          '--out',
          join(TMP, 'never'),
          '--base',
          BASE,
        );
        expect(refused.code).toBe(1);
        expect(refused.stderr).toMatch(
          /^geoshelf build: shard 1\/7 is missing: no folder given holds it; nothing was written\n/,
        );
      }
    },
    900_000, // a bound for a hang only
  );
});
