// A database file damaged in place while the server runs (truncated, emptied,
// overwritten) is an event, not a bug per request: every request the response
// cache cannot answer gets 503 with the one error body, the log says so in one
// line, kept pages are still served, and the server recovers by itself once
// the file is valid again. A real SQLite file and a real server.
import { closeSync, openSync, readFileSync, truncateSync, writeSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/app.ts';
import { errorBody } from '../../src/server/errors.ts';
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

/** Writes `bytes` over `path` from its start in one write, in place (same inode, no truncation first). */
function writeInPlace(path: string, bytes: Buffer): void {
  const fd = openSync(path, 'r+');
  try {
    writeSync(fd, bytes, 0, bytes.length, 0);
  } finally {
    closeSync(fd);
  }
}

const ROWS = 3000; // a file of many pages, so that half of it is a torn database

const damages: [string, (path: string, good: Buffer) => void, RegExp][] = [
  ['truncated to half', (path, good) => truncateSync(path, good.length / 2), /malformed/],
  ['truncated to 0 bytes', (path) => truncateSync(path, 0), /no such table|not a locations database/],
  [
    'overwritten with zeros after its header',
    (path, good) => writeInPlace(path, Buffer.alloc(good.length - 100)),
    /malformed|not a database/,
  ],
];

describe('a database damaged in place while serving', () => {
  it.each(damages)(
    '%s → 503 {"detail":"Service Unavailable"} and one log line; kept pages still served; valid again → 200 by itself',
    async (_label, damage, reason) => {
      const db = await buildDb(dir, sampleRows(ROWS));
      const good = readFileSync(db);
      const log = recordingLogger();
      server = await serve({ db, log });
      const kept = await request(`${server.url}/ubicaciones/?limit=5`); // now in the response cache
      expect(kept.status).toBe(200);

      damage(db, good);
      const uncached = [
        '/ubicaciones/?skip=2500&limit=5',
        '/ubicaciones/bencineras/',
        '/ubicaciones/?limit=5000',
      ];
      for (let round = 0; round < 3; round++) {
        for (const path of uncached) {
          const reply = await request(`${server.url}${path}`);
          expect([path, reply.status, reply.headers['content-type']]).toEqual([
            path,
            503,
            'application/json',
          ]);
          expect(reply.text).toBe(errorBody('Service Unavailable'));
        }
        await server.app.live.check(); // the file is looked at again: still damaged, said once
      }
      const again = await request(`${server.url}/ubicaciones/?limit=5`);
      expect([again.status, again.text]).toEqual([200, kept.text]);
      expect((await request(`${server.url}/openapi.json`)).status).toBe(200);
      expect(log.entries).toHaveLength(1);
      expect(log.entries[0]).toMatchObject({ level: 'error', event: 'damaged', db });
      expect(log.entries[0]!.msg).toMatch(
        new RegExp(`^database ${db} is damaged: .*; answering 503 until it is valid$`),
      );
      expect(log.entries[0]!.msg).toMatch(reason);

      writeInPlace(db, good); // restored byte for byte, in place
      await server.app.live.check();
      const back = await request(`${server.url}/ubicaciones/?skip=2500&limit=2`);
      expect(back.status).toBe(200);
      expect((back.json() as { name: string }[]).map((r) => r.name)).toEqual(['Lugar 2500', 'Lugar 2501']);
      expect(log.entries).toHaveLength(2);
      expect(log.entries[1]).toMatchObject({
        level: 'info',
        event: 'recovered',
        msg: `database ${db} is valid again: ${ROWS} locations`,
        rows: ROWS,
      });
    },
  );

  it('a file replaced by a damaged one (a rename) is not damage: the previous version stays served', async () => {
    const db = await buildDb(dir, sampleRows(ROWS));
    const log = recordingLogger();
    server = await serve({ db, log });
    const torn = await buildDb(dir, sampleRows(ROWS), 'torn.sqlite');
    truncateSync(torn, readFileSync(torn).length / 2);
    await import('node:fs/promises').then(({ rename }) => rename(torn, db));
    await server.app.live.check();
    const reply = await request(`${server.url}/ubicaciones/?skip=2500&limit=5`);
    expect(reply.status).toBe(200);
    expect(log.entries).toMatchObject([{ level: 'warn', event: 'reload-failed' }]);
  });
});
