// Every regex in src/server/ and src/locations/ is free of super-linear
// backtracking, by eslint-plugin-regexp's two rules alone (long project: the
// lint of `npm test` runs the same rules over the same folders with the rest;
// linear-regex.test.ts checks that they fire on the shapes that went quadratic).
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const FOLDERS = ['src/server', 'src/locations']; // the service and its importer: untrusted requests and files
const RULES = new Set(['regexp/no-super-linear-backtracking', 'regexp/no-super-linear-move']);

describe('every regex the server runs over a request, or the importer over a file, is linear', () => {
  it('src/server/ and src/locations/ have none', async () => {
    const eslint = new ESLint({ cwd: ROOT, ruleFilter: ({ ruleId }) => RULES.has(ruleId) });
    const results = await eslint.lintFiles(FOLDERS.map((f) => `${f}/`));
    expect(results.length).toBeGreaterThan(20);
    const found = results.flatMap((r) =>
      r.messages.map((m) => `${r.filePath.slice(ROOT.length + 1)}:${m.line}: ${m.ruleId}: ${m.message}`),
    );
    expect(found).toEqual([]);
  });
});
