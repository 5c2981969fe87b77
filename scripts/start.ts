// `npm start`: the demo. Checks that the port is free (before spending time
// building), creates data/locations.sqlite from the committed sample when
// absent (through the real importer), builds the catalogue into dist/
// (geoshelf build), then serves both on http://127.0.0.1:8000 (geoshelf serve,
// in this process). `npm start -- --port 8123` (or --host) chooses where;
// without the `--`, npm keeps the flag for itself, which is said in one line.
//
// package.json runs this with `exec`: npm passes SIGTERM/SIGINT on to its
// child, and without exec that child is `sh -c`, which dies of the signal
// without passing it on (dash), leaving this process serving as an orphan.
// With exec the child is this process, so serve's own handler stops the
// server (responses in flight get --grace seconds) and npm exits after it.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { main } from '../src/cli/main.ts';
import { ListenError, checkPort } from '../src/server/app.ts';

process.chdir(fileURLToPath(new URL('..', import.meta.url)));
const DB = 'data/locations.sqlite';

/**
 * Returns the hint for flags npm took as its own settings: `npm start --port
 * 8126` (no `--`) sets npm_config_port and passes only "8126" on, so the
 * demo would start on the default port. Undefined when npm took none.
 */
function flagsNpmTook(): string | undefined {
  const taken = ['port', 'host'].filter((name) => process.env[`npm_config_${name}`] !== undefined);
  if (taken.length === 0) return undefined;
  const loose = process.argv.slice(2).filter((arg) => !arg.startsWith('-')); // e.g. ["8126"]
  const flags = taken.map((name, i) => {
    const value = process.env[`npm_config_${name}`]!;
    return `--${name} ${value === 'true' || value === '' ? (loose[i] ?? name.toUpperCase()) : value}`;
  });
  return `npm start: npm read ${taken.map((name) => `--${name}`).join(' and ')} as its own setting; pass it after "--": npm start -- ${flags.join(' ')}`;
}

const took = flagsNpmTook();
if (took) {
  console.error(took);
  process.exit(2);
}

let options;
try {
  ({ values: options } = parseArgs({
    options: { port: { type: 'string', default: '8000' }, host: { type: 'string', default: '127.0.0.1' } },
  }));
} catch (error) {
  console.error(`npm start: ${(error as Error).message} (options: --port N, --host HOST)`);
  process.exit(2);
}

// A port serve would refuse anyway (not a number) is left for serve to report; 0 is always free.
const port = Number(options.port);
if (/^\d+$/.test(options.port) && port > 0 && port <= 65535) {
  try {
    await checkPort(options.host, port);
  } catch (error) {
    if (!(error instanceof ListenError)) throw error;
    console.error(`npm start: ${error.reason}; ${error.advice}: npm start -- ${error.option}`);
    process.exit(1);
  }
}

if (!existsSync(DB)) {
  const code = await main(['locations', 'import', 'data/locations/sample.csv', '--db', DB]);
  if (code !== 0) process.exit(code);
}

// Build the catalogue first (incremental: with nothing changed it reads and writes nothing).
const built = await main(['build', '--root', '.', '--out', 'dist']);
if (built !== 0) process.exit(built);

process.exitCode = await main([
  'serve',
  ...['--db', DB, '--host', options.host, '--port', options.port, '--dist', 'dist'],
]);
