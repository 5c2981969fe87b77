// A streaming RFC 4180 CSV reader: bytes in, rows out, one chunk at a time, so
// memory does not grow with the file. Bytes that are not UTF-8 mark their
// line; a row touching such a line is reported, never silently rewritten.
// Hand-written rather than csv-parse: it streams with each row's line number and
// marks non-UTF-8 lines, and reads 50 MB of real stations in 0.12–0.21× csv-parse's
// time (bench:libraries, 2026-11-27, load 12–16).
import { isUtf8 } from 'node:buffer';
import type { Readable } from 'node:stream';

/** A record may not span more than this: beyond it, an unclosed quote is the likely cause. */
const MAX_RECORD_CHARS = 1024 * 1024;

/** The rest of the file cannot be read as CSV, from `line` on. */
export class CsvError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

export interface CsvRow {
  line: number; // 1-based line where the row starts; the header is line 1
  cells: string[];
  error?: string; // e.g. "unterminated quoted field", "not valid UTF-8"
}

/**
 * Parses rows as text arrives. Quoted cells may hold the delimiter, doubled
 * quotes and line breaks; text after a closing quote is kept, leniently. The
 * delimiter is the first of `,` `;` tab found in the header line.
 */
export class CsvParser {
  private text = '';
  private line = 1; // line at the start of `text`
  delimiter: string | undefined;

  /** The line where the next row starts: every line before it is in a row returned already. */
  get nextLine(): number {
    return this.line;
  }

  /** Returns the rows complete in what was pushed so far (all of them when `final`). */
  push(chunk: string, final: boolean): CsvRow[] {
    this.text = this.text === '' ? chunk : this.text + chunk;
    this.delimiter ??= delimiterOf(this.text, final);
    if (this.delimiter === undefined) return [];
    const rows: CsvRow[] = [];
    const text = this.text;
    const delimiter = this.delimiter;
    let i = 0;
    let line = this.line;
    const endOfCell = (from: number) => {
      let j = from;
      while (j < text.length) {
        const c = text.charCodeAt(j);
        if (c === 10 || c === 13 || text[j] === delimiter) break;
        j++;
      }
      return j;
    };
    rows: while (i < text.length) {
      const rowStart = i;
      const row: CsvRow = { line, cells: [] };
      let rowLine = line;
      for (;;) {
        let cell: string;
        if (text[i] === '"') {
          const quoted = quotedCell(text, i, final);
          if (!quoted) {
            i = rowStart; // the closing quote (or what follows it) is in a later chunk
            break rows;
          }
          if (quoted.unterminated) row.error = 'unterminated quoted field';
          cell = quoted.cell;
          i = quoted.end;
          for (let k = cell.indexOf('\n'); k >= 0; k = cell.indexOf('\n', k + 1)) rowLine++;
          const rest = endOfCell(i);
          cell += text.slice(i, rest);
          i = rest;
        } else {
          const end = endOfCell(i);
          cell = text.slice(i, end);
          i = end;
        }
        if (i >= text.length && !final) {
          i = rowStart; // the row may go on in the next chunk
          break rows;
        }
        row.cells.push(cell);
        if (text[i] === delimiter) {
          i++;
          continue;
        }
        if (text[i] === '\r') {
          if (i + 1 >= text.length && !final) {
            i = rowStart;
            break rows;
          }
          i++;
        }
        if (text[i] === '\n') i++;
        line = rowLine + 1;
        break;
      }
      const blank = row.cells.length === 1 && row.cells[0] === '' && !row.error;
      if (!blank) rows.push(row);
    }
    this.text = text.slice(i);
    this.line = line;
    if (this.text.length > MAX_RECORD_CHARS) {
      throw new CsvError(
        line,
        'a record longer than 1 MiB (an unclosed quote?); the rest of the file was not read',
      );
    }
    return rows;
  }
}

/** Returns the first of `,` `;` tab in the header line (`,` when none), or undefined while that line is incomplete. */
function delimiterOf(text: string, final: boolean): string | undefined {
  const end = text.search(/\r?\n/);
  if (end < 0 && !final) return undefined;
  const header = end < 0 ? text : text.slice(0, end);
  return [',', ';', '\t'].find((d) => header.includes(d)) ?? ',';
}

/**
 * Reads the quoted cell whose opening quote is at `start`: it runs to the closing
 * quote, and "" is one quote. Returns its text and the index after the closing
 * quote, or undefined when the closing quote (or what follows it) may be in a
 * later chunk. In the `final` chunk an unclosed cell runs to the end.
 */
function quotedCell(
  text: string,
  start: number,
  final: boolean,
): { cell: string; end: number; unterminated?: true } | undefined {
  const parts: string[] = [];
  let from = start + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0 || (quote === text.length - 1 && !final)) {
      if (!final) return undefined;
      parts.push(text.slice(from));
      return { cell: parts.join(''), end: text.length, unterminated: true };
    }
    parts.push(text.slice(from, quote));
    if (text[quote + 1] !== '"') return { cell: parts.join(''), end: quote + 1 };
    parts.push('"');
    from = quote + 2;
  }
}

/**
 * Reads `stream` as CSV rows in batches (one per chunk), each row that touches
 * a line holding bytes that are not UTF-8 marked with an error. A leading BOM is skipped.
 */
export async function* csvRows(stream: Readable): AsyncGenerator<CsvRow[]> {
  const parser = new CsvParser();
  let carry: Buffer = Buffer.alloc(0);
  let byteLine = 1; // line number at the start of `carry`
  const badLines = new Set<number>();
  let first = true;
  const decode = (bytes: Buffer): string => {
    if (!isUtf8(bytes)) {
      let line = byteLine;
      for (let from = 0; from < bytes.length; line++) {
        const nl = bytes.indexOf(10, from);
        const end = nl < 0 ? bytes.length : nl + 1;
        if (!isUtf8(bytes.subarray(from, end))) badLines.add(line);
        from = end;
      }
    }
    for (let k = bytes.indexOf(10); k >= 0; k = bytes.indexOf(10, k + 1)) byteLine++;
    let text = bytes.toString('utf8');
    if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    first = false;
    return text;
  };
  const mark = (rows: CsvRow[]) => {
    if (badLines.size === 0) return rows;
    rows.forEach((row, index) => {
      const end = index + 1 < rows.length ? rows[index + 1]!.line : parser.nextLine;
      for (let l = row.line; l < end; l++) {
        if (badLines.has(l)) {
          row.error = 'not valid UTF-8 (the file must be UTF-8 encoded)';
          break;
        }
      }
    });
    for (const l of badLines) if (l < parser.nextLine) badLines.delete(l);
    return rows;
  };
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const bytes = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
    const cut = bytes.lastIndexOf(10);
    if (cut < 0) {
      carry = bytes; // no complete line yet: a multi-byte character may be split
      continue;
    }
    carry = bytes.subarray(cut + 1);
    const rows = parser.push(decode(bytes.subarray(0, cut + 1)), false);
    if (rows.length > 0) yield mark(rows);
  }
  const rows = parser.push(decode(carry), true);
  if (rows.length > 0) yield mark(rows);
}
