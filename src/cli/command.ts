import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError, UserError } from '../../build/core/errors.ts';
import { shownPath, type Problem } from '../../build/core/problem.ts';
import { exitCodeFor, reportProblems } from '../../build/core/report.ts';
import { nearest } from './suggest.ts';

export { UserError, UsageError } from '../../build/core/errors.ts';

/** Text output of validate and build: this many problems of one file and rule, then a count (--json lists all). */
export const PER_FILE = 10;

/**
 * One CLI subcommand, in its own module under `src/cli/commands/`, exported as
 * default. `usage` is the whole `--help` text; `run` gets the arguments after
 * the command's name, and that name (e.g. "locations import"), and returns
 * the process exit code. Most commands are made by `defineCommand`.
 */
export interface Command {
  usage: string;
  run(argv: string[], name: string): Promise<number>;
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** What `parseArgs` returns for `options` (values typed by each option's type and default). */
type ParsedArgs<O extends Options> = ReturnType<
  typeof parseArgs<{ options: O; allowPositionals: boolean; strict: true }>
>;

/**
 * Returns `util.parseArgs` of `argv` in strict mode, turning its errors
 * (unknown flag, missing value) into a one-line UsageError; an unknown flag
 * close to a known one says which, e.g. "Unknown option '--jsn'; did you mean --json?".
 */
export function parseCommandArgs<T extends Omit<ParseArgsConfig, 'args' | 'strict'>>(
  argv: string[],
  config: T,
) {
  try {
    return parseArgs({ ...config, args: argv, strict: true });
  } catch (error) {
    const message = (error as Error).message.split('\n')[0]!.replace(/\. To specify a positional.*/, '');
    const unknown = /^Unknown option '--([^'=]+)'/.exec(message)?.[1];
    const known = Object.keys(config.options ?? {});
    const guess = unknown === undefined ? undefined : nearest(unknown, known);
    throw new UsageError(`${message}${guess ? `; did you mean --${guess}?` : ''} (see --help)`);
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
 * Returns ISO3 codes and levels as the data tree writes them, in capitals
 * (data/earth/CHL/, ADM1): "chl" → "CHL", "chl/adm1" → "CHL/ADM1". Folder
 * names and levels are capitals by the spec, so another letter case can
 * only mean the same one; what is still malformed is named by the stage.
 */
export function capitals(codes: string[]): string[] {
  return codes.map((code) => code.toUpperCase());
}

/**
 * How one run of a command prints problems and paths: as text on stderr, or
 * as JSON on stdout when the command declares `--json` and it was given;
 * files relative to `--root` (when the command declares it) are shown as seen
 * from the current folder, e.g. "../boundaries/data/earth/CHL/manifest.json".
 */
export class Output {
  constructor(
    readonly command: string, // e.g. "validate"
    readonly json = false,
    readonly root = '.', // as given, e.g. "../boundaries"
  ) {}

  /**
   * Prints `problems` through the one reporter (build/core/report.ts) and
   * returns the exit code: 1 when any is an error (or, with `strict`, a
   * warning), else 0. `perFile`: text shows that many per file and rule, then a count.
   */
  report(problems: Problem[], options: { strict?: boolean; perFile?: number } = {}): 0 | 1 {
    reportProblems(problems, { command: this.command, json: this.json, root: this.root, ...options });
    return exitCodeFor(problems, options.strict);
  }

  /** Returns `file` (relative to the root, e.g. "data/earth/CHL/manifest.json") as named from the current folder. */
  path(file: string): string {
    return shownPath(file, this.root);
  }
}

/** A command as `defineCommand` takes it: its flags are declared once, and parsed before `run`. */
export interface CommandSpec<O extends Options> {
  usage: string;
  options: O; // util.parseArgs options; --json and --root mean the same for every command that has them
  positionals?: boolean; // whether it takes arguments besides flags (default: none)
  removed?: Record<string, string>; // a flag it no longer takes → what to do instead, said as a usage mistake
  run(args: ParsedArgs<O>, out: Output): Promise<number>;
}

/**
 * Returns a Command that parses `argv` against the declared options, then
 * runs `spec.run`. A UserError it throws is printed through the run's
 * Output (JSON only if the command declares `--json`), exit 1 (2 for usage).
 */
export function defineCommand<const O extends Options>(spec: CommandSpec<O>): Command {
  return {
    usage: spec.usage,
    async run(argv, name) {
      const declaresJson = Object.hasOwn(spec.options, 'json');
      // Until the flags are parsed, e.g. to report an unknown one: JSON if asked for.
      let out = new Output(name, declaresJson && argv.includes('--json'));
      try {
        const gone = Object.keys(spec.removed ?? {}).find((flag) =>
          argv.some((arg) => arg === `--${flag}` || arg.startsWith(`--${flag}=`)),
        );
        if (gone !== undefined) throw new UsageError(`--${gone}: ${spec.removed![gone]}`);
        const args = parseCommandArgs(argv, {
          options: spec.options,
          allowPositionals: spec.positionals ?? false,
        });
        const values = args.values as Record<string, unknown>;
        const root = typeof values.root === 'string' ? values.root : undefined;
        out = new Output(name, declaresJson && values.json === true, root);
        return await spec.run(args as ParsedArgs<O>, out);
      } catch (error) {
        if (!(error instanceof UserError)) throw error;
        out.report(error.problems);
        return error instanceof UsageError ? 2 : 1;
      }
    },
  };
}
