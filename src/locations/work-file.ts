// The temporary database an import writes, and the bulk mode's deferred key:
// a new table is loaded without any index, and its PRIMARY KEY index is built
// once, sorting, after the last row. SQLite itself cannot defer a declared
// key's index (it would insert a million random keys one at a time), so the
// index is built as a plain unique index and then made the key's own.
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { CREATE_TABLE, TABLE_SQL } from './db.ts';

/** A temporary file beside `db`, named so that a later import can tell a dead one's leftovers. */
export function tempName(db: string): string {
  return join(dirname(db), `.${basename(db)}.import-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
}

/** The table as declared, but without the key (bulk mode, until adoptKeyIndex). */
const KEYLESS_TABLE_SQL = TABLE_SQL.replace('id TEXT PRIMARY KEY', 'id TEXT');
if (KEYLESS_TABLE_SQL === TABLE_SQL)
  throw new Error('work-file.ts: TABLE_SQL no longer declares "id TEXT PRIMARY KEY"');
const KEY_INDEX = 'locations_id_building';

/**
 * Opens the temporary copy for fast writing; with `fresh`, creates the table:
 * keyless when `bulk`, else with its key (every row checked as it comes).
 */
export function openWork(temp: string, fresh: boolean, bulk: boolean): Database.Database {
  const work = new Database(temp);
  try {
    // 16 KiB pages (a new file only; a copy keeps its own): fewer, fuller B-tree pages, ~35 % faster bulk inserts
    if (fresh) work.pragma('page_size = 16384');
    work.pragma('journal_mode = OFF'); // a crash leaves only the temporary file, never the target
    work.pragma('synchronous = OFF'); // flushed once, before the rename
    work.pragma('locking_mode = EXCLUSIVE');
    // checked: 24 MiB, enough for the id index when rows come in id order; bulk rows only append
    work.pragma(bulk ? 'cache_size = -8192' : 'cache_size = -24576');
    if (fresh) work.exec(bulk ? KEYLESS_TABLE_SQL : TABLE_SQL);
    return work;
  } catch (error) {
    work.close();
    throw error;
  }
}

/**
 * Builds the id index of a keyless table; returns false when two rows share
 * an id (with no journal, the failed build may leave pages behind: the caller
 * drops the file).
 */
export function buildKeyIndex(work: Database.Database): boolean {
  try {
    work.exec(`CREATE UNIQUE INDEX ${KEY_INDEX} ON locations (id)`);
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE') return false;
    throw error;
  }
}

/**
 * Makes the index of buildKeyIndex the PRIMARY KEY's own
 * (`sqlite_autoindex_locations_1`, the table declared as CREATE_TABLE): the
 * file is then exactly what inserting into the declared table gives, because
 * a TEXT key's index holds the same (id, rowid) entries as a unique index on
 * id. The last schema change before COMMIT: this connection's cached schema
 * keeps the old names, so it is closed after.
 */
export function adoptKeyIndex(work: Database.Database): void {
  const version = work.pragma('schema_version', { simple: true }) as number;
  work.unsafeMode(true); // better-sqlite3's defensive mode forbids writable_schema
  try {
    work.pragma('writable_schema = ON');
    const table = work
      .prepare("UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = 'locations'")
      .run(CREATE_TABLE);
    const index = work
      .prepare(
        "UPDATE sqlite_master SET name = 'sqlite_autoindex_locations_1', sql = NULL WHERE type = 'index' AND name = ?",
      )
      .run(KEY_INDEX);
    if (table.changes !== 1 || index.changes !== 1) throw new Error('the id index was not made the key');
    work.pragma(`schema_version = ${version + 1}`); // the schema changed: no cached copy may be used
    work.pragma('writable_schema = OFF');
  } finally {
    work.unsafeMode(false);
  }
}
