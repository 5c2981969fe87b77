// `geoshelf serve` as a process: logs its address (JSON lines on stdout),
// answers, stops on SIGTERM; a missing or corrupt database, or a busy port, is
// a one-line error at start-up.
import { execFile, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDb, listeningUrl, request, sampleRows, tempDir } from './helpers.ts';

const execFileAsync = promisify(execFile);
/** Runs a child that must end by itself: killed after 20 s. */
const run = (file: string, args: string[]) => execFileAsync(file, args, { timeout: 20_000 });
import { BIN } from '../support/cli.ts';

describe('geoshelf serve (CLI)', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => ({ dir, cleanup } = await tempDir()));
  afterAll(() => cleanup());

  it('logs one JSON line per event on stdout: "listening" with the real port (port 0 asked), then "stopping" and "stopped" on SIGTERM, exit 0', async () => {
    const db = await buildDb(dir, sampleRows(3));
    const child = spawn('node', [BIN, 'serve', '--db', db, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    try {
      const url = await listeningUrl(child);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
      const reply = await request(`${url}/ubicaciones/`);
      expect(reply.status).toBe(200);
      expect((reply.json() as unknown[]).length).toBe(3);
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      const entries = stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(entries.map((e) => [e.level, e.event])).toEqual([
        ['info', 'listening'],
        ['info', 'stopping'],
        ['info', 'stopped'],
      ]);
      for (const entry of entries) expect(Number.isNaN(Date.parse(String(entry.time)))).toBe(false);
      expect(entries[0]).toMatchObject({
        msg: `listening on ${url}`,
        api: `${url}/ubicaciones/`,
        openapi: `${url}/openapi.json`,
      });
      expect(entries[1]).toMatchObject({ signal: 'SIGTERM', grace: 10 });
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('a missing database → one line saying how to create it, exit 1', async () => {
    const db = join(dir, 'missing.sqlite');
    const error = await run('node', [BIN, 'serve', '--db', db, '--port', '0']).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(error).toMatchObject({
      code: 1,
      stderr: `geoshelf serve: cannot open ${db}: no such file; create it with "geoshelf locations import FILE --db ${db}"\n`,
    });
  });

  it('a port in use → one line: "geoshelf serve: port N on HOST is in use; choose another port with --port N", exit 1', async () => {
    const db = await buildDb(dir, sampleRows(1), 'busy.sqlite');
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      const error = await run('node', [BIN, 'serve', '--db', db, '--port', String(port)]).catch(
        (e: { code: number; stderr: string }) => e,
      );
      expect(error).toMatchObject({
        code: 1,
        stderr: `geoshelf serve: port ${port} on 127.0.0.1 is in use; choose another port with --port N\n`,
      });
    } finally {
      holder.close();
    }
  });

  it('a corrupt database → one line: "geoshelf serve: cannot open FILE: file is not a database", exit 1', async () => {
    const db = join(dir, 'corrupt.sqlite');
    await writeFile(db, 'this is not SQLite, just text long enough to look like a header.'.repeat(40));
    const error = await run('node', [BIN, 'serve', '--db', db, '--port', '0']).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(error).toMatchObject({
      code: 1,
      stderr: `geoshelf serve: cannot open ${db}: file is not a database\n`,
    });
  });

  it('a SQLite file without a locations table → one line, exit 1', async () => {
    const db = join(dir, 'other.sqlite');
    const { default: Database } = await import('better-sqlite3');
    const handle = new Database(db);
    handle.exec('CREATE TABLE t (x)');
    handle.close();
    const error = await run('node', [BIN, 'serve', '--db', db, '--port', '0']).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(error).toMatchObject({
      code: 1,
      stderr: `geoshelf serve: cannot open ${db}: not a locations database (no table "locations" or "ubicaciones")\n`,
    });
  });
});
