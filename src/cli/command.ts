import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../../build/core/errors.ts';
import type { Problem } from '../../build/core/problem.ts';
import { exitCodeFor, reportProblems, type ReportOptions } from '../../build/core/report.ts';

export { UserError, UsageError } from '../../build/core/errors.ts';

/**
 * One CLI subcommand, in its own module under `src/cli/commands/`, exported as
 * default. `usage` is the whole `--help` text; `run` gets the arguments after
 * the command's name and returns the process exit code.
 */
export interface Command {
  usage: string;
  run(argv: string[]): Promise<number>;
}

/**
 * Returns `util.parseArgs` of `argv` in strict mode, turning its errors
 * (unknown flag, missing value) into a one-line UserError.
 */
export function parseCommandArgs<T extends Omit<ParseArgsConfig, 'args' | 'strict'>>(
  argv: string[],
  config: T,
) {
  try {
    return parseArgs({ ...config, args: argv, strict: true });
  } catch (error) {
    throw new UsageError(
      `${(error as Error).message.split('\n')[0]!.replace(/\. To specify a positional.*/, '')} (see --help)`,
    );
  }
}

/** Returns `text` parsed as an integer in [min, max], or throws a UserError naming `flag`. */
export function parseIntegerFlag(flag: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new UsageError(`--${flag}: expected an integer from ${min} to ${max}, got "${text}"`);
  }
  return value;
}

/**
 * Prints `problems` through the one reporter (build/core/report.ts) and
 * returns the exit code: 1 when any is an error (or, with `strict`, a
 * warning), else 0.
 */
export function report(problems: Problem[], options: ReportOptions & { strict?: boolean }): 0 | 1 {
  reportProblems(problems, options);
  return exitCodeFor(problems, options.strict);
}
