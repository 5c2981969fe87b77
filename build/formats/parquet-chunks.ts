// Parquet column chunks for geoparquet.ts: a column's values PLAIN-encoded
// as they are added, with definition levels (RLE) for optional columns and
// min/max statistics, written as one data page compressed with gzip (level
// 1: docs/benchmarks.md) on zlib's threads, and described in the footer's
// ColumnMetaData. Parquet's enums are parquet.thrift's.
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { BufferedFile } from './buffered-file.ts';
import type { Field } from './fields.ts';
import { ThriftWriter } from './thrift.ts';

const gzipAsync = promisify(gzip);

export const TYPE = { BOOLEAN: 0, INT64: 2, DOUBLE: 5, BYTE_ARRAY: 6 } as const;
export const REQUIRED = 0;
export const OPTIONAL = 1;
export const UTF8 = 0; // ConvertedType
const PLAIN = 0;
const RLE = 3;
const UNCOMPRESSED = 0;
const GZIP = 2;
/** Text statistics longer than this are left out (a footer holds two per row group and column). */
const MAX_STAT_BYTES = 256;

/** A growing byte buffer. */
export class Bytes {
  buffer = Buffer.allocUnsafe(1 << 12);
  length = 0;

  room(n: number): void {
    if (this.length + n <= this.buffer.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + n));
    this.buffer.copy(bigger, 0, 0, this.length);
    this.buffer = bigger;
  }

  push(bytes: Uint8Array): void {
    this.room(bytes.length);
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
  }

  /** Appends bytes [start, end) of `from`, without a view of them (one allocation fewer per value). */
  pushRange(from: Buffer, start: number, end: number): void {
    this.room(end - start);
    this.length += from.copy(this.buffer, this.length, start, end);
  }

  pushDouble(value: number): void {
    this.room(8);
    this.length = this.buffer.writeDoubleLE(value, this.length);
  }

  contents(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

/** One leaf column being filled for a row group: its values (PLAIN), definition levels and statistics. */
export interface Leaf {
  path: string[]; // e.g. ["bbox", "xmin"]
  type: number;
  optional: boolean;
  values: Bytes;
  defs: Uint8Array; // 1 present, 0 null (optional columns)
  rows: number;
  nulls: number;
  min?: Buffer; // PLAIN bytes of the least value (text: the bytes themselves)
  max?: Buffer;
  minNumber: number;
  maxNumber: number;
  booleans: number; // bits so far (boolean columns)
}

export function leaf(path: string[], type: number, optional: boolean, rows: number): Leaf {
  return {
    path,
    type,
    optional,
    values: new Bytes(),
    defs: new Uint8Array(optional ? rows : 0),
    rows: 0,
    nulls: 0,
    minNumber: Infinity,
    maxNumber: -Infinity,
    booleans: 0,
  };
}

/** Returns -1, 0 or 1 as bytes [start, end) of `record` sort before, with or after `other`, byte by byte. */
function compareRange(record: Buffer, start: number, end: number, other: Buffer): number {
  if (record[start] !== other[0] && start < end && other.length > 0) return record[start] < other[0] ? -1 : 1;
  return record.compare(other, 0, other.length, start, end);
}

/** Adds one value's PLAIN bytes (from a record at `at`) to a property column; returns where the record goes on. */
export function addValue(column: Leaf, field: Field, record: Buffer, at: number): number {
  const row = column.rows++;
  if (record[at++] === 0) {
    column.nulls++;
    return at;
  }
  column.defs[row] = 1;
  if (field.type === 'boolean') {
    const bit = column.booleans++;
    if (bit % 8 === 0) column.values.push(ZERO);
    if (record[at]) column.values.buffer[column.values.length - 1] |= 1 << (bit % 8);
    column.minNumber = Math.min(column.minNumber, record[at]);
    column.maxNumber = Math.max(column.maxNumber, record[at]);
    return at + 1;
  }
  if (field.type === 'text') {
    const end = at + 4 + record.readUInt32LE(at);
    column.values.pushRange(record, at, end);
    if (end - at - 4 <= MAX_STAT_BYTES) {
      if (!column.min || compareRange(record, at + 4, end, column.min) < 0)
        column.min = Buffer.from(record.subarray(at + 4, end));
      if (!column.max || compareRange(record, at + 4, end, column.max) > 0)
        column.max = Buffer.from(record.subarray(at + 4, end));
    } else column.minNumber = NaN; // no text statistics for this chunk
    return end;
  }
  const value =
    field.type === 'integer'
      ? record.readInt32LE(at + 4) * 2 ** 32 + record.readUInt32LE(at)
      : record.readDoubleLE(at);
  column.values.pushRange(record, at, at + 8);
  if (value < column.minNumber) column.minNumber = value;
  if (value > column.maxNumber) column.maxNumber = value;
  return at + 8;
}

const ZERO = Buffer.from([0]);

/** Returns a column's statistics as Parquet holds them (PLAIN bytes of min and max), or undefined. */
function statistics(column: Leaf): { min: Buffer; max: Buffer } | undefined {
  if (column.rows === column.nulls) return undefined;
  if (column.type === TYPE.BYTE_ARRAY) {
    return column.min && column.max && !Number.isNaN(column.minNumber)
      ? { min: column.min, max: column.max }
      : undefined;
  }
  const bytes = (n: number) => {
    if (column.type === TYPE.BOOLEAN) return Buffer.from([n]);
    const b = Buffer.allocUnsafe(8);
    if (column.type === TYPE.INT64) b.writeBigInt64LE(BigInt(n));
    else b.writeDoubleLE(n);
    return b;
  };
  // Parquet's rule for zeros: a min of ±0 is written -0, a max of ±0 is written +0.
  const min = column.minNumber === 0 && column.type === TYPE.DOUBLE ? -0 : column.minNumber;
  const max = column.maxNumber === 0 ? 0 : column.maxNumber;
  return { min: bytes(min), max: bytes(max) };
}

/** Returns definition levels (bit width 1) in the RLE/bit-packed hybrid, with its u32 length first. */
function definitionLevels(defs: Uint8Array): Buffer {
  const out = new Bytes();
  out.push(Buffer.alloc(4));
  for (let i = 0; i < defs.length;) {
    let j = i + 1;
    while (j < defs.length && defs[j] === defs[i]) j++;
    let n = (j - i) * 2; // run header: count << 1, as a varint
    const header: number[] = [];
    while (n >= 0x80) {
      header.push((n & 0x7f) | 0x80);
      n >>>= 7;
    }
    header.push(n, defs[i]);
    out.push(Buffer.from(header));
    i = j;
  }
  const bytes = out.contents();
  bytes.writeUInt32LE(bytes.length - 4, 0);
  return bytes;
}

/** A column chunk as written: what the footer says of it. */
export interface Chunk {
  leaf: Leaf;
  offset: number; // of its page header
  uncompressed: number; // page header and page, as Parquet counts them
  compressed: number;
  codec: number; // GZIP, or UNCOMPRESSED for a small page (each chunk names its own)
}

/**
 * Compresses a column's page (definition levels, then values) and returns
 * its header and body. A page under GZIP_FROM_BYTES, or one gzip does not
 * shrink, is stored as it is: a deflate stream's own state (some 300 KB) costs
 * more than the bytes it would save, and most columns of a small level are
 * a few hundred bytes.
 */
async function page(column: Leaf): Promise<{ header: Buffer; body: Buffer; raw: number; codec: number }> {
  const values = column.values.contents();
  const raw = column.optional
    ? Buffer.concat([definitionLevels(column.defs.subarray(0, column.rows)), values])
    : values;
  const packed = raw.length >= GZIP_FROM_BYTES ? await gzipAsync(raw, { level: GZIP_LEVEL }) : raw;
  const codec = packed.length < raw.length ? GZIP : UNCOMPRESSED;
  const body = codec === GZIP ? packed : raw;
  const header = ThriftWriter.message((w) =>
    w
      .i32(1, 0) // DATA_PAGE
      .i32(2, raw.length)
      .i32(3, body.length)
      .struct(5, (d) => d.i32(1, column.rows).i32(2, PLAIN).i32(3, RLE).i32(4, RLE)),
  );
  return { header, body, raw: raw.length, codec };
}

/** The gzip level of every page: higher levels cost more time for little on WKB doubles (docs/benchmarks.md). */
const GZIP_LEVEL = 1;
/** Pages smaller than this are stored uncompressed (see page). */
const GZIP_FROM_BYTES = 4096;

/** Writes one row group's column chunks (compressed at once on zlib's threads) and returns them. */
export async function writeRowGroup(out: BufferedFile, leaves: Leaf[]): Promise<Chunk[]> {
  const pages = await Promise.all(leaves.map(page));
  const chunks: Chunk[] = [];
  for (const [i, { header, body, raw, codec }] of pages.entries()) {
    chunks.push({
      leaf: leaves[i],
      offset: out.position,
      uncompressed: header.length + raw,
      compressed: header.length + body.length,
      codec,
    });
    await out.write(header);
    await out.write(body);
  }
  return chunks;
}

export const sum = (chunks: Chunk[], key: 'uncompressed' | 'compressed') =>
  chunks.reduce((n, c) => n + c[key], 0);

/** Writes a column chunk's ColumnMetaData. */
export function columnMeta(m: ThriftWriter, { leaf, offset, uncompressed, compressed, codec }: Chunk): void {
  m.i32(1, leaf.type)
    .i32s(2, leaf.optional ? [PLAIN, RLE] : [PLAIN])
    .strings(3, leaf.path)
    .i32(4, codec)
    .i64(5, leaf.rows)
    .i64(6, uncompressed)
    .i64(7, compressed)
    .i64(9, offset);
  const stats = statistics(leaf);
  m.struct(12, (s) => {
    s.i64(3, leaf.nulls);
    if (stats) s.binary(5, stats.max).binary(6, stats.min);
  });
}
