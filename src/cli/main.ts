// Wires the CLI together: finds the subcommand, prints help, and turns errors
// into exit codes. Each command lives in its own module under ./commands/.
import { formatProblem } from '../../build/core/problem.ts';
import { UserError, type Command } from './command.ts';

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
  { name: 'build', module: 'build', summary: 'write the static catalogue and JSON API to dist/' },
  { name: 'preview', module: 'preview', summary: 'write previews that fit a byte budget' },
  { name: 'split', module: 'split', summary: 'split a level into one file per ADM1 parent' },
];

const HELP = `Usage: geoshelf <command> [options]

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(18)} ${c.summary}`).join('\n')}

Run "geoshelf <command> --help" for a command's options.`;

/** Returns the entry whose (possibly two-word) name starts `argv`, and the rest of `argv`. */
function findCommand(argv: string[]): [Entry, string[]] | undefined {
  for (const entry of COMMANDS) {
    const words = entry.name.split(' ');
    if (words.every((word, i) => argv[i] === word)) return [entry, argv.slice(words.length)];
  }
  return undefined;
}

/** Runs the CLI on `argv` (without node and script) and returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    console.log(HELP);
    return 0;
  }
  const found = findCommand(argv);
  if (!found) {
    console.error(`geoshelf: unknown command "${argv.join(' ')}"\n\n${HELP}`);
    return 1;
  }
  const [entry, rest] = found;
  try {
    const command = ((await import(`./commands/${entry.module}.ts`)) as { default: Command }).default;
    if (rest.includes('--help') || rest.includes('-h')) {
      console.log(command.usage);
      return 0;
    }
    return await command.run(rest);
  } catch (error) {
    if (error instanceof UserError) {
      console.error(error.problems.map(formatProblem).join('\n'));
      return 1;
    }
    console.error(`geoshelf ${entry.name}: unexpected error (a bug in geoshelf, please report it)`);
    console.error(error);
    return 2;
  }
}
