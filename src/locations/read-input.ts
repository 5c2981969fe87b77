// Reads location input files (.csv, .json, .geojson) into raw records, each
// tagged with where it came from, before any mapping or checking.
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { normaliseId } from './normalise.ts';

/** One input record before mapping: its source columns and, for GeoJSON, the point. */
export interface RawRecord {
  where: string; // e.g. "stations.csv:12", "stations.json: [3]", "stations.geojson: /features/3"
  fields: Record<string, unknown>;
  point?: { latitude: number; longitude: number }; // from a GeoJSON Point geometry
  problem?: string; // set when the record is unusable as read, e.g. "geometry is not a Point"
}

export interface InputFile {
  records: RawRecord[];
  problems: string[]; // whole-file problems, e.g. "x.json: invalid JSON: …"
}

/** Returns the records of one input file, chosen by extension; problems instead of throwing. */
export async function readLocationFile(path: string): Promise<InputFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : String(error);
    return { records: [], problems: [`${path}: cannot read: ${reason}`] };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const extension = extname(path).toLowerCase();
  if (extension === '.csv') return readCsv(path, text);
  if (extension === '.json' || extension === '.geojson') {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      return { records: [], problems: [`${path}: invalid JSON: ${(error as Error).message}`] };
    }
    return extension === '.json' ? readJsonArray(path, data) : readGeoJson(path, data);
  }
  return { records: [], problems: [`${path}: unknown file type (expected .csv, .json or .geojson)`] };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readJsonArray(path: string, data: unknown): InputFile {
  if (!Array.isArray(data)) return { records: [], problems: [`${path}: expected a JSON array of objects`] };
  const records = data.map((item, index): RawRecord => {
    const where = `${path}: [${index}]`;
    return isObject(item) ? { where, fields: item } : { where, fields: {}, problem: 'not an object' };
  });
  return { records, problems: [] };
}

function readGeoJson(path: string, data: unknown): InputFile {
  if (!isObject(data) || data.type !== 'FeatureCollection' || !Array.isArray(data.features)) {
    return { records: [], problems: [`${path}: expected a GeoJSON FeatureCollection`] };
  }
  const records = data.features.map((feature: unknown, index): RawRecord => {
    const where = `${path}: /features/${index}`;
    if (!isObject(feature) || feature.type !== 'Feature')
      return { where, fields: {}, problem: 'not a Feature' };
    const fields: Record<string, unknown> = isObject(feature.properties) ? { ...feature.properties } : {};
    // Feature.id is taken when it is a UUID; other ids (often 1, 2, 3…) are not
    // location ids, so such a feature gets a generated one instead
    if (fields.id === undefined && typeof feature.id === 'string' && normaliseId(feature.id)) {
      fields.id = feature.id;
    }
    const geometry = feature.geometry;
    if (!isObject(geometry) || geometry.type !== 'Point') {
      return { where, fields, problem: 'geometry is not a Point' };
    }
    const [longitude, latitude] = Array.isArray(geometry.coordinates) ? geometry.coordinates : [];
    if (typeof longitude !== 'number' || typeof latitude !== 'number') {
      return { where, fields, problem: 'Point coordinates are not [longitude, latitude] numbers' };
    }
    return { where, fields, point: { latitude, longitude } };
  });
  return { records, problems: [] };
}

/**
 * Parses RFC 4180 CSV with a header row: quoted fields may hold the delimiter,
 * doubled quotes and line breaks. The delimiter is the first of `,` `;` tab
 * found in the header line. Line numbers are 1-based; the header is line 1.
 */
function readCsv(path: string, text: string): InputFile {
  const headerEnd = text.search(/\r?\n/);
  const headerLine = headerEnd < 0 ? text : text.slice(0, headerEnd);
  const delimiter = [',', ';', '\t'].find((d) => headerLine.includes(d)) ?? ',';
  const rows = parseCsvRows(text, delimiter);
  const problems: string[] = [];
  const header = rows.shift();
  if (!header || header.error) {
    return { records: [], problems: [`${path}:1: ${header?.error ?? 'missing header row'}`] };
  }
  const records: RawRecord[] = [];
  for (const row of rows) {
    const where = `${path}:${row.line}`;
    if (row.error) {
      records.push({ where, fields: {}, problem: row.error });
    } else if (row.cells.length !== header.cells.length) {
      const problem = `expected ${header.cells.length} fields (as in the header), found ${row.cells.length}`;
      records.push({ where, fields: {}, problem });
    } else {
      const fields: Record<string, unknown> = {};
      for (let i = 0; i < header.cells.length; i++) fields[header.cells[i]!] = row.cells[i];
      records.push({ where, fields });
    }
  }
  return { records, problems };
}

interface CsvRow {
  line: number;
  cells: string[];
  error?: string;
}

function parseCsvRows(text: string, delimiter: string): CsvRow[] {
  const rows: CsvRow[] = [];
  let line = 1;
  let i = 0;
  // Cells are taken with slice() rather than built a character at a time: a
  // string grown with += is a rope that costs time and memory on every later use.
  const endOfCell = (from: number) => {
    let j = from;
    while (j < text.length) {
      const c = text.charCodeAt(j);
      if (c === 10 || c === 13 || text[j] === delimiter) break;
      j++;
    }
    return j;
  };
  while (i < text.length) {
    const row: CsvRow = { line, cells: [] };
    for (;;) {
      let cell: string;
      if (text[i] === '"') {
        // a quoted cell: runs to the closing quote, "" is one quote
        const parts: string[] = [];
        let from = i + 1;
        for (;;) {
          const quote = text.indexOf('"', from);
          if (quote < 0) {
            row.error = 'unterminated quoted field';
            parts.push(text.slice(from));
            i = text.length;
            break;
          }
          parts.push(text.slice(from, quote));
          if (text[quote + 1] === '"') {
            parts.push('"');
            from = quote + 2;
          } else {
            i = quote + 1;
            break;
          }
        }
        cell = parts.join('');
        for (const c of cell) if (c === '\n') line++;
        const rest = endOfCell(i); // text after the closing quote is kept, leniently
        cell += text.slice(i, rest);
        i = rest;
      } else {
        const end = endOfCell(i);
        cell = text.slice(i, end);
        i = end;
      }
      row.cells.push(cell);
      if (text[i] === delimiter) {
        i++;
        continue;
      }
      if (text[i] === '\r') i++;
      if (text[i] === '\n') i++;
      line++;
      break;
    }
    const blank = row.cells.length === 1 && row.cells[0] === '' && !row.error;
    if (!blank) rows.push(row);
  }
  return rows;
}
