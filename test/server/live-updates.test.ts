// A file that changes on disk is a normal event: importing into the file a
// server is serving neither stalls nor fails its requests, and the server
// serves the new rows by itself within seconds, no restart.
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importLocations } from '../../src/locations/import.ts';
import { createApp, type RunningServer } from '../../src/server/app.ts';
import { buildDb, recordingLogger, request, sampleRows, serve, tempDir } from './helpers.ts';

let dir: string;
let cleanup: () => Promise<void>;
let server: RunningServer | undefined;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => {
  await server?.close();
  server = undefined;
  await cleanup();
});

/**
 * Requests `path` until `done(reply)` holds, for up to 30 s (the file is stat()ed every second;
 * a full parallel test run on 2 cores has delayed a reload past 10 s); every reply on the way must be a 200.
 */
async function pollUntil(url: string, done: (total: number) => boolean): Promise<number> {
  const until = Date.now() + 30_000;
  for (let tries = 0; Date.now() < until; tries++) {
    const reply = await request(url);
    expect(reply.status).toBe(200);
    const total = Number(reply.headers['x-total-count']);
    if (done(total)) return tries;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the new rows never appeared');
}

/**
 * A plain locations table, as another tool writes one, with rows n0… up to
 * `rows`; insert(from, to) adds rows n{from}…n{to - 1} in one transaction.
 */
function plainTable(rows: number): {
  db: string;
  insert: (from: number, to: number) => void;
  close: () => void;
} {
  const db = join(dir, 'plain.db');
  const writer = new Database(db);
  writer.exec(
    'CREATE TABLE locations (id TEXT, name TEXT, description TEXT, type TEXT, latitude REAL, longitude REAL)',
  );
  const statement = writer.prepare("INSERT INTO locations VALUES (?, ?, '', 'otro', 1, 2)");
  const insert = writer.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) statement.run(`id-${i}`, `n${i}`);
  });
  insert(0, rows);
  return { db, insert: (from, to) => insert(from, to), close: () => writer.close() };
}

describe('live updates', () => {
  it(
    'rows imported into the served file appear by themselves, while requests keep succeeding',
    { timeout: 60_000 },
    async () => {
      const db = await buildDb(dir, sampleRows(10));
      const log = recordingLogger();
      server = await serve({ db, log });
      // warm the cache with the page that will change
      expect((await request(`${server.url}/ubicaciones/?limit=1000`)).json()).toHaveLength(10);
      const input = join(dir, 'more.json');
      await writeFile(input, JSON.stringify(sampleRows(30).slice(10)));
      let failures = 0;
      let answered = 0;
      let importing = true;
      const load = (async () => {
        while (importing) {
          const reply = await request(`${server!.url}/ubicaciones/otros/?limit=5`);
          if (reply.status === 200) answered++;
          else failures++;
        }
      })();
      const result = await importLocations({ files: [input], db });
      expect(result.total).toBe(30);
      await pollUntil(`${server.url}/ubicaciones/?limit=1000`, (total) => total === 30);
      importing = false;
      await load;
      expect(failures).toBe(0);
      expect(answered).toBeGreaterThan(0);
      const body = (await request(`${server.url}/ubicaciones/?limit=1000`)).json() as { name: string }[];
      expect(body.map((r) => r.name)).toEqual(sampleRows(30).map((r) => r.name));
      // each swap is logged; the last one saw all 30 rows
      expect(log.entries.length).toBeGreaterThan(0);
      for (const entry of log.entries) expect(entry).toMatchObject({ level: 'info', event: 'reloaded', db });
      expect(log.entries.at(-1)).toMatchObject({ msg: `reloaded ${db}: 30 locations`, rows: 30 });
    },
  );

  it(
    'a plain table written in place by another tool is picked up too (its seek index rebuilt)',
    { timeout: 60_000 },
    async () => {
      const { db, insert, close } = plainTable(100);
      server = await serve({ db });
      expect((await request(`${server.url}/ubicaciones/otros/?skip=99`)).json()).toHaveLength(1);
      insert(100, 300);
      close();
      await pollUntil(`${server.url}/ubicaciones/`, (total) => total === 300);
      const deep = (await request(`${server.url}/ubicaciones/otros/?skip=250&limit=2`)).json() as {
        name: string;
      }[];
      expect(deep.map((r) => r.name)).toEqual(['n250', 'n251']);
    },
  );

  it('rows written between opening the file and following it are picked up: the version held is the one opened', async () => {
    const { db, insert, close } = plainTable(10);
    const app = createApp({ db, watch: false, log: recordingLogger() });
    try {
      expect(app.live.store.count(null)).toBe(10);
      insert(10, 50);
      close();
      app.live.watch();
      await app.live.check();
      expect(app.live.store.count(null)).toBe(50);
    } finally {
      app.close();
    }
  });

  it('a file replaced by something that is not a locations database → the previous rows stay served', async () => {
    const db = await buildDb(dir, sampleRows(4));
    const log = recordingLogger();
    server = await serve({ db, log });
    const tmp = join(dir, 'junk.tmp');
    await writeFile(tmp, 'not a database');
    await import('node:fs/promises').then(({ rename }) => rename(tmp, db));
    await server.app.live.check();
    await server.app.live.check(); // the same bad version again: warned once
    const reply = await request(`${server.url}/ubicaciones/`);
    expect(reply.status).toBe(200);
    expect(reply.headers['x-total-count']).toBe('4');
    expect(log.entries).toMatchObject([
      { level: 'warn', event: 'reload-failed', msg: `keeping the previous ${db}: file is not a database` },
    ]);
  });
});
