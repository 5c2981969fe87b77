// Golden output, one case per folder of expected files (like Observable
// Framework's test/output/build/*): each input tree, built with the case's
// options, gives exactly the files in its expected folder.
// `UPDATE=1 npx vitest run test/build/golden.test.ts` rewrites them after an
// intended change (never in CI). Left out: data/ (byte-identical copies,
// checked in build.test.ts), assets/ (vite's minified bundle), schema/
// (public/, owned by the validator) and the binary files under downloads/
// (compared through their SHA256SUMS, which also pins that conversions are
// deterministic: same source → same bytes).
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalogue, type BuildOptions } from '../../build/build.ts';
import { FIXTURE, filesUnder } from './helpers.ts';

const CASES: { name: string; input: string; expected: string; options: Partial<BuildOptions> }[] = [
  {
    name: 'three countries, a parts-only split level, a preview',
    input: FIXTURE,
    expected: join(FIXTURE, 'expected'),
    options: { base: '/' },
  },
  {
    name: 'the same under --base /atlas/ with --site-url (absolute sitemap)',
    input: FIXTURE,
    expected: join(FIXTURE, 'expected-base'),
    options: { base: '/atlas/', siteUrl: 'https://boundaries.example.org' },
  },
  {
    name: 'a split level that also has its whole file',
    input: join(FIXTURE, 'split'),
    expected: join(FIXTURE, 'split', 'expected'),
    options: {},
  },
];

/** Vite names assets by content hash; the golden files name them without it. */
function normalise(text: string): string {
  return text.replace(/assets\/([\w.-]+?)-[\w-]{8}\.(js|css)/g, 'assets/$1-HASH.$2');
}

// search/: the index's shards, checked rule by rule in search-index.test.ts;
// *.pmtiles: the map tiles, binary, read back in test/tiles/.
const compared = (file: string) =>
  !/^(data|assets|schema|search)\//.test(file) &&
  !file.endsWith('.pmtiles') &&
  (!file.startsWith('downloads/') || file.endsWith('/SHA256SUMS'));

describe('golden output', () => {
  for (const c of CASES) {
    it(`${c.name} → ${c.expected.slice(FIXTURE.length)}`, async () => {
      const root = mkdtempSync(join(tmpdir(), 'geoshelf-golden-'));
      try {
        cpSync(join(c.input, 'data'), join(root, 'data'), { recursive: true });
        const out = join(root, 'dist');
        const result = await buildCatalogue({ root, out, ...c.options });
        expect(result.ok).toBe(true);
        const actual = filesUnder(out).filter(compared);
        if (process.env.UPDATE) {
          if (process.env.CI) throw new Error('UPDATE=1 rewrites the expected files: never in CI');
          rmSync(c.expected, { recursive: true, force: true });
          for (const file of actual) {
            mkdirSync(dirname(join(c.expected, file)), { recursive: true });
            writeFileSync(join(c.expected, file), normalise(readFileSync(join(out, file), 'utf8')));
          }
        }
        expect(actual).toEqual(filesUnder(c.expected));
        for (const file of actual) {
          expect(normalise(readFileSync(join(out, file), 'utf8')), file).toBe(
            readFileSync(join(c.expected, file), 'utf8'),
          );
        }
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });
  }
});
