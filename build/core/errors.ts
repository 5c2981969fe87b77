// The two kinds of failure (STYLE 4): a UserError is the user's input being
// wrong, reported as one line per problem with exit code 1 (2 for a usage
// mistake); anything else thrown is a bug, printed as "unexpected error" with
// its stack by the CLI. Stages throw these; only src/cli/ prints them.
import { formatProblem, problem, type Problem } from './problem.ts';

/**
 * Bad input (a bad flag, file or manifest). Carries one or more problems;
 * `message` is their text, one line each. A plain string becomes one problem
 * with no file (the CLI names the command instead).
 */
export class UserError extends Error {
  override name = 'UserError';
  readonly problems: Problem[];
  constructor(problems: string | Problem | Problem[]) {
    const list =
      typeof problems === 'string'
        ? [problem('', problems)]
        : Array.isArray(problems)
          ? problems
          : [problems];
    super(list.map(formatProblem).join('\n'));
    this.problems = list;
  }
}

/** A mistake in how the command was called (unknown flag, missing value): exit code 2, rule "usage". */
export class UsageError extends UserError {
  override name = 'UsageError';
  constructor(message: string) {
    super(problem('', message, { rule: 'usage' }));
  }
}

/**
 * The error of a file whose bytes changed while a command read it: `shown`
 * as problems name it, `now` its sha256 read again, `validated` the one
 * validate measured (rule file-changed).
 */
export function fileChanged(shown: string, now: string, validated: string): UserError {
  const message = `changed while the command read it (its sha256 is now ${now.slice(0, 12)}…, validate measured ${validated.slice(0, 12)}…); run it again`;
  return new UserError(problem(shown, message, { rule: 'file-changed' }));
}
