// The rules listed once in build/core/rules.ts against the sources and the
// docs: every rule a problem names (`rule: '…'`, in TypeScript or the
// JavaScript tsc does not check) is listed, every listed rule is reported
// somewhere, and every manifest rule has its row in docs/manifests.md. That
// an unlisted rule is a type error is tsc's to check (npm run check).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError, UserError } from '../../build/core/errors.ts';
import { MANIFEST_RULES, RULES } from '../../build/core/rules.ts';

const REPO = join(import.meta.dirname, '../..');
const RULES_FILE = 'build/core/rules.ts';

/** Returns every source file of the product (.ts, .js, .mjs) under `dirs`, relative to the repository. */
function sources(...dirs: string[]): string[] {
  return dirs.flatMap((dir) =>
    (readdirSync(join(REPO, dir), { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
      .filter((e) => e.isFile() && /\.(ts|js|mjs)$/.test(e.name))
      .map((e) => relative(REPO, join(e.parentPath, e.name))),
  );
}

const files = sources('build', 'src', 'bin', 'scripts').filter((file) => file !== RULES_FILE);
const texts = new Map(files.map((file) => [file, readFileSync(join(REPO, file), 'utf8')]));

describe('rules', () => {
  it('every rule is listed once', () => {
    expect(RULES.filter((rule, i) => RULES.indexOf(rule) !== i)).toEqual([]);
  });

  it('every rule a problem names in the sources (rule: "…") is listed', () => {
    const named: string[] = [];
    for (const [file, text] of texts) {
      for (const [, rule] of text.matchAll(/\brule: '([^']+)'/g)) {
        if (!(RULES as readonly string[]).includes(rule!)) named.push(`${file}: ${rule}`);
      }
    }
    expect(named).toEqual([]);
  });

  it('every listed rule is reported somewhere (its name is a string in the sources), none left over', () => {
    const all = [...texts.values()].join('\n');
    expect(RULES.filter((rule) => !all.includes(`'${rule}'`))).toEqual([]);
  });

  it('every manifest rule has its row in the rules table of docs/manifests.md', () => {
    const docs = readFileSync(join(REPO, 'docs/manifests.md'), 'utf8');
    const rows = [...docs.matchAll(/^\| `([a-z0-9-]+)` +\|/gm)].map((m) => m[1]);
    expect(MANIFEST_RULES.filter((rule) => !rows.includes(rule))).toEqual([]);
  });

  it('a usage mistake is rule "usage"; other bad input without a rule of its own is "input"', () => {
    expect(new UsageError('--level is required').problems).toEqual([
      { file: '', rule: 'usage', severity: 'error', message: '--level is required' },
    ]);
    expect(new UserError('no such thing').problems[0]!.rule).toBe('input');
  });
});
