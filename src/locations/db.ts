// The SQLite layer: the schema the importer writes, and a read-only store the
// server pages through (geoshelf's own files, or the original service's).
import { existsSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { idForDisplay, normaliseType, typeSpellings } from './normalise.ts';
import { LOCATION_TYPES, type LocationType, type StoredLocation } from './types.ts';

/**
 * The table is the seed's record, readable by any SQLite tool, plus two
 * precomputed positions so that any page is an index range, never an OFFSET
 * scan: `pos` numbers every row 0, 1, 2… in import order, `type_pos` numbers
 * the rows of each type 0, 1, 2… in the same order. `PRAGMA user_version = 1`
 * marks a file written by `geoshelf locations import`.
 */
export const SCHEMA_SQL = `
CREATE TABLE locations (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  type TEXT NOT NULL,
  latitude REAL NOT NULL,
  longitude REAL NOT NULL,
  pos INTEGER NOT NULL,
  type_pos INTEGER NOT NULL
);
CREATE UNIQUE INDEX locations_pos ON locations (pos);
CREATE UNIQUE INDEX locations_type_pos ON locations (type, type_pos);
PRAGMA user_version = 1;
`;

/** A problem opening a database: the message is one line, e.g. "file is not a database". */
export class LocationDbError extends Error {
  override name = 'LocationDbError';
}

/** Read access to the locations of one database file, in import (rowid) order. */
export interface LocationStore {
  readonly path: string;
  /** "indexed": geoshelf's file with dense positions; "scan": any other `locations`/`ubicaciones` table. */
  readonly layout: 'indexed' | 'scan';
  readonly table: 'locations' | 'ubicaciones';
  /** Number of locations of `type`, or of all types for null (counted once at open: the file is read-only). */
  count(type: LocationType | null): number;
  /** Returns at most `limit` locations of `type` (null: all) after skipping `skip`, in import order. */
  page(type: LocationType | null, skip: number, limit: number): StoredLocation[];
  close(): void;
}

const COLUMNS = ['id', 'name', 'description', 'type', 'latitude', 'longitude'];
type Row = [unknown, unknown, unknown, unknown, unknown, unknown]; // a raw row of the scan path

/**
 * Opens `path` read-only (never creating or changing it) and checks it with
 * real queries; throws a LocationDbError with a one-line reason when the file
 * is missing, not SQLite, or holds neither a `locations` nor an `ubicaciones` table.
 */
export function openLocationStore(path: string): LocationStore {
  if (!existsSync(path)) throw new LocationDbError('no such file');
  if (statSync(path).isDirectory()) throw new LocationDbError('is a directory');
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    return inspect(db, path);
  } catch (error) {
    db?.close();
    if (error instanceof LocationDbError) throw error;
    if (error instanceof Database.SqliteError || (error as Error).name === 'SqliteError') {
      throw new LocationDbError((error as Error).message.split('\n')[0]!);
    }
    throw error;
  }
}

function inspect(db: Database.Database, path: string): LocationStore {
  const tables = new Set(
    db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
      .pluck()
      .all()
      .map((name) => String(name)),
  );
  const table = tables.has('locations') ? 'locations' : tables.has('ubicaciones') ? 'ubicaciones' : undefined;
  if (!table) throw new LocationDbError('not a locations database (no table "locations" or "ubicaciones")');
  const columns = new Set(
    db
      .prepare(`SELECT name FROM pragma_table_info('${table}')`)
      .pluck()
      .all()
      .map((name) => String(name)),
  );
  const missing = COLUMNS.filter((column) => !columns.has(column));
  if (missing.length > 0) throw new LocationDbError(`table "${table}" lacks column(s) ${missing.join(', ')}`);
  if (table === 'locations' && columns.has('pos') && columns.has('type_pos')) {
    const store = indexedStore(db, path);
    if (store) return store;
  }
  return scanStore(db, path, table);
}

const SELECT = `SELECT ${COLUMNS.join(', ')}`;

function toLocation([id, name, description, type, latitude, longitude]: Row): StoredLocation {
  const idText = Buffer.isBuffer(id) ? id.toString('hex') : String(id);
  const typeText = String(type);
  return {
    id: idForDisplay(idText),
    name: String(name ?? ''),
    description: String(description ?? ''),
    type: normaliseType(typeText) ?? typeText.toLowerCase(),
    latitude: Number(latitude),
    longitude: Number(longitude),
  };
}

/**
 * The fast path over geoshelf's own file: a page is `pos >= skip ORDER BY pos
 * LIMIT n`. Returns undefined when the positions are not dense (the file was
 * edited by hand), so the caller falls back to the scan path.
 */
function indexedStore(db: Database.Database, path: string): LocationStore | undefined {
  const [total, maxPos] = db.prepare('SELECT COUNT(*), MAX(pos) FROM locations').raw().get() as [
    number,
    number | null,
  ];
  if ((maxPos ?? -1) + 1 !== total) return undefined;
  const counts = new Map<LocationType | null, number>([[null, total]]);
  for (const type of LOCATION_TYPES) counts.set(type, 0);
  const perType = db
    .prepare('SELECT type, COUNT(*), MAX(type_pos) FROM locations GROUP BY type')
    .raw()
    .all() as [string, number, number][];
  for (const [type, count, maxTypePos] of perType) {
    if (maxTypePos + 1 !== count || !counts.has(type as LocationType)) return undefined;
    counts.set(type as LocationType, count);
  }
  // rows come back as objects in column order, already in stored form (the importer normalised them)
  const all = db.prepare(`${SELECT} FROM locations WHERE pos >= ? ORDER BY pos LIMIT ?`);
  const typed = db.prepare(
    `${SELECT} FROM locations WHERE type = ? AND type_pos >= ? ORDER BY type_pos LIMIT ?`,
  );
  return {
    path,
    layout: 'indexed',
    table: 'locations',
    count: (type) => counts.get(type) ?? 0,
    page(type, skip, limit) {
      return (type === null ? all.all(skip, limit) : typed.all(type, skip, limit)) as StoredLocation[];
    },
    close: () => db.close(),
  };
}

/**
 * The fallback path (the original service's file, or a hand-made table):
 * `ORDER BY rowid LIMIT n OFFSET skip`, with every legacy spelling of a type
 * matched in any letter case. Fine for the small files it is meant for.
 */
function scanStore(db: Database.Database, path: string, table: 'locations' | 'ubicaciones'): LocationStore {
  const counts = new Map<LocationType | null, number>([[null, 0]]);
  for (const type of LOCATION_TYPES) counts.set(type, 0);
  const perType = db
    .prepare(`SELECT lower(type), COUNT(*) FROM ${table} GROUP BY lower(type)`)
    .raw()
    .all() as [string | null, number][];
  for (const [stored, count] of perType) {
    counts.set(null, counts.get(null)! + count);
    const type = normaliseType(stored ?? '');
    if (type) counts.set(type, counts.get(type)! + count);
  }
  const all = db.prepare(`${SELECT} FROM ${table} ORDER BY rowid LIMIT ? OFFSET ?`).raw();
  const typed = new Map(
    LOCATION_TYPES.map((type) => {
      const spellings = typeSpellings(type)
        .map((s) => `'${s}'`)
        .join(', ');
      const sql = `${SELECT} FROM ${table} WHERE lower(type) IN (${spellings}) ORDER BY rowid LIMIT ? OFFSET ?`;
      return [type, db.prepare(sql).raw()];
    }),
  );
  return {
    path,
    layout: 'scan',
    table,
    count: (type) => counts.get(type) ?? 0,
    page(type, skip, limit) {
      const statement = type === null ? all : typed.get(type)!;
      return (statement.all(limit, skip) as Row[]).map(toLocation);
    },
    close: () => db.close(),
  };
}
