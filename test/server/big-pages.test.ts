// A huge ?limit is produced incrementally: rows are read in batches while the
// client takes them (backpressure), compressed as a stream, and the response
// cache is bounded in bytes, not entries.
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLocationStore, SCHEMA_SQL, type LocationStore } from '../../src/locations/db.ts';
import { LOCATION_TYPES } from '../../src/locations/types.ts';
import type { RunningServer } from '../../src/server/app.ts';
import { bodyCache } from '../../src/server/representation.ts';
import { BATCH_ROWS } from '../../src/server/page-stream.ts';
import { request, serve, tempDir } from './helpers.ts';

const ROWS = 60_000; // about 9 MB of JSON: more than the socket buffers hold

function writeDb(path: string, rows = ROWS): void {
  const db = new Database(path);
  db.pragma('journal_mode = OFF');
  db.exec(SCHEMA_SQL);
  const insert = db.prepare('INSERT INTO locations VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const typePos = [0, 0, 0, 0];
  db.transaction(() => {
    for (let i = 0; i < rows; i++) {
      const t = i % 4;
      const id = `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
      insert.run(
        id,
        `Lugar ${i}`,
        `Descripción del lugar ${i}`,
        LOCATION_TYPES[t],
        -33,
        -70,
        i,
        typePos[t]!++,
      );
    }
  })();
  db.close();
}

/** The store with a record of every page() call: the largest batch, the rows read so far, and the most reads in one event-loop turn. */
function spied(store: LocationStore) {
  const record = { largest: 0, rowsRead: 0, turn: 0, readsThisTurn: 0, mostReadsInOneTurn: 0, lastTurn: -1 };
  const spy: LocationStore = {
    ...store,
    page(type, skip, limit) {
      record.largest = Math.max(record.largest, limit);
      const rows = store.page(type, skip, limit);
      record.rowsRead += rows.length;
      record.readsThisTurn = record.lastTurn === record.turn ? record.readsThisTurn + 1 : 1;
      record.lastTurn = record.turn;
      record.mostReadsInOneTurn = Math.max(record.mostReadsInOneTurn, record.readsThisTurn);
      return rows;
    },
  };
  return { spy, record };
}

describe('huge pages', () => {
  let server: RunningServer;
  let cleanup: () => Promise<void>;
  let record: ReturnType<typeof spied>['record'];
  beforeAll(async () => {
    const temp = await tempDir();
    cleanup = temp.cleanup;
    const path = join(temp.dir, 'big.sqlite');
    writeDb(path);
    const watched = spied(openLocationStore(path));
    record = watched.record;
    server = await serve({ db: watched.spy, watch: false });
  });
  afterAll(async () => {
    await server.close();
    await cleanup();
  });

  it('?limit=1000000 → every row, in order, read in batches of at most BATCH_ROWS', async () => {
    record.largest = 0;
    const reply = await request(`${server.url}/ubicaciones/?limit=1000000`);
    expect(reply.status).toBe(200);
    expect(reply.headers['x-total-count']).toBe(String(ROWS));
    const body = reply.json() as { name: string }[];
    expect(body.length).toBe(ROWS);
    expect(body[0]!.name).toBe('Lugar 0');
    expect(body.at(-1)!.name).toBe(`Lugar ${ROWS - 1}`);
    expect(record.largest).toBeLessThanOrEqual(BATCH_ROWS);
  });

  it.each([
    ['br', brotliDecompressSync],
    ['gzip', gunzipSync],
  ])('compressed as a stream (%s): the same rows', async (encoding, decompress) => {
    const reply = await request(`${server.url}/ubicaciones/bencineras/?skip=5&limit=1000000`, {
      headers: { 'accept-encoding': encoding },
    });
    expect(reply.headers['content-encoding']).toBe(encoding);
    const rows = JSON.parse(decompress(reply.body).toString()) as { name: string }[];
    expect(rows.length).toBe(ROWS / 4 - 5);
    expect(rows[0]!.name).toBe('Lugar 21');
  });

  it('a client that stops reading stops the reading of rows (backpressure), and leaving ends it', async () => {
    record.rowsRead = 0;
    const req = httpRequest(`${server.url}/ubicaciones/?limit=1000000`);
    const res = await new Promise<import('node:http').IncomingMessage>((resolve) => {
      req.on('response', resolve);
      req.end();
    });
    res.pause();
    let previous = -1;
    while (record.rowsRead !== previous) {
      previous = record.rowsRead;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(record.rowsRead).toBeLessThan(ROWS);
    req.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(record.rowsRead).toBe(previous);
  });

  it('the event loop turns between batches, even when a fast client (another process) drains every write at once', async () => {
    let turning = true;
    const turn = () => {
      record.turn++;
      if (turning) setImmediate(turn);
    };
    turn();
    record.mostReadsInOneTurn = 0;
    const client = spawn(process.execPath, [
      '-e',
      `require('http').get(process.argv[1], (res) => { res.resume(); res.on('end', () => process.exit(0)); })`,
      `${server.url}/ubicaciones/?limit=1000000`,
    ]);
    await new Promise((resolve) => client.once('exit', resolve));
    turning = false;
    expect(record.mostReadsInOneTurn).toBe(1);
  });

  it('ordinary pages are still answered while a huge one is being sent', async () => {
    const big = request(`${server.url}/ubicaciones/?limit=1000000`);
    const small = await request(`${server.url}/ubicaciones/otros/?limit=5`);
    expect(small.status).toBe(200);
    expect((await big).status).toBe(200);
  });
});

describe('the response cache', () => {
  it('is bounded in bytes: many large pages never hold more than the budget', () => {
    const cache = bodyCache<Buffer>(100_000, (b) => b.length)!;
    for (let i = 0; i < 50; i++) cache.set(`page ${i}`, Buffer.alloc(30_000));
    expect(cache.calculatedSize).toBeLessThanOrEqual(100_000);
    expect(cache.size).toBe(3);
    expect(cache.get('page 49')).toBeDefined();
    expect(cache.get('page 0')).toBeUndefined();
    cache.set('huge', Buffer.alloc(200_000)); // larger than the budget: not kept, nothing evicted for it
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.size).toBe(3);
  });

  it('of a server counts compressed variants too and stays within its budget', async () => {
    const temp = await tempDir();
    const path = join(temp.dir, 'small.sqlite');
    writeDb(path, 25_000);
    const server = await serve({ db: path, responseCacheBytes: 300_000, watch: false });
    try {
      for (let skip = 0; skip < 20; skip++) {
        await request(`${server.url}/ubicaciones/?skip=${skip}&limit=1000`, {
          headers: { 'accept-encoding': 'br' },
        });
      }
      const cache = server.app.cache!;
      expect(cache.calculatedSize).toBeGreaterThan(0);
      expect(cache.calculatedSize).toBeLessThanOrEqual(300_000);
      // each kept page is counted with its brotli variant: body + br + key
      let counted = 0;
      for (const [key, page] of cache.entries()) {
        expect(page !== 'none' && page.bytes() > page.body.length).toBe(true);
        counted += (page as { bytes(): number }).bytes() + key.length;
      }
      expect(counted).toBe(cache.calculatedSize);
    } finally {
      await server.close();
      await temp.cleanup();
    }
  });
});
