// Wires the CLI together: finds the subcommand, prints help and the version,
// and turns errors into exit codes (README "Exit codes and output"): 0 ok,
// 1 bad input, 2 a usage mistake, 70 a bug ("unexpected error" and its stack).
// Each command lives in its own module under ./commands/.
import { readFileSync } from 'node:fs';
import { PACKAGE_DIR } from '../../build/core/files.ts';
import { reportProblems } from '../../build/core/report.ts';
import { UsageError, UserError, type Command } from './command.ts';
import { nearestOf } from './suggest.ts';

interface Entry {
  name: string; // e.g. "locations import"
  module: string; // file under ./commands/, without ".ts"
  summary: string;
}

const COMMANDS: Entry[] = [
  {
    name: 'serve',
    module: 'serve',
    summary: 'serve /ubicaciones/ from a SQLite file (and dist/ when built)',
  },
  {
    name: 'locations import',
    module: 'locations-import',
    summary: 'load CSV/JSON/GeoJSON locations into SQLite',
  },
  { name: 'measure', module: 'measure', summary: 'print bytes, sha256, features, bbox… of GeoJSON files' },
  { name: 'validate', module: 'validate', summary: 'check every manifest against the schema and its files' },
  { name: 'manifest', module: 'manifest', summary: 'recompute the derived fields of manifests' },
  { name: 'release', module: 'release', summary: 'record the data as a release VERSION in data/releases/' },
  {
    name: 'release-copies',
    module: 'release-copies',
    summary: "print which files of each release are copies of an earlier release's",
  },
  { name: 'build', module: 'build', summary: 'write the static catalogue and JSON API to dist/' },
  { name: 'preview', module: 'preview', summary: 'write previews that fit a byte budget' },
  { name: 'split', module: 'split', summary: 'split a level into one file per ADM1 parent' },
];

/** Exit code of a bug (sysexits' EX_SOFTWARE), apart from 1 (bad input) and 2 (usage). */
export const EXIT_BUG = 70;

/** Returns the help of the commands whose name starts with `group` (all when ""). */
function help(group = ''): string {
  const entries = COMMANDS.filter((c) => c.name.startsWith(group));
  return `Usage: geoshelf ${group ? `${group} ` : ''}<command> [options]

Commands:
${entries.map((c) => `  ${c.name.padEnd(18)} ${c.summary}`).join('\n')}

Run "geoshelf <command> --help" for a command's options, "geoshelf --version" for the version.`;
}

function version(): string {
  const pkg = JSON.parse(readFileSync(`${PACKAGE_DIR}/package.json`, 'utf8')) as { version: string };
  return `geoshelf ${pkg.version}`;
}

/** Returns the entry whose (possibly two-word) name starts `argv`, and the rest of `argv`. */
function findCommand(argv: string[]): [Entry, string[]] | undefined {
  for (const entry of COMMANDS) {
    const words = entry.name.split(' ');
    if (words.every((word, i) => argv[i] === word)) return [entry, argv.slice(words.length)];
  }
  return undefined;
}

/**
 * Returns the command `argv` most likely meant, e.g. "validate" for
 * "valdiate", or "locations import" for "locations imprt" or "import".
 */
function guessCommand(argv: string[]): string | undefined {
  return nearestOf(
    COMMANDS.flatMap(({ name }): [string, string, string][] => {
      const words = name.split(' ');
      const whole: [string, string, string] = [argv.slice(0, words.length).join(' '), name, name];
      return words.length > 1 ? [whole, [argv[0]!, words.at(-1)!, name]] : [whole];
    }),
  );
}

const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h' || arg === 'help';

/** Runs the CLI on `argv` (without node and script) and returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || isHelp(argv[0])) {
    console.log(help());
    return 0;
  }
  if (argv[0] === '--version' || argv[0] === '-V') {
    console.log(version());
    return 0;
  }
  const found = findCommand(argv);
  if (!found) {
    // A group name alone ("geoshelf locations") or with --help shows the group's commands.
    const group = COMMANDS.some((c) => c.name.startsWith(`${argv[0]} `)) ? argv[0]! : undefined;
    if (group && (argv.length === 1 || isHelp(argv[1]))) {
      console.log(help(group));
      return 0;
    }
    // Named alone, not with its arguments: "locations imprt x.csv" → subcommand "imprt" of locations.
    const unknown = group
      ? `geoshelf ${group}: unknown subcommand "${argv[1]}"`
      : `geoshelf: unknown command "${argv[0]}"`;
    const guess = guessCommand(argv);
    const hint = guess ? ` (did you mean "${guess}"?)` : '';
    console.error(`${unknown}${hint}\n\n${help(group)}`);
    return 2;
  }
  const [entry, rest] = found;
  try {
    const command = ((await import(`./commands/${entry.module}.ts`)) as { default: Command }).default;
    if (rest.includes('--help') || rest.includes('-h')) {
      console.log(command.usage);
      return 0;
    }
    return await command.run(rest, entry.name);
  } catch (error) {
    // Commands made by defineCommand report their own (with --json where they declare it).
    if (error instanceof UserError) {
      reportProblems(error.problems, { command: entry.name });
      return error instanceof UsageError ? 2 : 1;
    }
    console.error(`geoshelf ${entry.name}: unexpected error (a bug in geoshelf, please report it)`);
    console.error(error);
    return EXIT_BUG;
  }
}
