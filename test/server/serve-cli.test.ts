// `geoshelf serve` as a process: prints its address, answers, stops on SIGTERM;
// a missing or corrupt database is a one-line error at start-up.
import { execFile, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDb, request, sampleRows, tempDir } from './helpers.ts';

const run = promisify(execFile);
import { BIN } from '../support/cli.ts';

describe('geoshelf serve (CLI)', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => ({ dir, cleanup } = await tempDir()));
  afterAll(() => cleanup());

  it('prints "listening on http://127.0.0.1:PORT" (port 0 → the real port), answers, and exits 0 on SIGTERM', async () => {
    const db = await buildDb(dir, sampleRows(3));
    const child = spawn('node', [BIN, 'serve', '--db', db, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /^listening on (http:\/\/127\.0\.0\.1:(\d+))\n/.exec(out);
          if (match && match[2] !== '0') resolve(match[1]!);
        });
        child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
      });
      const reply = await request(`${url}/ubicaciones/`);
      expect(reply.status).toBe(200);
      expect((reply.json() as unknown[]).length).toBe(3);
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('a missing database → one line: "geoshelf serve: cannot open FILE: no such file", exit 1', async () => {
    const db = join(dir, 'missing.sqlite');
    const error = await run('node', [BIN, 'serve', '--db', db, '--port', '0']).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(error).toMatchObject({ code: 1, stderr: `geoshelf serve: cannot open ${db}: no such file\n` });
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
