// The server's work per request is linear in the request: every regex in
// src/server/ is a literal that eslint-plugin-regexp's analysis (scslre) finds
// free of super-linear backtracking, both within one match attempt and across
// the start positions a search moves through. Checked structurally, never by
// timing: the analysis proves it for every input. The rules are the ones
// eslint.config.js sets for src/server/; this test runs them in `npm test` too,
// and checks first that they still fire on the shapes that once went quadratic.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const SERVER = join(ROOT, 'src/server');
const RULES = new Set(['regexp/no-super-linear-backtracking', 'regexp/no-super-linear-move']);

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT, ruleFilter: ({ ruleId }) => RULES.has(ruleId) });
});

/** Returns the rule of each super-linear regex in `code`, linted as a file of src/server/. */
async function superLinear(code: string): Promise<(string | null)[]> {
  const [result] = await eslint.lintText(code, { filePath: join(SERVER, 'probe.ts') });
  return result!.messages.map((m) => m.ruleId);
}

describe('every regex the server runs over a request is linear', () => {
  it('the check fires on the shapes that were quadratic: a trailing run (trim, slashes), two runs that trade spaces (Range)', async () => {
    expect(await superLinear("export const f = (s: string) => s.replace(/[\\t ]+$/g, '');\n")).toEqual([
      'regexp/no-super-linear-move',
    ]);
    expect(await superLinear("export const f = (p: string) => p.replace(/\\/+$/, '');\n")).toEqual([
      'regexp/no-super-linear-move',
    ]);
    expect(await superLinear('export const f = (h: string) => /^bytes=\\s*(\\d*)\\s*-$/.exec(h);\n')).toEqual(
      ['regexp/no-super-linear-backtracking'],
    );
  });

  it('src/server/ has none', async () => {
    const results = await eslint.lintFiles(['src/server/']);
    expect(results.length).toBeGreaterThan(10);
    const found = results.flatMap((r) =>
      r.messages.map((m) => `${r.filePath.slice(ROOT.length + 1)}:${m.line}: ${m.ruleId}: ${m.message}`),
    );
    expect(found).toEqual([]);
  });

  it('src/server/ builds no regex from a string: the analysis sees only literals', () => {
    const built = readdirSync(SERVER)
      .filter((name) => name.endsWith('.ts'))
      .filter((name) => /\bRegExp\s*\(/.test(readFileSync(join(SERVER, name), 'utf8')));
    expect(built).toEqual([]);
  });
});
