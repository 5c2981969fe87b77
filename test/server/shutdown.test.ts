// SIGTERM/SIGINT: `geoshelf serve` stops accepting connections, lets the
// responses in flight finish (up to --grace seconds, then cuts them), and exits 0.
import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_SQL } from '../../src/locations/db.ts';
import { listeningUrl, request, tempDir } from './helpers.ts';

import { BIN } from '../support/cli.ts';
const ROWS = 60_000; // a response of about 9 MB: in flight while the client holds it

function writeDb(path: string): void {
  const db = new Database(path);
  db.exec(SCHEMA_SQL);
  const insert = db.prepare("INSERT INTO locations VALUES (?, ?, 'd', 'otro', 1, 2, ?, ?)");
  db.transaction(() => {
    for (let i = 0; i < ROWS; i++)
      insert.run(`00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, `n${i}`, i, i);
  })();
  db.close();
}

async function start(db: string, grace: number): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn('node', [BIN, 'serve', '--db', db, '--port', '0', '--grace', String(grace)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  setTimeout(() => child.kill('SIGKILL'), 60_000).unref(); // bounded even if a test fails midway
  return { child, url: await listeningUrl(child) };
}

/** Starts a huge response and holds it: the headers arrive, the body waits for resume(). */
function holdHugeResponse(url: string): Promise<{ res: IncomingMessage; body: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}/ubicaciones/?limit=1000000`, (res) => {
      res.pause();
      const chunks: Buffer[] = [];
      const body = new Promise<string>((done) => {
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(Buffer.concat(chunks).toString()));
        res.on('error', () => done('cut'));
        res.on('aborted', () => done('cut'));
      });
      resolve({ res, body });
    });
    req.on('error', reject);
    req.end();
  });
}

const refused = (url: string) =>
  request(`${url}/ubicaciones/`).then(
    () => false,
    (error: NodeJS.ErrnoException) => error.code === 'ECONNREFUSED',
  );

describe('geoshelf serve on SIGTERM', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let db: string;
  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir());
    db = join(dir, 'big.sqlite');
    writeDb(db);
  });
  afterAll(() => cleanup());

  it('stops accepting, finishes the response in flight, then exits 0', async () => {
    const { child, url } = await start(db, 30);
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const held = await holdHugeResponse(url);
    child.kill('SIGTERM');
    let closed = false;
    for (let tries = 0; tries < 100 && !closed; tries++) {
      closed = await refused(url);
      if (!closed) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(closed).toBe(true);
    expect(child.exitCode).toBeNull(); // still sending the held response
    held.res.resume();
    const rows = JSON.parse(await held.body) as unknown[];
    expect(rows).toHaveLength(ROWS);
    expect(await exited).toBe(0);
  });

  it('a response still in flight after --grace seconds is cut, and the process exits 0', async () => {
    const { child, url } = await start(db, 1);
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const held = await holdHugeResponse(url);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    held.res.resume();
    expect(await held.body).not.toMatch(/\]$/);
  });
});
