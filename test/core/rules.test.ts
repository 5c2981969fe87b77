// Problem.rule is one of the rules listed once in build/core/rules.ts: a typo
// is a type error (checked by `tsc --noEmit`, which npm test runs).
import { describe, expect, it } from 'vitest';
import { UsageError, UserError } from '../../build/core/errors.ts';
import { problem, type Problem } from '../../build/core/problem.ts';
import { MANIFEST_RULES, OTHER_RULES, RULES } from '../../build/core/rules.ts';

describe('rules', () => {
  it('a rule that is not listed does not type-check', () => {
    const listed: Problem = { file: 'x', rule: 'stats', severity: 'error', message: 'm' };
    // @ts-expect-error "stat" is not a rule (a typo of "stats")
    const typo: Problem = { file: 'x', rule: 'stat', severity: 'error', message: 'm' };
    // @ts-expect-error nor is any string
    problem('x', 'm', { rule: 'unknown-rule' });
    expect([listed.rule, typo.rule]).toEqual(['stats', 'stat']);
  });

  it('every rule is listed once', () => {
    expect(new Set(RULES).size).toBe(RULES.length);
    expect(RULES).toEqual([...MANIFEST_RULES, ...OTHER_RULES]);
  });

  it('a usage mistake is rule "usage"; other bad input without a rule of its own is "input"', () => {
    expect(new UsageError('--level is required').problems).toEqual([
      { file: '', rule: 'usage', severity: 'error', message: '--level is required' },
    ]);
    expect(new UserError('no such thing').problems[0]!.rule).toBe('input');
  });
});
