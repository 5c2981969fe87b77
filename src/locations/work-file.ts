// The temporary database an import writes, and the bulk mode's deferred key:
// a new table is loaded without any index, and its key's unique index
// (db.ts, KEY_INDEX_SQL) is built once, sorting, after the last row, instead
// of a million random keys inserted one at a time.
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { KEY_INDEX_SQL, KEYLESS_TABLE_SQL, TABLE_SQL } from './db.ts';

/** A temporary file beside `db`, named so that a later import can tell a dead one's leftovers. */
export function tempName(db: string): string {
  return join(dirname(db), `.${basename(db)}.import-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
}

/**
 * Opens the temporary copy for fast writing; with `fresh`, creates the table:
 * keyless when `bulk` (until buildKeyIndex), else with its key (every row checked as it comes).
 */
export function openWork(temp: string, fresh: boolean, bulk: boolean): Database.Database {
  const work = new Database(temp);
  try {
    // 16 KiB pages (a new file only; a copy keeps its own): fewer, fuller B-tree pages, faster bulk inserts
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
    work.exec(KEY_INDEX_SQL);
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE') return false;
    throw error;
  }
}
