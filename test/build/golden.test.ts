// Golden output: the fixture tree (test/fixtures/build/data) builds to exactly
// the files in test/fixtures/build/expected/. `UPDATE=1 npx vitest run
// test/build/golden.test.ts` rewrites them after an intended change (never in CI).
// Left out: data/ (byte-identical copies, checked in build.test.ts), assets/
// (vite's minified bundle), schema/ (public/, owned by the validator) and the
// binary files under downloads/ (their SHA256SUMS is compared).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../build/build.ts';
import { EXPECTED, filesUnder, fixtureCopy } from './helpers.ts';

const root = fixtureCopy();
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Vite names assets by content hash; the golden files name them without it. */
function normalise(text: string): string {
  return text.replace(/assets\/([\w.-]+?)-[\w-]{8}\.(js|css)/g, 'assets/$1-HASH.$2');
}

// Binary downloads are compared through their SHA256SUMS, which also pins
// that conversions are deterministic (same source → same bytes).
const compared = (file: string) =>
  !/^(data|assets|schema)\//.test(file) && (!file.startsWith('downloads/') || file.endsWith('/SHA256SUMS'));

describe('golden output', () => {
  it('fixture tree → dist/ equals test/fixtures/build/expected/', async () => {
    const out = join(root, 'dist');
    const result = await buildCatalogue({ root, out, base: '/' });
    expect(result.ok).toBe(true);
    const actual = filesUnder(out).filter(compared);

    if (process.env.UPDATE) {
      if (process.env.CI) throw new Error('UPDATE=1 rewrites the expected files: never in CI');
      rmSync(EXPECTED, { recursive: true, force: true });
      for (const file of actual) {
        mkdirSync(dirname(join(EXPECTED, file)), { recursive: true });
        writeFileSync(join(EXPECTED, file), normalise(readFileSync(join(out, file), 'utf8')));
      }
    }
    expect(actual).toEqual(filesUnder(EXPECTED));
    for (const file of actual) {
      expect(normalise(readFileSync(join(out, file), 'utf8')), file).toBe(
        readFileSync(join(EXPECTED, file), 'utf8'),
      );
    }
  });
});
