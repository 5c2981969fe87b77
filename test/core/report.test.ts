// The one reporter's rules: files named from the current folder, the fix
// command with the run's --root, warnings before the errors, the summary line.
import { describe, expect, it } from 'vitest';
import { formatProblem, shownPath, shownProblem, type Problem } from '../../build/core/problem.ts';
import { problemLines, problemSummary, reportProblems } from '../../build/core/report.ts';

const stats: Problem = {
  file: 'data/earth/CHL/manifest.json',
  pointer: '/datasets/0/bytes',
  rule: 'stats',
  severity: 'error',
  message: 'file data/earth/CHL/CHL_ADM1.geojson has 867 bytes, manifest says 868',
  paths: ['data/earth/CHL/CHL_ADM1.geojson'],
  fix: ['manifest', 'CHL'],
};

describe('report', () => {
  it('a file relative to --root is named from the current folder; absolute paths and no-root runs unchanged', () => {
    expect(shownPath('data/earth/CHL/manifest.json', '../boundaries')).toBe(
      '../boundaries/data/earth/CHL/manifest.json',
    );
    expect(shownPath('data/earth/CHL/manifest.json', '/srv/b')).toBe('/srv/b/data/earth/CHL/manifest.json');
    for (const here of ['.', './', '', 'a/..']) {
      expect(shownPath('data/earth/CHL/manifest.json', here)).toBe('data/earth/CHL/manifest.json');
      expect(shownProblem(stats, here).message).toMatch(/\(run: geoshelf manifest CHL\)$/);
    }
    expect(shownPath('./x.geojson')).toBe('./x.geojson'); // what the user typed, as typed
    expect(shownPath('/tmp/x.geojson', '../b')).toBe('/tmp/x.geojson');
    expect(shownPath('', '../b')).toBe('');
  });

  it('the files a message names and its fix follow the same rule; --json carries the same text', () => {
    expect(formatProblem(shownProblem(stats, '../boundaries'))).toBe(
      '../boundaries/data/earth/CHL/manifest.json: /datasets/0/bytes: file ../boundaries/data/earth/CHL/CHL_ADM1.geojson has 867 bytes, manifest says 868 (run: geoshelf manifest --root ../boundaries CHL)',
    );
    expect(formatProblem(stats)).toBe(
      'data/earth/CHL/manifest.json: /datasets/0/bytes: file data/earth/CHL/CHL_ADM1.geojson has 867 bytes, manifest says 868 (run: geoshelf manifest CHL)',
    );
    expect(shownProblem(stats, "my data's")).toMatchObject({
      message: expect.stringMatching(/\(run: geoshelf manifest --root 'my data'\\''s' CHL\)$/) as unknown,
    });
    let out = '';
    reportProblems(
      [stats],
      { command: 'validate', json: true, root: '../b' },
      { out: (t) => (out += t), err: () => {} },
    );
    expect(JSON.parse(out)).toEqual([
      {
        file: '../b/data/earth/CHL/manifest.json',
        pointer: '/datasets/0/bytes',
        rule: 'stats',
        severity: 'error',
        message:
          'file ../b/data/earth/CHL/CHL_ADM1.geojson has 867 bytes, manifest says 868 (run: geoshelf manifest --root ../b CHL)',
      },
    ]);
  });

  it('only the whole paths listed are rewritten, each once, never a manifest value quoted beside them', () => {
    const p: Problem = {
      file: 'data/earth/CHL/manifest.json',
      rule: 'folder',
      severity: 'error',
      message: 'file data/earth/CHL/x.geojson (in data/earth/CHL/) should be "data/earth/CHL/x.geojson"',
      paths: ['data/earth/CHL/', 'data/earth/CHL/x.geojson'],
    };
    expect(shownProblem(p, 'b').message).toBe(
      'file b/data/earth/CHL/x.geojson (in b/data/earth/CHL/) should be "data/earth/CHL/x.geojson"',
    );
  });

  it('text lists the warnings first, then the errors apart, whatever order they came in', () => {
    const warning: Problem = { file: 'w.geojson', rule: 'geometry', severity: 'warning', message: 'w' };
    const error: Problem = { file: 'e.json', rule: 'schema', severity: 'error', message: 'e' };
    expect(problemLines([error, warning, error], { command: 'validate' })).toEqual([
      'w.geojson: warning: w',
      '',
      'e.json: e',
      'e.json: e',
    ]);
    expect(problemLines([error], { command: 'validate' })).toEqual(['e.json: e']);
    expect(problemSummary([error, warning, error])).toBe('3 problems in 2 files (2 errors, 1 warning)');
    expect(problemSummary([error])).toBe('1 problem in 1 file');
    expect(problemSummary([warning])).toBe('1 problem in 1 file (1 warning)');
  });
});
