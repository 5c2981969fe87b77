// The SQLite layer: the schema the importer writes, and a read-only store the
// server pages through (geoshelf's own files, or the original service's).
import { existsSync, statSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { buildScanStore, COLUMNS, offsetScanStore, type ScanStoreParts } from './scan-store.ts';
import { LOCATION_TYPES, type LocationType, type StoredLocation } from './types.ts';

/**
 * The table is the seed's record, readable by any SQLite tool, plus two
 * precomputed positions so that any page is an index range, never an OFFSET
 * scan: `pos` numbers every row 0, 1, 2… in import order, `type_pos` numbers
 * the rows of each type 0, 1, 2… in the same order. `PRAGMA user_version = 1`
 * marks a file written by `geoshelf locations import`.
 *
 * The key is `id`: NOT NULL with a unique index (`locations_id`), which is
 * what a TEXT PRIMARY KEY is in SQLite, but an index SQLite lets us build
 * after a bulk load (a declared key's index can't be deferred). Files of
 * earlier imports declare `id TEXT PRIMARY KEY`; both are read and appended to alike.
 */
const CREATE_TABLE = `CREATE TABLE locations (
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  type TEXT NOT NULL,
  latitude REAL NOT NULL,
  longitude REAL NOT NULL,
  pos INTEGER NOT NULL,
  type_pos INTEGER NOT NULL
)`;
/** The key's index: before the rows when each row is checked, after them in a bulk load. */
export const KEY_INDEX_SQL = 'CREATE UNIQUE INDEX locations_id ON locations (id);';
/** The new table, without its key (the bulk load's start). */
export const KEYLESS_TABLE_SQL = `
${CREATE_TABLE};
PRAGMA user_version = 1;
`;
/** The new table with its key, ready for rows checked one by one. */
export const TABLE_SQL = `${KEYLESS_TABLE_SQL}${KEY_INDEX_SQL}\n`;
/** The position indexes: the importer builds them after the rows of a new file (faster than row by row). */
export const INDEX_SQL = `
CREATE UNIQUE INDEX locations_pos ON locations (pos);
CREATE UNIQUE INDEX locations_type_pos ON locations (type, type_pos);
`;
export const SCHEMA_SQL = TABLE_SQL + INDEX_SQL;

/**
 * A problem opening a database: the message is one line, e.g. "file is not a
 * database"; `code` is SQLite's when SQLite refused it (e.g. "SQLITE_NOTADB").
 */
export class LocationDbError extends Error {
  override name = 'LocationDbError';
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** Read access to the locations of one database file, in import (rowid) order. */
export interface LocationStore {
  readonly path: string;
  /**
   * "indexed": geoshelf's file with dense positions; "anchored": any other
   * `locations`/`ubicaciones` table, paged through a seek index built at open;
   * "offset": a table without rowid, paged with OFFSET.
   */
  readonly layout: 'indexed' | 'anchored' | 'offset';
  readonly table: 'locations' | 'ubicaciones';
  /** Bytes of memory the store's own index holds (0 for "indexed": the file has it). */
  readonly indexBytes: number;
  /** Number of locations of `type`, or of all types for null (counted at open: a store is one snapshot). */
  count(type: LocationType | null): number;
  /** Returns at most `limit` locations of `type` (null: all) after skipping `skip`, in import order. */
  page(type: LocationType | null, skip: number, limit: number): StoredLocation[];
  close(): void;
}

/** How long a query waits for a writer's lock before failing with SQLITE_BUSY (the server answers 503). */
const BUSY_TIMEOUT_MS = 50;

/**
 * Opens `path` read-only (never creating or changing it) and checks it with
 * real queries; throws a LocationDbError with a one-line reason when the file
 * is missing, not SQLite, or holds neither a `locations` nor an `ubicaciones`
 * table. Builds the whole index before returning (start-up).
 */
export function openLocationStore(path: string): LocationStore {
  const steps = openSteps(path);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/**
 * As openLocationStore, but yields to the event loop between steps of the
 * index build, so a server reopening a changed file keeps answering meanwhile.
 */
export async function openLocationStoreAsync(path: string): Promise<LocationStore> {
  const steps = openSteps(path);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    await nextTurn();
  }
}

function* openSteps(path: string): Generator<void, LocationStore> {
  if (!existsSync(path)) throw new LocationDbError('no such file');
  if (statSync(path).isDirectory()) throw new LocationDbError('is a directory');
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
    db.exec('BEGIN'); // one snapshot for every step of the build, however many turns it takes
    const store = yield* inspect(db, path);
    db.exec('COMMIT');
    return store;
  } catch (error) {
    db?.close();
    if (error instanceof LocationDbError) throw error;
    if (error instanceof Database.SqliteError || (error as Error).name === 'SqliteError') {
      throw new LocationDbError((error as Error).message.split('\n')[0]!, (error as { code?: string }).code);
    }
    throw error;
  }
}

function* inspect(db: Database.Database, path: string): Generator<void, LocationStore> {
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
    const store = yield* indexedStore(db, path);
    if (store) return store;
  }
  let parts: ScanStoreParts;
  let layout: 'anchored' | 'offset' = 'anchored';
  try {
    db.prepare(`SELECT rowid FROM ${table} LIMIT 1`).get();
    parts = yield* buildScanStore(db, table);
  } catch (error) {
    if (!/no such column: rowid/.test((error as Error).message)) throw error;
    layout = 'offset'; // a WITHOUT ROWID table
    parts = offsetScanStore(db, table);
  }
  return {
    path,
    layout,
    table,
    indexBytes: parts.indexBytes,
    count: parts.count,
    page: parts.page,
    close: () => db.close(),
  };
}

const SELECT = `SELECT ${COLUMNS.join(', ')}`;

/**
 * The fast path over geoshelf's own file: a page is `pos >= skip ORDER BY pos
 * LIMIT n`. Returns undefined when the positions are not dense (the file was
 * edited by hand), so the caller falls back to the anchored path. Counting is
 * one index range per type, each its own step.
 */
function* indexedStore(db: Database.Database, path: string): Generator<void, LocationStore | undefined> {
  const [total, minPos, maxPos] = db
    .prepare('SELECT COUNT(*), MIN(pos), MAX(pos) FROM locations')
    .raw()
    .get() as [number, number | null, number | null];
  if ((maxPos ?? -1) + 1 !== total || (minPos ?? 0) !== 0) return undefined;
  const counts = new Map<LocationType | null, number>([[null, total]]);
  const perType = db
    .prepare('SELECT COUNT(*), MIN(type_pos), MAX(type_pos) FROM locations WHERE type = ?')
    .raw();
  let typed = 0;
  for (const type of LOCATION_TYPES) {
    yield;
    const [count, min, max] = perType.get(type) as [number, number | null, number | null];
    if ((max ?? -1) + 1 !== count || (min ?? 0) !== 0) return undefined;
    counts.set(type, count);
    typed += count;
  }
  if (typed !== total) return undefined; // rows of a type the importer never writes
  // rows come back as objects in column order, already in stored form (the importer normalised them)
  const all = db.prepare(`${SELECT} FROM locations WHERE pos >= ? ORDER BY pos LIMIT ?`);
  const typedPage = db.prepare(
    `${SELECT} FROM locations WHERE type = ? AND type_pos >= ? ORDER BY type_pos LIMIT ?`,
  );
  return {
    path,
    layout: 'indexed',
    table: 'locations',
    indexBytes: 0,
    count: (type) => counts.get(type) ?? 0,
    page(type, skip, limit) {
      return (type === null ? all.all(skip, limit) : typedPage.all(type, skip, limit)) as StoredLocation[];
    },
    close: () => db.close(),
  };
}
