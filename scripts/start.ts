// `npm start`: the demo. Creates data/locations.sqlite from the committed
// sample when absent (through the real importer), then serves it on
// http://127.0.0.1:8000, with the catalogue built into dist/ (geoshelf build).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { main } from '../src/cli/main.ts';

process.chdir(fileURLToPath(new URL('..', import.meta.url)));
const DB = 'data/locations.sqlite';

if (!existsSync(DB)) {
  const code = await main(['locations', 'import', 'data/locations/sample.csv', '--db', DB]);
  if (code !== 0) process.exit(code);
}

// Build the catalogue first (incremental: a no-op rebuild takes well under a second).
const built = await main(['build', '--root', '.', '--out', 'dist']);
if (built !== 0) process.exit(built);

const dist = existsSync('dist') ? ['--dist', 'dist'] : [];
process.exitCode = await main(['serve', '--db', DB, '--host', '127.0.0.1', '--port', '8000', ...dist]);
