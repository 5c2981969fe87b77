// `npm start`: the demo. Creates data/locations.sqlite from the committed
// sample when absent (through the real importer), then serves it on
// http://127.0.0.1:8000, with the built catalogue (dist/) when there is one.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { main } from '../src/cli/main.ts';

process.chdir(fileURLToPath(new URL('..', import.meta.url)));
const DB = 'data/locations.sqlite';

if (!existsSync(DB)) {
  const code = await main(['locations', 'import', 'data/locations/sample.csv', '--db', DB]);
  if (code !== 0) process.exit(code);
}

const dist = existsSync('dist') ? ['--dist', 'dist'] : [];
process.exitCode = await main(['serve', '--db', DB, '--host', '127.0.0.1', '--port', '8000', ...dist]);
