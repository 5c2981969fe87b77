// CLI layer of `geoshelf serve`: opens the database read-only, listens, logs
// through the server's log (src/server/log.ts), and shuts down cleanly on SIGINT/SIGTERM.
import { existsSync, statSync } from 'node:fs';
import { UserError, parseCommandArgs, parseIntegerFlag, type Command } from '../command.ts';
import { LocationDbError, openLocationStore, type LocationStore } from '../../locations/db.ts';
import { ListenError, startServer } from '../../server/app.ts';
import { jsonLinesLogger } from '../../server/log.ts';

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

Logs one JSON object per line on stdout, the first once ready:
{"time":…,"level":"info","event":"listening","msg":"listening on http://HOST:PORT",…}
Follows the database file: rows imported into it while serving show up
within seconds, no restart.
On SIGINT (Ctrl-C) or SIGTERM it stops accepting connections, lets responses
in flight finish for up to --grace seconds, then exits. A second signal
during that time exits at once.`;

/** Opens the database read-only; a missing or unreadable file is one line, saying how to create a missing one. */
function openStore(db: string): LocationStore {
  try {
    return openLocationStore(db);
  } catch (error) {
    if (!(error instanceof LocationDbError)) throw error;
    const hint = existsSync(db) ? '' : `; create it with "geoshelf locations import FILE --db ${db}"`;
    throw new UserError(`cannot open ${db}: ${error.message}${hint}`);
  }
}

/** Resolves on the first SIGINT or SIGTERM, with its name; a second one meanwhile kills the process at once (the default action). */
function firstSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

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
    const store = openStore(values.db);
    const log = jsonLinesLogger();
    let running;
    try {
      running = await startServer({ db: store, distDir: values.dist, host: values.host, port, log });
    } catch (error) {
      store.close();
      if (error instanceof ListenError) throw new UserError(error.message);
      throw error;
    }
    const { url } = running;
    if (store.layout === 'offset') {
      const msg = `${values.db} has a table without rowid; deep pages use OFFSET`;
      log({ level: 'warn', event: 'offset-layout', msg, db: values.db });
    }
    log({
      level: 'info',
      event: 'listening',
      msg: `listening on ${url}`,
      url,
      api: `${url}/ubicaciones/`,
      openapi: `${url}/openapi.json`,
      pid: process.pid,
      ...(values.dist === undefined ? {} : { catalogue: `${url}/`, dist: values.dist }),
    });
    const signal = await firstSignal();
    log({ level: 'info', event: 'stopping', msg: `${signal}: stopping (grace ${grace} s)`, signal, grace });
    await running.close(grace * 1000);
    store.close();
    log({ level: 'info', event: 'stopped', msg: 'stopped' });
    return 0;
  },
};

export default command;
