// A ledger is input, and so is the data a release freezes (issue 27, items
// 1–3), each case as the red team wrote it: a published path that climbs out
// of --out, a release folder named as a script, and a release's reserved
// marks hidden behind JSON escapes. The fuzz tests try many more
// (test/release/ledger-fuzz.test.ts, test/e2e/ledger-fuzz.test.ts).
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readLedger } from '../../build/release/ledger.ts';
import { fixtureCopy } from '../build/helpers.ts';
import { cli, copyRoot } from '../support/cli.ts';
import { LedgerEdit, XSS_VERSION } from '../support/ledger-mutations.ts';
import { seededRandom } from '../support/random.ts';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

// The fixture released once (a release costs ~1 s of CPU), copied for each test that starts there.
let template: Promise<string> | undefined;
afterAll(async () => {
  if (template) rmSync(await template, { recursive: true, force: true });
});

/** A copy of the build fixture with release 1.0.0 recorded. */
async function released(): Promise<string> {
  template ??= (async () => {
    const root = fixtureCopy();
    expect((await cli('release', '1.0.0', '--root', root)).code).toBe(0);
    return root;
  })();
  const root = copyRoot(await template, tmpdir());
  roots.push(root);
  return root;
}

/** Every file under `dir` whose text holds `needle`. */
function holding(dir: string, needle: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && readFileSync(join(e.parentPath, e.name)).includes(needle))
    .map((e) => join(e.parentPath, e.name));
}

describe('a ledger is input', () => {
  it('a published path "../../../victim.txt" (with a stored file\'s sha256) → refused in one line; nothing written outside --out; release-copies never prints it', async () => {
    const root = await released();
    const edit = new LedgerEdit(root, seededRandom(1));
    const [chunk] = edit.leafShas('1.0.0', 'site');
    const items = edit.chunkItems(chunk!) as Record<string, unknown>[];
    items[0] = { ...items[0], path: '../../../victim.txt' }; // keeps the sha256 of a file the ledger stores
    delete items[0]!.template;
    edit.replaceChunk('1.0.0', 'site', 0, JSON.stringify(items));
    const out = join(root, 'a', 'b', 'out');
    const line = new RegExp(
      `^${root}/data/releases/1\\.0\\.0/release\\.json: /chunks/site/0/0: data/releases/1\\.0\\.0/records/[0-9a-f]{64}\\.json(\\.br)?: item 0: path: expected a relative path inside its folder$`,
    );

    const built = await cli('build', '--root', root, '--out', out);
    expect(built.code).toBe(1);
    expect(built.stderr.split('\n')[0]).toMatch(line);
    expect(built.stderr.split('\n').filter(Boolean)).toHaveLength(2); // the line and the summary
    expect(existsSync(out)).toBe(false);
    expect(existsSync(join(root, 'victim.txt'))).toBe(false);
    expect(holding(root, 'victim')).toEqual([]);

    const copies = await cli('release-copies', '--root', root);
    expect(copies.code).toBe(1);
    expect(copies.stderr.split('\n')[0]).toMatch(line);
    expect(copies.stdout).not.toContain('victim');
  });

  it('a release folder named `9"><img src=x onerror=…>` with a matching release.json → not read as a release (one warning line); no page shows it', async () => {
    const root = await released();
    const folder = join(root, 'data', 'releases', XSS_VERSION);
    cpSync(join(root, 'data', 'releases', '1.0.0'), folder, { recursive: true });
    const record = JSON.parse(readFileSync(join(folder, 'release.json'), 'utf8')) as Record<string, unknown>;
    Object.assign(record, { version: XSS_VERSION, sequence: 2, previous: '1.0.0' });
    writeFileSync(join(folder, 'release.json'), JSON.stringify(record));
    const out = join(root, 'dist');

    const built = await cli('build', '--root', root, '--out', out);
    expect(built.code).toBe(0);
    expect(readLedger(root).warnings).toEqual([
      expect.objectContaining({
        file: `data/releases/${XSS_VERSION}`,
        message: 'is not a release (its name is not a version, e.g. 2026.11): ignored',
      }),
    ]);
    expect(readdirSync(join(out, 'releases'))).toEqual(['1.0.0']);
    expect(holding(out, '<img src=x onerror')).toEqual([]);
    expect(holding(out, 'onerror=window.__pwned')).toEqual([]);
  });
});

describe("a release's marks behind JSON escapes are found once decoded", () => {
  for (const [name, written, shown] of [
    ['the base mark', '/geoshelf-release-base-8c1e0\\u0066/', '/geoshelf-release-base-8c1e0f/'],
    ['the version mark', 'geoshelf-release-version-8c1e0\\u0066', 'geoshelf-release-version-8c1e0f'],
  ] as const) {
    it(`${name} written "${written}" in a unit's name → release refused, naming the level`, async () => {
      const root = fixtureCopy();
      roots.push(root);
      const level = 'data/earth/FJI/FJI_ADM0.geojson';
      const preview = 'data/earth/FJI/preview/FJI_ADM0.preview.geojson';
      const rewrite = (file: string, from: string, to: string) =>
        writeFileSync(join(root, file), readFileSync(join(root, file), 'utf8').replace(from, to));
      rewrite(level, '"shapeName":"Fiji"', `"shapeName":"Fiji ${written}"`);
      expect((await cli('preview', 'FJI', '--root', root)).code).toBe(0);
      rewrite(preview, `Fiji ${shown}`, `Fiji ${written}`); // both as the publisher wrote them
      expect((await cli('manifest', 'FJI', '--root', root)).code).toBe(0);

      const r = await cli('release', '1.0.0', '--root', root);
      expect(r.code).toBe(1);
      const what = name === 'the base mark' ? 'its own URL' : 'its version';
      for (const file of [level, preview]) {
        expect(r.stderr).toContain(
          `${root}/${file}: holds "${shown}", which a release reserves for ${what}; change that text\n`,
        );
      }
      expect(existsSync(join(root, 'data', 'releases'))).toBe(false);
    });
  }
});
