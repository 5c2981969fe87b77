// `npm start`: the demo. Creates data/locations.sqlite from the committed
// sample when absent (through the real importer), builds the catalogue into
// dist/ (geoshelf build), then serves both on http://127.0.0.1:8000.
// `npm start -- --port 8123` (or --host) chooses where.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { main } from '../src/cli/main.ts';

process.chdir(fileURLToPath(new URL('..', import.meta.url)));
const DB = 'data/locations.sqlite';

let options;
try {
  ({ values: options } = parseArgs({
    options: { port: { type: 'string', default: '8000' }, host: { type: 'string', default: '127.0.0.1' } },
  }));
} catch (error) {
  console.error(`npm start: ${(error as Error).message} (options: --port N, --host HOST)`);
  process.exit(2);
}

if (!existsSync(DB)) {
  const code = await main(['locations', 'import', 'data/locations/sample.csv', '--db', DB]);
  if (code !== 0) process.exit(code);
}

// Build the catalogue first (incremental: a no-op rebuild takes well under a second).
const built = await main(['build', '--root', '.', '--out', 'dist']);
if (built !== 0) process.exit(built);

process.exitCode = await main([
  'serve',
  ...['--db', DB, '--host', options.host, '--port', options.port, '--dist', 'dist'],
]);
