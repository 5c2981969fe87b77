// CLI layer of `geoshelf serve`: opens the database read-only, listens, and
// shuts down cleanly on SIGINT/SIGTERM.
import { existsSync, statSync } from 'node:fs';
import { UserError, parseCommandArgs, parseIntegerFlag, type Command } from '../command.ts';
import { LocationDbError, openLocationStore } from '../../locations/db.ts';
import { startServer } from '../../server/app.ts';

/** How long responses in flight may take to finish after SIGINT/SIGTERM, by default. */
const DEFAULT_GRACE_SECONDS = 10;

const usage = `Usage: geoshelf serve [--db FILE] [--host HOST] [--port PORT] [--dist DIR]

Serves the locations of a SQLite file, read-only, at /ubicaciones/ (all),
/ubicaciones/convenience/, /bencineras/, /servicios/ and /otros/, with ?skip=
and ?limit= paging, plus /openapi.json. Reads files written by "geoshelf
locations import" and the original service's database (table ubicaciones).

Options:
  --db FILE     database to serve (default data/locations.sqlite)
  --host HOST   address to listen on (default 127.0.0.1)
  --port PORT   port to listen on, 0 for any free one (default 8000)
  --dist DIR    also serve this built site folder (e.g. dist) for other paths
  --grace SECS  on SIGINT/SIGTERM, time responses in flight get to finish (default ${DEFAULT_GRACE_SECONDS})
  -h, --help    show this help

Prints "listening on http://HOST:PORT" once ready. Follows the database file:
rows imported into it while serving show up within seconds, no restart.
On SIGINT (Ctrl-C) or SIGTERM it stops accepting connections, lets responses
in flight finish for up to --grace seconds, then exits. A second signal
during that time exits at once.`;

const command: Command = {
  usage,
  async run(argv) {
    const { values } = parseCommandArgs(argv, {
      options: {
        db: { type: 'string', default: 'data/locations.sqlite' },
        host: { type: 'string', default: '127.0.0.1' },
        port: { type: 'string', default: '8000' },
        dist: { type: 'string' },
        grace: { type: 'string', default: String(DEFAULT_GRACE_SECONDS) },
      },
    });
    const port = parseIntegerFlag('port', values.port, 0, 65535);
    const grace = parseIntegerFlag('grace', values.grace, 0, 3600);
    if (values.dist !== undefined && !(existsSync(values.dist) && statSync(values.dist).isDirectory())) {
      throw new UserError(`--dist ${values.dist}: no such folder`);
    }
    let store;
    try {
      store = openLocationStore(values.db);
    } catch (error) {
      if (error instanceof LocationDbError) {
        throw new UserError(`cannot open ${values.db}: ${error.message}`);
      }
      throw error;
    }
    let running;
    try {
      running = await startServer({ db: store, distDir: values.dist, host: values.host, port });
    } catch (error) {
      store.close();
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
        throw new UserError(`cannot listen on ${values.host}:${port}: ${code}`);
      }
      throw error;
    }
    if (store.layout === 'offset') {
      console.error(`warning: ${values.db} has a table without rowid; deep pages use OFFSET`);
    }
    console.log(`listening on ${running.url}`);
    console.log(`  locations API  ${running.url}/ubicaciones/  (OpenAPI: ${running.url}/openapi.json)`);
    if (values.dist !== undefined) console.log(`  catalogue      ${running.url}/`);
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        void running.close(grace * 1000).then(() => {
          store.close();
          resolve();
        });
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    return 0;
  },
};

export default command;
