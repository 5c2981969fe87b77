// Reads location input files (.csv, .json, .geojson) into raw records, each
// tagged with where it came from, before any checking. CSV is streamed; JSON
// and GeoJSON are one document each and are parsed whole.
import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { problem, type Problem } from '../../build/core/problem.ts';
import { parseJsonText } from '../../build/core/json-text.ts';
import { CsvError, csvRows } from './csv.ts';
import { normaliseId } from './normalise.ts';

/** The record fields a `--map` may name, e.g. `name=Compania`. */
export const FIELDS = ['id', 'name', 'description', 'type', 'latitude', 'longitude'] as const;
export type Field = (typeof FIELDS)[number];
export type FieldMap = Partial<Record<Field, string>>;

/** One input record: its field values (after `--map`), where it is, and why it is unusable, if it is. */
export interface RawRecord {
  file: string;
  line?: number; // CSV: the line where the record starts (header = 1)
  pointer?: string; // JSON: "/3"; GeoJSON: "/features/3"
  values: Partial<Record<Field, unknown>>;
  point?: { latitude: number; longitude: number }; // from a GeoJSON Point geometry
  problem?: string; // e.g. "geometry is not a Point"
}

/** What a reader yields: a batch of records, or a problem with the whole file (which ends it). */
export type InputItem = { records: RawRecord[] } | { fileProblem: Problem };

/** Progress through one file, in bytes, e.g. for "42%". */
export interface ByteProgress {
  read: number;
  size: number;
}

/** A problem of an input file or record: rule "location", as every importer problem. */
export function locationProblem(
  file: string,
  message: string,
  where: { line?: number; column?: number; pointer?: string } = {},
): Problem {
  return problem(file, message, { rule: 'location', ...where });
}

function cannotRead(path: string, error: unknown): Problem {
  const code = (error as NodeJS.ErrnoException).code;
  const reason =
    code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (error as Error).message;
  return locationProblem(path, `cannot read: ${reason}`);
}

/** The fields a record can't do without, unless `--type` gives the type. */
export const REQUIRED_FIELDS: readonly Field[] = ['name', 'latitude', 'longitude', 'type'];

/**
 * Yields the records of one input file in batches, chosen by extension. A
 * file-level problem (unreadable, not UTF-8 JSON, invalid JSON, a CSV header
 * without a column for one of the `required` fields) is yielded instead, never thrown.
 */
export async function* readLocationFile(
  path: string,
  map: FieldMap = {},
  progress?: ByteProgress,
  required: readonly Field[] = REQUIRED_FIELDS,
): AsyncGenerator<InputItem> {
  const extension = extname(path).toLowerCase();
  if (extension !== '.csv' && extension !== '.json' && extension !== '.geojson') {
    yield { fileProblem: locationProblem(path, 'unknown file type (expected .csv, .json or .geojson)') };
    return;
  }
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    if (progress) progress.size = info.size;
  } catch (error) {
    yield { fileProblem: cannotRead(path, error) };
    return;
  }
  if (extension === '.csv') {
    yield* readCsv(path, map, required, progress);
    return;
  }
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    yield { fileProblem: cannotRead(path, error) };
    return;
  }
  if (progress) progress.read = bytes.length;
  if (!isUtf8(bytes)) {
    yield { fileProblem: locationProblem(path, 'not valid UTF-8', { line: firstBadLine(bytes) }) };
    return;
  }
  const parsed = parseJsonText(bytes.toString('utf8'));
  if (!('value' in parsed)) {
    const { line, column, reason } = parsed; // FILE:LINE:COLUMN, as editors jump to
    yield { fileProblem: locationProblem(path, `invalid JSON: ${reason}`, { line, column }) };
    return;
  }
  yield extension === '.json' ? readJsonArray(path, parsed.value, map) : readGeoJson(path, parsed.value, map);
}

/** Returns the 1-based line of the first bytes that are not UTF-8. */
function firstBadLine(bytes: Buffer): number {
  let line = 1;
  for (let from = 0; from < bytes.length; line++) {
    const nl = bytes.indexOf(10, from);
    const end = nl < 0 ? bytes.length : nl + 1;
    if (!isUtf8(bytes.subarray(from, end))) return line;
    from = end;
  }
  return line;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Returns the values of `object` for each field: the mapped key, else the field's name in any letter case. */
function pickAll(object: Record<string, unknown>, map: FieldMap): Partial<Record<Field, unknown>> {
  const values: Partial<Record<Field, unknown>> = {};
  const keys = Object.keys(object);
  for (const field of FIELDS) {
    const mapped = map[field];
    const key =
      mapped !== undefined
        ? mapped
        : Object.hasOwn(object, field)
          ? field
          : keys.find((k) => k.toLowerCase() === field);
    if (key !== undefined && Object.hasOwn(object, key)) values[field] = object[key];
  }
  return values;
}

function readJsonArray(path: string, data: unknown, map: FieldMap): InputItem {
  if (!Array.isArray(data)) return { fileProblem: locationProblem(path, 'expected a JSON array of objects') };
  const records = data.map((item, index): RawRecord => {
    const pointer = `/${index}`;
    return isObject(item)
      ? { file: path, pointer, values: pickAll(item, map) }
      : { file: path, pointer, values: {}, problem: 'not an object' };
  });
  return { records };
}

function readGeoJson(path: string, data: unknown, map: FieldMap): InputItem {
  if (!isObject(data) || data.type !== 'FeatureCollection' || !Array.isArray(data.features)) {
    return { fileProblem: locationProblem(path, 'expected a GeoJSON FeatureCollection') };
  }
  const records = data.features.map((feature: unknown, index): RawRecord => {
    const record: RawRecord = { file: path, pointer: `/features/${index}`, values: {} };
    if (!isObject(feature) || feature.type !== 'Feature') return { ...record, problem: 'not a Feature' };
    const properties = isObject(feature.properties) ? feature.properties : {};
    record.values = pickAll(properties, map);
    // Feature.id is taken when it is a UUID; other ids (often 1, 2, 3…) are not
    // location ids, so such a feature gets a generated one instead
    if (record.values.id === undefined && typeof feature.id === 'string' && normaliseId(feature.id)) {
      record.values.id = feature.id;
    }
    const geometry = feature.geometry;
    if (!isObject(geometry) || geometry.type !== 'Point')
      return { ...record, problem: 'geometry is not a Point' };
    const [longitude, latitude] = Array.isArray(geometry.coordinates) ? geometry.coordinates : [];
    if (typeof longitude !== 'number' || typeof latitude !== 'number') {
      return { ...record, problem: 'Point coordinates are not [longitude, latitude] numbers' };
    }
    return { ...record, point: { latitude, longitude } };
  });
  return { records };
}

/**
 * Returns why a CSV header can't give every record its `required` fields, or
 * undefined: a `--map` column it lacks, or no column for a field, e.g. 'the
 * header has no name, latitude or longitude column (its columns: "Compania",
 * "Latitud"); say which column holds each with --map name=COLUMN,…'. One
 * line for the file, rather than the same reason on every row.
 */
function headerProblem(
  cells: string[],
  map: FieldMap,
  found: Set<Field>,
  required: readonly Field[],
): string | undefined {
  const unmapped = FIELDS.filter((field) => map[field] !== undefined && !found.has(field));
  const absent = required.filter((field) => map[field] === undefined && !found.has(field));
  if (unmapped.length === 0 && absent.length === 0) return undefined;
  const lacks = unmapped.map((field) => `no column "${map[field]}" (--map ${field}=${map[field]})`);
  if (absent.length > 0) {
    const names = absent.length === 1 ? absent[0] : `${absent.slice(0, -1).join(', ')} or ${absent.at(-1)}`;
    lacks.push(`no ${names} column`);
  }
  const columns = cells.length === 0 ? 'none' : cells.map((cell) => JSON.stringify(cell)).join(', ');
  const flag = [...unmapped, ...absent].map((field) => `${field}=COLUMN`).join(',');
  const type = absent.includes('type') ? ' (or give every record its type with --type)' : '';
  return `the header has ${lacks.join(' and ')} (its columns: ${columns}); say which column holds each with --map ${flag}${type}`;
}

/** Streams a CSV file with a header row; each field's column is found once, from the header. */
async function* readCsv(
  path: string,
  map: FieldMap,
  required: readonly Field[],
  progress?: ByteProgress,
): AsyncGenerator<InputItem> {
  const stream = createReadStream(path, { highWaterMark: 64 * 1024 });
  if (progress) stream.on('data', (chunk) => (progress.read += chunk.length));
  let columns: [Field, number][] | undefined;
  let width = 0;
  try {
    for await (const rows of csvRows(stream)) {
      const records: RawRecord[] = [];
      for (const row of rows) {
        if (!columns) {
          if (row.error) {
            yield { fileProblem: locationProblem(path, row.error, { line: row.line }) };
            return;
          }
          width = row.cells.length;
          columns = FIELDS.flatMap((field): [Field, number][] => {
            const name = map[field];
            let index = name !== undefined ? row.cells.indexOf(name) : row.cells.indexOf(field);
            if (index < 0 && name === undefined)
              index = row.cells.findIndex((c) => c.toLowerCase() === field);
            return index < 0 ? [] : [[field, index]];
          });
          const missing = headerProblem(row.cells, map, new Set(columns.map(([field]) => field)), required);
          if (missing) {
            yield { fileProblem: locationProblem(path, missing, { line: row.line }) };
            return;
          }
          continue;
        }
        const record: RawRecord = { file: path, line: row.line, values: {} };
        if (row.error) record.problem = row.error;
        else if (row.cells.length !== width)
          record.problem = `expected ${width} fields (as in the header), found ${row.cells.length}`;
        else for (const [field, index] of columns) record.values[field] = row.cells[index];
        records.push(record);
      }
      if (records.length > 0) yield { records };
    }
    if (!columns) yield { fileProblem: locationProblem(path, 'missing header row', { line: 1 }) };
  } catch (error) {
    if (error instanceof CsvError)
      yield { fileProblem: locationProblem(path, error.message, { line: error.line }) };
    else if ((error as NodeJS.ErrnoException).code !== undefined)
      yield { fileProblem: cannotRead(path, error) };
    else throw error;
  } finally {
    stream.destroy();
  }
}
