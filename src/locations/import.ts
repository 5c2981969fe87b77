// Stage: reads location files, checks every record, and writes them to the
// SQLite file in one transaction — all of them, or none when any is bad.
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { tempPathBeside } from '../../build/core/atomic-write.ts';
import { SCHEMA_SQL } from './db.ts';
import { deterministicId, normaliseId, normaliseType, parseNumber } from './normalise.ts';
import { readLocationFile, type RawRecord } from './read-input.ts';
import { LOCATION_TYPES, type Location, type LocationType } from './types.ts';

/** The record fields a `--map` may name, e.g. `name=Compania`. */
export const FIELDS = ['id', 'name', 'description', 'type', 'latitude', 'longitude'] as const;
export type Field = (typeof FIELDS)[number];

export interface ImportOptions {
  files: string[];
  db: string; // e.g. "data/locations.sqlite"; created when absent
  type?: LocationType; // the type of records that have no type value
  map?: Partial<Record<Field, string>>; // field → source column, e.g. { name: 'Compania' }
  replace?: boolean; // replace every row of the table instead of appending
  /** Called now and then, e.g. ("checking", 20000, 1845000) or ("writing", 40000, 1845000). */
  onProgress?: (phase: 'checking' | 'writing', done: number, total: number) => void;
}

export interface ImportResult {
  problems: string[]; // "FILE:LINE: reason" lines; when any, nothing was written
  inserted: number;
  total: number; // rows in the table afterwards
  created: boolean; // the database file was created by this import
}

/** A checked record and where it came from. */
interface Checked {
  where: string;
  location: Location;
}

/**
 * Imports `files` into the database `db`. Returns every problem found (each
 * record's, and file-level ones) and writes nothing when there is any; else
 * appends (or, with `replace`, replaces) the rows in one transaction. A new
 * database file is built beside `db` and renamed into place, so it never exists half-written.
 */
export async function importLocations(options: ImportOptions): Promise<ImportResult> {
  const problems: string[] = [];
  const checked: Checked[] = [];
  const seenIds = new Map<string, string>(); // id → where first seen
  const occurrences = new Map<string, number>(); // record content → count, for generated ids
  for (const file of options.files) {
    const input = await readLocationFile(file);
    problems.push(...input.problems);
    for (const [index, raw] of input.records.entries()) {
      if (options.onProgress && index % 20_000 === 0)
        options.onProgress('checking', index, input.records.length);
      const result = checkRecord(raw, options, occurrences);
      if (typeof result === 'string') {
        problems.push(`${raw.where}: ${result}`);
        continue;
      }
      const first = seenIds.get(result.id);
      if (first !== undefined) {
        problems.push(`${raw.where}: duplicate id ${result.id} (first at ${first})`);
        continue;
      }
      seenIds.set(result.id, raw.where);
      checked.push({ where: raw.where, location: result });
    }
  }
  const created = !existsSync(options.db);
  if (problems.length > 0) return { problems, inserted: 0, total: 0, created: false };
  return created ? createDatabase(options, checked) : appendToDatabase(options, checked);
}

/** Returns the value of `field` in `fields`: the mapped column, else the same name in any letter case. */
function pick(fields: Record<string, unknown>, field: Field, map: ImportOptions['map']): unknown {
  const column = map?.[field];
  if (column !== undefined) return fields[column];
  if (field in fields) return fields[field];
  const key = Object.keys(fields).find((k) => k.toLowerCase() === field);
  return key === undefined ? undefined : fields[key];
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function coordinate(raw: RawRecord, field: 'latitude' | 'longitude', options: ImportOptions) {
  const value =
    raw.point && options.map?.[field] === undefined ? raw.point[field] : pick(raw.fields, field, options.map);
  const limit = field === 'latitude' ? 90 : 180;
  if (value === undefined || value === null || value === '') return `${field} is missing`;
  const number = parseNumber(value);
  if (number === undefined) return `${field} ${JSON.stringify(value)} is not a finite number`;
  if (number < -limit || number > limit) return `${field} ${number} is outside [-${limit}, ${limit}]`;
  return number;
}

/** Returns the checked location of `raw`, or the reasons it is rejected joined by "; ". */
function checkRecord(
  raw: RawRecord,
  options: ImportOptions,
  occurrences: Map<string, number>,
): Location | string {
  if (raw.problem) return raw.problem;
  const reasons: string[] = [];
  const { fields } = raw;
  const name = text(pick(fields, 'name', options.map));
  if (name === undefined || name === '') reasons.push(name === '' ? 'name is empty' : 'name is missing');
  const descriptionValue = pick(fields, 'description', options.map);
  const description = descriptionValue == null ? '' : text(descriptionValue);
  if (description === undefined) reasons.push('description is not text');
  const typeValue = text(pick(fields, 'type', options.map));
  let type: LocationType | undefined = options.type;
  if (typeValue) {
    type = normaliseType(typeValue);
    if (!type) reasons.push(`type "${typeValue}" is not one of ${LOCATION_TYPES.join(', ')}`);
  } else if (!type) {
    reasons.push('type is missing (give a type column or --type)');
  }
  const latitude = coordinate(raw, 'latitude', options);
  const longitude = coordinate(raw, 'longitude', options);
  if (typeof latitude === 'string') reasons.push(latitude);
  if (typeof longitude === 'string') reasons.push(longitude);
  const idValue = text(pick(fields, 'id', options.map));
  const id = idValue ? normaliseId(idValue) : undefined;
  if (idValue && !id) reasons.push(`id "${idValue}" is not a UUID (32 hex digits, hyphenated or not)`);
  if (reasons.length > 0) return reasons.join('; ');
  const record = {
    name: name!,
    description: description!,
    type: type!,
    latitude: latitude as number,
    longitude: longitude as number,
  };
  if (id) return { id, ...record };
  const key = JSON.stringify(record);
  const occurrence = occurrences.get(key) ?? 0;
  occurrences.set(key, occurrence + 1);
  return { id: deterministicId(record, occurrence), ...record };
}

/** Builds a new database in a temporary file beside `options.db`, then renames it into place. */
async function createDatabase(options: ImportOptions, checked: Checked[]): Promise<ImportResult> {
  await mkdir(dirname(options.db), { recursive: true });
  const temp = tempPathBeside(options.db);
  try {
    const db = new Database(temp);
    try {
      db.pragma('synchronous = OFF'); // a crash leaves only the temporary file, never options.db
      db.exec(SCHEMA_SQL);
      insertAll(db, checked, options);
    } finally {
      db.close();
    }
    await rename(temp, options.db);
  } catch (error) {
    await rm(temp, { force: true });
    await rm(`${temp}-journal`, { force: true });
    throw error;
  }
  return { problems: [], inserted: checked.length, total: checked.length, created: true };
}

/** Appends to (or replaces the rows of) an existing geoshelf database in one transaction. */
function appendToDatabase(options: ImportOptions, checked: Checked[]): ImportResult {
  let db: Database.Database;
  try {
    db = new Database(options.db, { fileMustExist: true });
    db.pragma('user_version');
  } catch (error) {
    return {
      problems: [`${options.db}: ${(error as Error).message}`],
      inserted: 0,
      total: 0,
      created: false,
    };
  }
  try {
    const version = db.pragma('user_version', { simple: true });
    const hasTable = db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'locations'")
      .get();
    if (version !== 1 || !hasTable) {
      const problem = `${options.db}: not a database written by "geoshelf locations import" (choose another --db)`;
      return { problems: [problem], inserted: 0, total: 0, created: false };
    }
    const problems: string[] = [];
    db.transaction(() => {
      if (options.replace) {
        db.exec('DELETE FROM locations');
      } else {
        const exists = db.prepare('SELECT 1 FROM locations WHERE id = ?').pluck();
        for (const { where, location } of checked) {
          if (exists.get(location.id))
            problems.push(`${where}: id ${location.id} is already in ${options.db}`);
        }
        if (problems.length > 0) return;
      }
      insertAll(db, checked, options);
    }).immediate();
    const total = db.prepare('SELECT COUNT(*) FROM locations').pluck().get() as number;
    return { problems, inserted: problems.length > 0 ? 0 : checked.length, total, created: false };
  } finally {
    db.close();
  }
}

/** Inserts `checked` after the rows already there, numbering `pos` and `type_pos` on. */
function insertAll(db: Database.Database, checked: Checked[], options: ImportOptions): void {
  const insert = db.prepare(
    'INSERT INTO locations (id, name, description, type, latitude, longitude, pos, type_pos) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  let pos = db.prepare('SELECT COALESCE(MAX(pos) + 1, 0) FROM locations').pluck().get() as number;
  const nextTypePos = new Map<string, number>();
  const maxTypePos = db
    .prepare('SELECT COALESCE(MAX(type_pos) + 1, 0) FROM locations WHERE type = ?')
    .pluck();
  for (const type of LOCATION_TYPES) nextTypePos.set(type, maxTypePos.get(type) as number);
  const run = db.transaction(() => {
    checked.forEach(({ location: l }, i) => {
      const typePos = nextTypePos.get(l.type)!;
      nextTypePos.set(l.type, typePos + 1);
      insert.run(l.id, l.name, l.description, l.type, l.latitude, l.longitude, pos++, typePos);
      if (options.onProgress && (i + 1) % 20_000 === 0) options.onProgress('writing', i + 1, checked.length);
    });
  });
  run(); // nested in the caller's transaction, if any (then a savepoint)
  options.onProgress?.('writing', checked.length, checked.length);
}
