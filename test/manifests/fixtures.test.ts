// Golden fixtures sorted by verdict: true/ is a valid tree, each false/<rule>/
// breaks one rule and lists in expected.txt the exact lines `validate` prints.
import { formatProblem } from '../../build/core/problem.ts';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MeasurementCache } from '../../build/measure/cache.ts';
import { MANIFEST_RULES } from '../../build/core/rules.ts';
import { validateManifests } from '../../build/manifest/validate.ts';

const FIXTURES = new URL('../fixtures/manifests/', import.meta.url).pathname;
const FOLDERS = readdirSync(join(FIXTURES, 'false')).sort();

describe('validate: fixtures sorted by verdict', () => {
  it('true/: a valid tree (mixed and single licence, preview, parts-only split level) has no problems', async () => {
    const { manifests, problems } = await validateManifests(join(FIXTURES, 'true'), {
      measurer: new MeasurementCache(),
    });
    expect(problems).toEqual([]);
    expect(manifests.map((m) => m.file)).toEqual([
      'data/earth/CHL/manifest.json',
      'data/earth/URY/manifest.json',
    ]);
  });

  it('every rule validate reports (build/core/rules.ts) has a false/ fixture, and no fixture is for another rule', () => {
    // too-large needs a 64 MiB manifest: test/security/data-root.test.ts makes a sparse one instead.
    const elsewhere = ['too-large'];
    expect(FOLDERS).toEqual(MANIFEST_RULES.filter((rule) => !elsewhere.includes(rule)).sort());
  });

  for (const rule of FOLDERS) {
    it(`false/${rule}: reports exactly the expected lines, each under rule "${rule}"`, async () => {
      const root = join(FIXTURES, 'false', rule);
      const expected = readFileSync(join(root, 'expected.txt'), 'utf8').split('\n').filter(Boolean);
      // The other fixtures are boxes drawn for their own rule, whose edges need not match: the
      // coverage check is coverage/'s (true/ is a coverage, checked above).
      const coverage = rule === 'coverage' ? undefined : false;
      const { problems } = await validateManifests(root, { measurer: new MeasurementCache(), coverage });
      expect(problems.map(formatProblem)).toEqual(expected);
      expect(new Set(problems.map((p) => p.rule))).toEqual(new Set([rule]));
    });
  }
});
