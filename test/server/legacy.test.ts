// The original service's database: table ubicaciones, 32-hex ids, types
// "pronto" and "otros". Served read-only, as it is.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/app.ts';
import { request, serve, tempDir } from './helpers.ts';
import { corpusPresent, UBI_COPEC } from '../support/corpus.ts';

const COPEC = join(UBI_COPEC, 'copec.db');

/** Writes a database shaped like the original service's (SQLAlchemy's DDL). */
function writeLegacyDb(path: string): void {
  const db = new Database(path);
  db.exec(`CREATE TABLE ubicaciones (
    id UUID NOT NULL, name VARCHAR NOT NULL, description VARCHAR, type VARCHAR NOT NULL,
    latitude FLOAT NOT NULL, longitude FLOAT NOT NULL, PRIMARY KEY (id))`);
  const insert = db.prepare('INSERT INTO ubicaciones VALUES (?, ?, ?, ?, ?, ?)');
  insert.run(
    'AAAAAAAA0000400080000000000000A1',
    'EJEMPLO - Tienda',
    'EJEMPLO - una tienda',
    'pronto',
    -33.1,
    -70.1,
  );
  insert.run('aaaaaaaa000040008000000000000002', 'EJEMPLO - Bencinera', null, 'bencinera', -33.2, -70.2);
  insert.run(
    'aaaaaaaa000040008000000000000003',
    'EJEMPLO - Carga',
    'EJEMPLO - electrolinera',
    'otros',
    -33.3,
    -70.3,
  );
  insert.run(
    'aaaaaaaa000040008000000000000004',
    'EJEMPLO - Lavado',
    'EJEMPLO - lavado',
    'Servicio',
    -33.4,
    -70.4,
  );
  db.close();
}

describe('a legacy database (table ubicaciones)', () => {
  let server: RunningServer;
  let cleanup: () => Promise<void>;
  let file: string;
  let before: { sha: string; mtime: number };
  beforeAll(async () => {
    const temp = await tempDir();
    cleanup = temp.cleanup;
    file = join(temp.dir, 'legacy.db');
    writeLegacyDb(file);
    before = {
      sha: createHash('sha256').update(readFileSync(file)).digest('hex'),
      mtime: statSync(file).mtimeMs,
    };
    server = await serve({ db: file });
  });
  afterAll(async () => {
    await server.close();
    await cleanup();
  });

  it('32-hex ids are served lowercase hyphenated; pronto → convenience, otros → otro; a NULL description → ""', async () => {
    const body = (await request(`${server.url}/ubicaciones/`)).json();
    expect(body).toEqual([
      {
        id: 'aaaaaaaa-0000-4000-8000-0000000000a1',
        name: 'EJEMPLO - Tienda',
        description: 'EJEMPLO - una tienda',
        type: 'convenience',
        latitude: -33.1,
        longitude: -70.1,
      },
      {
        id: 'aaaaaaaa-0000-4000-8000-000000000002',
        name: 'EJEMPLO - Bencinera',
        description: '',
        type: 'bencinera',
        latitude: -33.2,
        longitude: -70.2,
      },
      {
        id: 'aaaaaaaa-0000-4000-8000-000000000003',
        name: 'EJEMPLO - Carga',
        description: 'EJEMPLO - electrolinera',
        type: 'otro',
        latitude: -33.3,
        longitude: -70.3,
      },
      {
        id: 'aaaaaaaa-0000-4000-8000-000000000004',
        name: 'EJEMPLO - Lavado',
        description: 'EJEMPLO - lavado',
        type: 'servicio',
        latitude: -33.4,
        longitude: -70.4,
      },
    ]);
  });

  it('every typed route finds its legacy spelling (pronto, otros, any letter case)', async () => {
    for (const [route, name] of [
      ['convenience', 'EJEMPLO - Tienda'],
      ['bencineras', 'EJEMPLO - Bencinera'],
      ['servicios', 'EJEMPLO - Lavado'],
      ['otros', 'EJEMPLO - Carga'],
    ]) {
      const reply = await request(`${server.url}/ubicaciones/${route}/`);
      expect([route, reply.status, (reply.json() as { name: string }[]).map((l) => l.name)]).toEqual([
        route,
        200,
        [name],
      ]);
      expect(reply.headers['x-total-count']).toBe('1');
    }
  });

  it('paging works on the legacy table (skip, limit, 404 past the end)', async () => {
    const page = (await request(`${server.url}/ubicaciones/?skip=1&limit=2`)).json() as { name: string }[];
    expect(page.map((l) => l.name)).toEqual(['EJEMPLO - Bencinera', 'EJEMPLO - Carga']);
    expect((await request(`${server.url}/ubicaciones/otros/?skip=1`)).status).toBe(404);
  });

  it('the file is never written', async () => {
    await request(`${server.url}/ubicaciones/`);
    expect(createHash('sha256').update(readFileSync(file)).digest('hex')).toBe(before.sha);
    expect(statSync(file).mtimeMs).toBe(before.mtime);
    expect(existsSync(`${file}-journal`) || existsSync(`${file}-wal`)).toBe(false);
  });
});

describe.skipIf(!corpusPresent(COPEC))(
  'the original copec.db (../shared/corpus/ubi-copec; skipped when absent)',
  () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await serve({ db: COPEC });
    });
    afterAll(() => server.close());

    it('serves all four typed routes with hyphenated ids and normalised types', async () => {
      const all = (await request(`${server.url}/ubicaciones/`)).json() as { id: string; type: string }[];
      expect(all).toHaveLength(8);
      expect(all[0]!.id).toBe('120a2e23-f90f-4013-978b-bb7f2736a423');
      for (const [route, type] of [
        ['convenience', 'convenience'],
        ['bencineras', 'bencinera'],
        ['servicios', 'servicio'],
        ['otros', 'otro'],
      ]) {
        const body = (await request(`${server.url}/ubicaciones/${route}/`)).json() as {
          type: string;
          id: string;
        }[];
        expect([route, body.length, [...new Set(body.map((l) => l.type))]]).toEqual([route, 2, [type]]);
        for (const l of body)
          expect(l.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      }
    });
  },
);
