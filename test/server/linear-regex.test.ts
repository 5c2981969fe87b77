// The server's work per request is linear in the request, and the importer's
// in its file: every regex in src/server/ and src/locations/ is a literal that
// eslint-plugin-regexp's analysis (scslre) finds free of super-linear
// backtracking, both within one match attempt and across the start positions
// a search moves through. Checked structurally, never by timing: the analysis
// holds for every input. The rules are the ones eslint.config.js sets for those
// folders, so `npm test`'s lint runs them over both; this test checks that
// they still fire on the shapes that once went quadratic. (The folders linted
// with these rules alone: linear-regex-tree.test.ts, long project.)
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const FOLDERS = ['src/server', 'src/locations']; // the service and its importer: untrusted requests and files
const RULES = new Set(['regexp/no-super-linear-backtracking', 'regexp/no-super-linear-move']);

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT, ruleFilter: ({ ruleId }) => RULES.has(ruleId) });
});

/** Returns the rule of each super-linear regex in `code`, linted as a file of `folder`. */
async function superLinear(code: string, folder = 'src/server'): Promise<(string | null)[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, folder, 'probe.ts') });
  return result!.messages.map((m) => m.ruleId);
}

describe('every regex the server runs over a request, or the importer over a file, is linear', () => {
  it('the check fires on the shapes that were super-linear: a trailing run (trim, slashes), two runs that trade characters (Range, decimals)', async () => {
    expect(await superLinear("export const f = (s: string) => s.replace(/[\\t ]+$/g, '');\n")).toEqual([
      'regexp/no-super-linear-move',
    ]);
    expect(await superLinear("export const f = (p: string) => p.replace(/\\/+$/, '');\n")).toEqual([
      'regexp/no-super-linear-move',
    ]);
    expect(await superLinear('export const f = (h: string) => /^bytes=\\s*(\\d*)\\s*-$/.exec(h);\n')).toEqual(
      ['regexp/no-super-linear-backtracking'],
    );
    const decimal = 'export const f = (t: string) => /^(\\d+\\.?\\d*|\\.\\d+)$/.test(t);\n';
    expect(await superLinear(decimal, 'src/locations')).toEqual(['regexp/no-super-linear-backtracking']);
  });

  it('neither builds a regex from a string: the analysis sees only literals', () => {
    const built = FOLDERS.flatMap((folder) =>
      readdirSync(join(ROOT, folder))
        .filter((name) => name.endsWith('.ts'))
        .filter((name) => /\bRegExp\s*\(/.test(readFileSync(join(ROOT, folder, name), 'utf8')))
        .map((name) => `${folder}/${name}`),
    );
    expect(built).toEqual([]);
  });
});
