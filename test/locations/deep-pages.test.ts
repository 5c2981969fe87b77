// Deep pages cost what the first page costs on every file the server accepts:
// a plain `locations` table from another tool and the original `ubicaciones`
// table are paged through a seek index (every 64th rowid) built at open.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLocationStore } from '../../src/locations/db.ts';
import { normaliseId, normaliseType } from '../../src/locations/normalise.ts';
import { ANCHOR_STEP, buildScanStore } from '../../src/locations/scan-store.ts';
import { LOCATION_TYPES } from '../../src/locations/types.ts';
import { tempDir } from '../server/helpers.ts';

const ROWS = 3000;
// legacy spellings in any case and with spaces, plus a type the API does not list
const SPELLINGS = ['pronto', 'BENCINERA', 'servicio', 'otros', ' Otro ', 'lavado', 'convenience'];

function fill(path: string, table: 'locations' | 'ubicaciones') {
  const db = new Database(path);
  db.exec(
    table === 'ubicaciones'
      ? 'CREATE TABLE ubicaciones (id UUID NOT NULL, name VARCHAR NOT NULL, description VARCHAR, type VARCHAR NOT NULL, latitude FLOAT NOT NULL, longitude FLOAT NOT NULL, PRIMARY KEY (id))'
      : 'CREATE TABLE locations (id TEXT PRIMARY KEY, name TEXT, description TEXT, type TEXT, latitude REAL, longitude REAL)',
  );
  const insert = db.prepare(`INSERT INTO ${table} VALUES (?, ?, ?, ?, ?, ?)`);
  db.transaction(() => {
    for (let i = 0; i < ROWS; i++) {
      // types in runs of uneven length, so anchors of a type fall anywhere
      const type = SPELLINGS[Math.floor(i / (1 + (i % 5))) % SPELLINGS.length]!;
      insert.run(`f${i.toString(16).padStart(31, '0')}`, `n${i}`, `d${i}`, type, -i / 1e4, i / 1e4);
    }
  })();
  db.exec(`DELETE FROM ${table} WHERE rowid % 97 = 0`); // gaps in the rowids
  db.close();
}

/** The reference: every row through OFFSET, normalised as the server shows them. */
function reference(path: string, table: string) {
  const db = new Database(path, { readonly: true });
  const rows = db.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all() as Record<string, unknown>[];
  db.close();
  return rows.map((r) => ({
    id: normaliseId(String(r.id)) ?? String(r.id),
    name: r.name,
    description: r.description,
    type: normaliseType(String(r.type)) ?? String(r.type).toLowerCase(),
    latitude: r.latitude,
    longitude: r.longitude,
  }));
}

describe.each(['locations', 'ubicaciones'] as const)('a plain "%s" table', (table) => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let path: string;
  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir());
    path = join(dir, `${table}.db`);
    fill(path, table);
  });
  afterAll(() => cleanup());

  it('is opened with a seek index ("anchored"), a few bytes per row', () => {
    const store = openLocationStore(path);
    try {
      expect(store.layout).toBe('anchored');
      expect(store.indexBytes).toBeGreaterThan(0);
      expect(store.indexBytes / store.count(null)).toBeLessThanOrEqual(4);
    } finally {
      store.close();
    }
  });

  it('every page (all types and each type, any skip) equals the OFFSET reference', () => {
    const all = reference(path, table);
    const store = openLocationStore(path);
    try {
      expect(store.count(null)).toBe(all.length);
      for (const type of [null, ...LOCATION_TYPES]) {
        const list = type === null ? all : all.filter((r) => r.type === type);
        expect(store.count(type)).toBe(list.length);
        for (const skip of [0, 1, 63, 64, 65, 127, 500, list.length - 3, list.length, list.length + 5]) {
          for (const limit of [1, 7, 100]) {
            expect(store.page(type, skip, limit)).toEqual(list.slice(skip, skip + limit));
          }
        }
      }
    } finally {
      store.close();
    }
  });

  it('a page at any skip starts from an anchor fewer than 64 rows before it', () => {
    const db = new Database(path, { readonly: true });
    try {
      const steps = buildScanStore(db, table);
      let next = steps.next();
      while (!next.done) next = steps.next();
      const store = next.value;
      for (const type of [null, ...LOCATION_TYPES]) {
        for (let skip = 0; skip < store.count(type); skip += 37) {
          expect(store.seek(type, skip).offset).toBeLessThan(ANCHOR_STEP);
        }
      }
    } finally {
      db.close();
    }
  });
});
