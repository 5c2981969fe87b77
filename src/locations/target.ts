// Where an import writes: a temporary copy beside the target database, renamed
// over it when complete. The target itself is never written in place, so a
// server reading it is never blocked and an import killed at any moment
// (SIGKILL, power loss) leaves it as it was; the next import removes what a
// killed one left behind.
import { existsSync } from 'node:fs';
import { copyFile, link, mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { problem, type Problem } from '../../build/core/problem.ts';
import { deterministicId } from './normalise.ts';
import { locationProblem, type RawRecord } from './read-input.ts';
import { INDEX_SQL } from './db.ts';
import { buildKeyIndex, openWork, tempName } from './work-file.ts';
import { LOCATION_TYPES, type Location, type LocationType } from './types.ts';

/** A reason the target cannot be written, as one line (e.g. "disk full"); the caller names the file. */
export class TargetError extends Error {
  override name = 'TargetError';

  /** Returns `error` as a TargetError when it is about the file system or the database file, else undefined. */
  static from(error: unknown, db: string): TargetError | undefined {
    if (error instanceof TargetError) return error;
    const code = String((error as { code?: unknown }).code ?? '');
    const message = (error as Error).message?.split('\n')[0] ?? String(error);
    if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL') {
      return new TargetError(`disk full while writing the new version beside it (nothing written)`);
    }
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS' || code.startsWith('SQLITE_READONLY')) {
      return new TargetError(
        `cannot write in ${dirname(db)}: ${code === 'EROFS' ? 'read-only file system' : 'permission denied'} (nothing written)`,
      );
    }
    if (code.startsWith('SQLITE_') || /^E[A-Z]+$/.test(code))
      return new TargetError(`${message} (nothing written)`);
    return undefined;
  }
}

const TEMP = /^\.(.+)\.import-(\d+)-[0-9a-f]+\.tmp(-journal)?$/;

/** Removes temporary files of imports into `db` whose process is gone (killed, or the machine restarted). */
async function removeLeftovers(db: string): Promise<void> {
  const names = await readdir(dirname(db)).catch(() => [] as string[]);
  for (const name of names) {
    const match = TEMP.exec(name);
    if (!match || match[1] !== basename(db)) continue;
    const pid = Number(match[2]);
    let alive = pid !== process.pid;
    try {
      if (alive) process.kill(pid, 0);
    } catch (error) {
      alive = (error as NodeJS.ErrnoException).code === 'EPERM';
    }
    if (!alive) await rm(join(dirname(db), name), { force: true });
  }
}

/** Flushes a file (or folder) to disk: the rename must not reach the disk before the data. */
async function fsyncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export class ImportTarget {
  /** Position of the first row of this import (rows before it were already in the file). */
  basePos = 0;
  readonly nextTypePos = new Map<LocationType, number>();
  insert!: Database.Statement;
  findPos!: Database.Statement;
  /** Bulk mode only: a plain insert, no index to update. */
  append!: Database.Statement;
  private constructor(
    readonly db: string,
    private temp: string,
    readonly existing: Database.Database | undefined, // the target, holding its write lock
    private work: Database.Database,
    private readonly fresh: boolean, // a new table: indexes are built at the end
    /**
     * A new table loaded without any index, the id's unique index built after
     * the rows; any problem or duplicate id means a checked run instead (restartChecked).
     */
    public bulk: boolean,
  ) {}

  /**
   * Prepares a temporary copy of `db` (or an empty one when `db` is absent or
   * `replace`), locked against other imports. Throws TargetError for a target that is not ours.
   */
  static async open(db: string, replace: boolean, bulk = false): Promise<ImportTarget> {
    await mkdir(dirname(db), { recursive: true });
    await removeLeftovers(db);
    let existing: Database.Database | undefined;
    if (existsSync(db)) {
      try {
        existing = new Database(db, { fileMustExist: true, timeout: 5000 });
        const version = existing.pragma('user_version', { simple: true });
        const hasTable = existing
          .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'locations'")
          .get();
        if (version !== 1 || !hasTable) {
          throw new TargetError(
            'not a database written by "geoshelf locations import" (choose another --db)',
          );
        }
        // the write lock: another import waits or fails here; readers go on
        existing.exec('BEGIN IMMEDIATE');
      } catch (error) {
        existing?.close();
        if ((error as { code?: unknown }).code === 'SQLITE_BUSY') {
          throw new TargetError('another import is writing to it (try again when it is done)');
        }
        throw error;
      }
    }
    const temp = tempName(db);
    let work: Database.Database | undefined;
    try {
      const fresh = !existing || replace;
      if (!fresh) await copyFile(db, temp);
      work = openWork(temp, fresh, fresh && bulk);
      const target = new ImportTarget(db, temp, existing, work, fresh, fresh && bulk);
      target.prepare();
      return target;
    } catch (error) {
      work?.close();
      existing?.close();
      await rm(temp, { force: true });
      throw error;
    }
  }

  /** Leaves bulk mode: starts over with an empty new table whose id index checks every row as it comes. */
  async restartChecked(): Promise<void> {
    this.work.close();
    await rm(this.temp, { force: true });
    this.temp = tempName(this.db);
    this.bulk = false;
    this.work = openWork(this.temp, true, false);
    this.nextTypePos.clear();
    this.prepare();
  }

  /** Bulk mode: builds the id's key; returns false when two rows share an id (nothing is reported yet). */
  finishBulk(): boolean {
    return buildKeyIndex(this.work);
  }

  private prepare(): void {
    this.append = this.work.prepare(
      'INSERT INTO locations (rowid, id, name, description, type, latitude, longitude, pos, type_pos) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.insert = this.work.prepare(
      'INSERT OR IGNORE INTO locations (rowid, id, name, description, type, latitude, longitude, pos, type_pos) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.findPos = this.work.prepare('SELECT pos FROM locations WHERE id = ?').pluck();
    this.basePos = this.work
      .prepare('SELECT COALESCE(MAX(pos) + 1, 0) FROM locations')
      .pluck()
      .get() as number;
    const maxTypePos = this.work
      .prepare('SELECT COALESCE(MAX(type_pos) + 1, 0) FROM locations WHERE type = ?')
      .pluck();
    for (const type of LOCATION_TYPES) this.nextTypePos.set(type, maxTypePos.get(type) as number);
    this.work.exec('BEGIN');
  }

  /** Finishes the new version and puts it in place of the target; returns its row count. */
  async commit(): Promise<{ total: number; created: boolean }> {
    if (this.fresh) {
      // the index sorter may use as much memory as the page cache: less of both for the end
      this.work.pragma('cache_size = -8192');
      this.work.exec(INDEX_SQL);
    }
    const total = this.work.prepare('SELECT COUNT(*) FROM locations').pluck().get() as number;
    this.work.exec('COMMIT');
    this.work.close();
    await fsyncPath(this.temp);
    let created = false;
    if (this.existing) {
      await rename(this.temp, this.db); // while the old file's write lock is still held
      this.existing.close();
    } else {
      // link, not rename: fails instead of overwriting a file another import created meanwhile
      try {
        await link(this.temp, this.db);
      } catch (error) {
        await rm(this.temp, { force: true });
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
          throw new TargetError(
            'was created by another import meanwhile (nothing written; run again to append)',
          );
        }
        throw error;
      }
      await rm(this.temp, { force: true });
      created = true;
    }
    await fsyncPath(dirname(this.db)).catch(() => {}); // not every file system syncs folders
    return { total, created };
  }

  /** Drops the temporary file and releases the target, which stays as it was. */
  async abandon(): Promise<void> {
    if (this.work.open) this.work.close();
    if (this.existing?.open) this.existing.close();
    await rm(this.temp, { force: true });
    await rm(`${this.temp}-journal`, { force: true });
  }
}

/** Growable typed array of where each row of this import came from: 6 bytes per row. */
class Origins {
  files = new Uint16Array(1024);
  places = new Uint32Array(1024); // CSV line, or index in a JSON array / FeatureCollection

  set(index: number, file: number, place: number): void {
    if (index >= this.files.length) {
      const files = new Uint16Array(this.files.length * 2);
      files.set(this.files);
      const places = new Uint32Array(this.places.length * 2);
      places.set(this.places);
      this.files = files;
      this.places = places;
    }
    this.files[index] = file;
    this.places[index] = place;
  }
}

interface Staged {
  location: Location;
  generated: boolean;
  pos: number;
  typePos: number;
  seq: number; // order in the input, for reporting
  file: string;
  line: number | undefined;
  pointer: string | undefined;
}

/**
 * Numbers the rows (`pos`, `type_pos`) in input order as they are staged,
 * inserts them a batch at a time sorted by id (neighbouring keys touch the same
 * index pages, so a small cache suffices), and explains id conflicts.
 */
export class NumberedRows {
  inserted = 0;
  private numbered = 0;
  private batch: Staged[] = [];
  private origins = new Origins();

  constructor(
    private readonly target: ImportTarget,
    private readonly files: string[],
  ) {}

  get staged(): number {
    return this.batch.length;
  }

  stage(location: Location, generated: boolean, file: number, raw: RawRecord, seq: number): void {
    const typePos = this.target.nextTypePos.get(location.type)!;
    this.target.nextTypePos.set(location.type, typePos + 1);
    if (this.target.bulk) {
      // no index yet and no problem so far: the row goes in as is, in input order (rowid = pos + 1)
      const pos = this.target.basePos + this.numbered++;
      const l = location;
      this.target.append.run(
        pos + 1,
        l.id,
        l.name,
        l.description,
        l.type,
        l.latitude,
        l.longitude,
        pos,
        typePos,
      );
      this.inserted++;
      return;
    }
    const place = raw.line ?? Number(raw.pointer!.slice(raw.pointer!.lastIndexOf('/') + 1));
    this.origins.set(this.numbered, file, place);
    this.batch.push({
      location,
      generated,
      pos: this.target.basePos + this.numbered++,
      typePos,
      seq,
      file: raw.file,
      line: raw.line,
      pointer: raw.pointer,
    });
  }

  /**
   * Inserts the staged rows; returns the problems of those whose id is taken. A
   * generated id taken by an identical record of this import is retried with the
   * next occurrence number, so identical rows get distinct, repeatable ids.
   */
  flush(): { seq: number; problem: Problem }[] {
    const { target } = this;
    const problems: { seq: number; problem: Problem }[] = [];
    // sorted by id, equal ids in input order; a native string sort (no comparator) is several times faster
    const staged = this.batch;
    this.batch = [];
    const keys = staged.map((row, i) => `${row.location.id} ${i.toString(36).padStart(4, '0')}`).sort();
    for (const key of keys) {
      const row = staged[parseInt(key.slice(key.lastIndexOf(' ') + 1), 36)]!;
      const l = row.location;
      for (let occurrence = 0; ; occurrence++) {
        const id = occurrence === 0 ? l.id : deterministicId(l, occurrence);
        // rowid = pos + 1: the table stays in import order for any tool that reads it by rowid
        const values = [id, l.name, l.description, l.type, l.latitude, l.longitude, row.pos, row.typePos];
        const info = target.insert.run(row.pos + 1, ...values);
        if (info.changes === 1) {
          this.inserted++;
          break;
        }
        const first = target.findPos.get(id) as number | undefined;
        if (first === undefined) {
          target.insert.run(null, ...values); // the rowid was taken (a file edited by hand): any free one will do
          this.inserted++;
          break;
        }
        const where = { line: row.line, pointer: row.pointer };
        let found: Problem | undefined;
        if (first < target.basePos) {
          // Rule id-exists: when every rejected row is one, the input was most likely imported before.
          found = problem(row.file, `id ${id} is already in ${target.db}`, { ...where, rule: 'id-exists' });
        } else if (!row.generated || first > row.pos) {
          found = locationProblem(row.file, `duplicate id ${id} (first at ${this.where(first)})`, where);
        }
        if (found) {
          problems.push({ seq: row.seq, problem: found });
          break;
        }
      }
    }
    return problems;
  }

  /** Returns where the row at `pos` came from, e.g. "stations.csv: line 12". */
  private where(pos: number): string {
    const index = pos - this.target.basePos;
    const file = this.files[this.origins.files[index]!]!;
    const place = this.origins.places[index]!;
    if (file.toLowerCase().endsWith('.csv')) return `${file}:${place}`;
    return `${file}: ${file.toLowerCase().endsWith('.geojson') ? '/features' : ''}/${place}`;
  }
}
