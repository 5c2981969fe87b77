// Stage: streams location files, checks every record, and writes them to the
// SQLite file all at once — all of them, or none when any is bad. The new
// version is built in a temporary file beside the target and renamed over it,
// so the target is always either the old file or the whole new one, readers
// (a running server) are never blocked, and a killed import leaves the target intact.
// A new table is first loaded in bulk (no index until the end); any problem
// sends the import back to the start, checking row by row (README, "Bulk load").
import { stat } from 'node:fs/promises';
import { problem, type Problem } from '../../build/core/problem.ts';
import { deterministicId, normaliseId, normaliseType, parseNumber } from './normalise.ts';
import {
  REQUIRED_FIELDS,
  locationProblem,
  readLocationFile,
  type ByteProgress,
  type FieldMap,
  type RawRecord,
} from './read-input.ts';
import { NumberedRows, ImportTarget, TargetError } from './target.ts';
import { LOCATION_TYPES, type Location, type LocationType } from './types.ts';

export { FIELDS, type Field } from './read-input.ts';

/** Rows sorted by id and inserted together: neighbouring keys make the id index's pages stay in cache. */
const STAGE_ROWS = 4096;

/** Problems listed in full; beyond these, only counted. */
export const MAX_LISTED_PROBLEMS = 100;

export interface ImportOptions {
  files: string[];
  db: string; // e.g. "data/locations.sqlite"; created when absent
  type?: LocationType; // the type of records that have no type value
  map?: FieldMap; // field → source column, e.g. { name: 'Compania' }
  replace?: boolean; // replace every row of the table instead of appending
  /** Called every 20,000 records and at the end: records read so far, and bytes of the current file. */
  onProgress?: (records: number, file: string, bytes: ByteProgress) => void;
}

export interface ImportResult {
  /** The first MAX_LISTED_PROBLEMS; when any, nothing was written. Rule "location" (a record or input file), "id-exists" or "write" (the target). */
  problems: Problem[];
  problemCount: number; // all of them
  existing: number; // how many of them are records whose id is already in the database (rule id-exists)
  inserted: number;
  total: number; // rows in the table afterwards
  created: boolean; // the database file was created by this import
}

const nothing = (problems: Problem[], problemCount = problems.length, existing = 0): ImportResult => ({
  problems,
  problemCount,
  existing,
  inserted: 0,
  total: 0,
  created: false,
});

/**
 * Imports `files` into the database `db`. Reports the first problems and a
 * count (each record's, and file-level ones) and writes nothing when there is
 * any; else appends (or, with `replace`, replaces) the rows. Memory does not
 * grow with the input (CSV is streamed), only 6 bytes per row for error messages.
 */
export async function importLocations(options: ImportOptions): Promise<ImportResult> {
  let target: ImportTarget;
  try {
    target = await ImportTarget.open(options.db, options.replace ?? false, await rereadable(options.files));
  } catch (error) {
    const failure = TargetError.from(error, options.db);
    if (failure) return nothing([problem(options.db, failure.message, { rule: 'write' })]);
    throw error;
  }
  try {
    let outcome = await load(target, options);
    if (outcome === 'restart') {
      await target.restartChecked();
      outcome = await load(target, options);
    }
    if (outcome === 'restart') throw new Error('a checked import asked to restart');
    if (outcome.problemCount > 0) {
      await target.abandon();
      return nothing(outcome.problems, outcome.problemCount, outcome.existing);
    }
    const { total, created } = await target.commit();
    return { problems: [], problemCount: 0, existing: 0, inserted: outcome.inserted, total, created };
  } catch (error) {
    await target.abandon();
    const failure = TargetError.from(error, options.db);
    if (failure) return nothing([problem(options.db, failure.message, { rule: 'write' })]);
    throw error;
  }
}

/**
 * Whether every input can be read a second time (regular files): only then may
 * an import run in bulk mode, which starts over, checked, on the first problem.
 */
async function rereadable(files: string[]): Promise<boolean> {
  for (const file of files) {
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) return false;
  }
  return true;
}

/**
 * Reads, checks and inserts every record of the inputs. In bulk mode, returns
 * "restart" at the first problem or when ids collide (the checked run then
 * finds and explains them, in input order); else the problems and the row count.
 */
async function load(
  target: ImportTarget,
  options: ImportOptions,
): Promise<{ problems: Problem[]; problemCount: number; existing: number; inserted: number } | 'restart'> {
  const problems: Problem[] = [];
  let problemCount = 0;
  let existing = 0;
  const report = (p: Problem) => {
    if (problems.length < MAX_LISTED_PROBLEMS) problems.push(p);
    problemCount++;
    if (p.rule === 'id-exists') existing++;
  };
  const rows = new NumberedRows(target, options.files);
  // With --type, a record may have no type of its own.
  const required = REQUIRED_FIELDS.filter((field) => field !== 'type' || options.type === undefined);
  let records = 0;
  // problems of the rows staged but not yet inserted, reported in input order when they are
  let pending: { seq: number; problem: Problem }[] = [];
  const flush = () => {
    pending.push(...rows.flush());
    pending.sort((a, b) => a.seq - b.seq);
    for (const item of pending) report(item.problem);
    pending = [];
  };
  for (const [fileIndex, file] of options.files.entries()) {
    const bytes: ByteProgress = { read: 0, size: 0 };
    for await (const item of readLocationFile(file, options.map, bytes, required)) {
      if ('fileProblem' in item) {
        if (target.bulk) return 'restart';
        flush();
        report(item.fileProblem);
        continue;
      }
      for (const raw of item.records) {
        const seq = records++;
        const result = checkRecord(raw, options);
        if (typeof result === 'string') {
          if (target.bulk) return 'restart';
          pending.push({
            seq,
            problem: locationProblem(file, result, { line: raw.line, pointer: raw.pointer }),
          });
        } else {
          rows.stage(result.location, result.generated, fileIndex, raw, seq);
        }
        if (records % 20_000 === 0) options.onProgress?.(records, file, bytes);
      }
      if (rows.staged >= STAGE_ROWS) flush();
    }
    flush();
    options.onProgress?.(records, file, bytes);
  }
  if (target.bulk && !target.finishBulk()) return 'restart';
  return { problems, problemCount, existing, inserted: rows.inserted };
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function coordinate(raw: RawRecord, field: 'latitude' | 'longitude', options: ImportOptions) {
  const value = raw.point && options.map?.[field] === undefined ? raw.point[field] : raw.values[field];
  const limit = field === 'latitude' ? 90 : 180;
  if (value === undefined || value === null || value === '') return `${field} is missing`;
  const number = parseNumber(value);
  if (number === undefined) return `${field} ${JSON.stringify(value)} is not a finite number`;
  if (number < -limit || number > limit) return `${field} ${number} is outside [-${limit}, ${limit}]`;
  return number;
}

/** Returns the checked location of `raw` (and whether its id was generated), or the reasons it is rejected. */
function checkRecord(
  raw: RawRecord,
  options: ImportOptions,
): { location: Location; generated: boolean } | string {
  // a hot path (a million calls per million rows): no closures, few objects
  if (raw.problem) return raw.problem;
  let reasons = '';
  const values = raw.values;
  const name = text(values.name);
  if (name === undefined || name === '') reasons = name === '' ? 'name is empty' : 'name is missing';
  const descriptionValue = values.description;
  const description = descriptionValue == null ? '' : text(descriptionValue);
  if (description === undefined) reasons += `${reasons && '; '}description is not text`;
  const typeValue = text(values.type);
  let type: LocationType | undefined = options.type;
  if (typeValue) {
    type = normaliseType(typeValue);
    if (!type) reasons += `${reasons && '; '}type "${typeValue}" is not one of ${LOCATION_TYPES.join(', ')}`;
  } else if (!type) {
    reasons += `${reasons && '; '}type is missing (give a type column or --type)`;
  }
  const latitude = coordinate(raw, 'latitude', options);
  const longitude = coordinate(raw, 'longitude', options);
  if (typeof latitude === 'string') reasons += `${reasons && '; '}${latitude}`;
  if (typeof longitude === 'string') reasons += `${reasons && '; '}${longitude}`;
  const idValue = text(values.id);
  const id = idValue ? normaliseId(idValue) : undefined;
  if (idValue && !id)
    reasons += `${reasons && '; '}id "${idValue}" is not a UUID (32 hex digits, hyphenated or not)`;
  if (reasons !== '') return reasons;
  const location: Location = {
    id: id ?? '',
    name: name!,
    description: description!,
    type: type!,
    latitude: latitude as number,
    longitude: longitude as number,
  };
  if (id === undefined) location.id = deterministicId(location, 0);
  return { location, generated: id === undefined };
}
