// Writes a level as GeoParquet 1.1: one column per property (unit_id first,
// when given), the geometry as WKB (each feature's own type, Polygon or
// MultiPolygon, with z when the level has any), and a `bbox` struct of four
// doubles declared as the geometry's covering, so DuckDB, GDAL and GeoPandas
// can skip row groups by their statistics. Rows follow the Hilbert curve of
// their bbox centres (the FlatGeobuf's order), so nearby units share row
// groups. Our own writer, chosen by measurement (docs/benchmarks.md): a few
// hundred lines of Parquet, PLAIN-encoded pages compressed with gzip on
// zlib's threads. Streaming as the FlatGeobuf: features are encoded in
// source order into a body (memory or a temporary file), then read back in
// Hilbert order one row group at a time.
import { RecordBody } from './record-body.ts';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { tempPathBeside } from '../core/atomic-write.ts';
import { BufferedFile, IN_MEMORY_BELOW_BYTES } from './buffered-file.ts';
import { fieldValue, uniqueNames, type Field } from './fields.ts';
import { shapeOf, wkbSize, writeWkb, type Layout } from './geometry.ts';
import { hilbertOrder } from './hilbert.ts';
import { projjson } from './projjson.ts';
import { layoutOf, type FeatureSink, type SourceScan } from './source-scan.ts';
import { ThriftWriter } from './thrift.ts';
import {
  addValue,
  columnMeta,
  leaf,
  OPTIONAL,
  REQUIRED,
  sum,
  TYPE,
  UTF8,
  writeRowGroup,
  Bytes,
  type Chunk,
} from './parquet-chunks.ts';

const MAGIC = Buffer.from('PAR1');
/** A row group ends at this many rows or once its records reach ROW_GROUP_BYTES, whichever comes first. */
const ROW_GROUP_ROWS = 65_536;
const ROW_GROUP_BYTES = 32 << 20;
const CREATED_BY = 'geoshelf';

const FIELD_TYPE: Record<Field['type'], number> = {
  integer: TYPE.INT64,
  real: TYPE.DOUBLE,
  boolean: TYPE.BOOLEAN,
  text: TYPE.BYTE_ARRAY,
};

const BBOX = ['xmin', 'ymin', 'xmax', 'ymax'] as const;

/** Returns a feature's record: WKB (u32 length, bytes), then per field a presence byte and its PLAIN value. */
function recordOf(
  fields: Field[],
  layout: Layout,
  scratch: Bytes,
  feature: Parameters<FeatureSink['add']>[0],
) {
  scratch.length = 0;
  const shape = shapeOf(feature);
  const size = wkbSize(shape, layout);
  scratch.room(4 + size);
  scratch.buffer.writeUInt32LE(size, 0);
  scratch.length = writeWkb(shape, layout, scratch.buffer, 4);
  for (const field of fields) {
    const v = fieldValue(field, feature.properties);
    scratch.room(9);
    const b = scratch.buffer;
    if (v === null) {
      b[scratch.length++] = 0;
      continue;
    }
    b[scratch.length++] = 1;
    if (field.type === 'integer') writeInt64(b, v as number, scratch.length);
    else if (field.type === 'real') b.writeDoubleLE(v as number, scratch.length);
    else if (field.type === 'boolean') b[scratch.length] = v ? 1 : 0;
    if (field.type === 'text') {
      const text = v as string;
      scratch.room(4 + text.length * 3); // UTF-8 takes at most 3 bytes per UTF-16 unit
      const n = scratch.buffer.write(text, scratch.length + 4, 'utf8');
      scratch.buffer.writeUInt32LE(n, scratch.length);
      scratch.length += 4 + n;
    } else scratch.length += field.type === 'boolean' ? 1 : 8;
  }
  return scratch.contents();
}

/** Writes a safe integer as a little-endian two's-complement int64 (no BigInt: one allocation fewer per value). */
function writeInt64(b: Buffer, n: number, at: number): void {
  const high = Math.floor(n / 2 ** 32);
  b.writeUInt32LE(n - high * 2 ** 32, at);
  b.writeInt32LE(high, at + 4);
}

/** Returns the file's footer (FileMetaData): schema, row groups with statistics, and the `geo` metadata. */
function footer(names: string[], fields: Field[], rows: number, groups: Chunk[][], geo: string): Buffer {
  return ThriftWriter.message(
    (w) =>
      w
        .i32(1, 1)
        .structs(2, [undefined, ...fields.keys(), 'geometry', 'bbox', ...BBOX] as const, (s, e) => {
          if (e === undefined) s.binary(4, 'schema').i32(5, fields.length + 2);
          else if (typeof e === 'number') {
            s.i32(1, FIELD_TYPE[fields[e].type]).i32(3, OPTIONAL).binary(4, names[e]);
            if (fields[e].type === 'text') s.i32(6, UTF8).struct(10, (l) => l.struct(1, () => {}));
          } else if (e === 'geometry') s.i32(1, TYPE.BYTE_ARRAY).i32(3, REQUIRED).binary(4, e);
          else if (e === 'bbox') s.i32(3, REQUIRED).binary(4, e).i32(5, BBOX.length);
          else s.i32(1, TYPE.DOUBLE).i32(3, REQUIRED).binary(4, e);
        })
        .i64(3, rows)
        .structs(4, groups, (g, chunks) =>
          g
            .structs(1, chunks, (c, chunk) => c.i64(2, chunk.offset).struct(3, (m) => columnMeta(m, chunk)))
            .i64(2, sum(chunks, 'uncompressed'))
            .i64(3, chunks[0].leaf.rows)
            .i64(5, chunks[0].offset)
            .i64(6, sum(chunks, 'compressed')),
        )
        .structs(5, [['geo', geo]], (kv, [key, value]) => kv.binary(1, key).binary(2, value))
        .binary(6, CREATED_BY)
        .structs(7, groups[0], (o) => o.struct(1, () => {})), // TYPE_ORDER: min_value/max_value hold
  );
}

/** Returns the `geo` metadata of the file (GeoParquet 1.1), e.g. {"version": "1.1.0", "primary_column": "geometry", …}. */
function geoMetadata(info: SourceScan, layout: Layout, crs: { authority: string; code: string }): string {
  const z = layout.z ? ' Z' : '';
  const types = [
    ...(info.polygons > 0 ? [`Polygon${z}`] : []),
    ...(info.multiPolygons > 0 ? [`MultiPolygon${z}`] : []),
  ];
  const covering = Object.fromEntries(BBOX.map((name) => [name, ['bbox', name]]));
  return JSON.stringify({
    version: '1.1.0',
    primary_column: 'geometry',
    columns: {
      geometry: {
        encoding: 'WKB',
        geometry_types: types,
        bbox: info.bbox,
        crs: projjson(crs),
        covering: { bbox: covering },
      },
    },
  });
}

/**
 * Opens a GeoParquet file being written beside `out` from the scanned
 * level `info`, declaring `crs` (the manifest's) as PROJJSON. add() encodes
 * the features in source order; finish() writes the row groups in Hilbert
 * order and the footer, and renames the file into place.
 */
export async function openGeoParquet(
  out: string,
  info: SourceScan,
  crs: { authority: string; code: string },
  { inMemoryBelow = IN_MEMORY_BELOW_BYTES, rowGroupRows = ROW_GROUP_ROWS } = {}, // for tests
): Promise<FeatureSink<void>> {
  const bodyPath = tempPathBeside(out);
  const temp = tempPathBeside(out);
  const small = info.count === 0 || info.ends[info.count - 1] < inMemoryBelow;
  const body = await RecordBody.open(bodyPath, info.count, small);
  // Each feature's own type (GeoParquet lists them), not the layer's single type of the other formats.
  const layout: Layout = { multi: false, z: layoutOf(info).z };
  const scratch = new Bytes();
  const names = uniqueNames(
    info.fields.map((f) => f.name),
    { reserved: ['geometry', 'bbox'] },
  );
  let output: FileHandle | undefined;
  const abort = async () => {
    await body.close();
    await output?.close().catch(() => {});
    await rm(temp, { force: true });
  };
  return {
    async add(feature, index) {
      await body.add(index, recordOf(info.fields, layout, scratch, feature));
    },
    async finish() {
      try {
        await body.finish();
        const record = (k: number) => body.record(k);
        output = await open(temp, 'w');
        const writer = new BufferedFile(output, 0);
        await writer.write(MAGIC);
        const order = hilbertOrder(info.boxes, info.bbox);
        const groups = await writeRowGroups(writer, info, names, order, record, rowGroupRows);
        const meta = footer(names, info.fields, info.count, groups, geoMetadata(info, layout, crs));
        const length = Buffer.allocUnsafe(4);
        length.writeUInt32LE(meta.length);
        await writer.write(meta);
        await writer.write(length);
        await writer.write(MAGIC);
        await writer.flush();
        await output.close();
        output = undefined;
        await body.close();
        await rename(temp, out);
      } catch (error) {
        await abort();
        throw error;
      }
    },
    abort,
  };
}

/** Writes the rows in `order`, a row group at a time, each record read by `record`; returns the chunks of each group. */
async function writeRowGroups(
  writer: BufferedFile,
  info: SourceScan,
  names: string[],
  order: Uint32Array,
  record: (k: number) => Buffer | Promise<Buffer>,
  rowGroupRows: number,
): Promise<Chunk[][]> {
  const groups: Chunk[][] = [];
  const { fields, boxes } = info;
  for (let i = 0; i < order.length;) {
    const rows = Math.min(rowGroupRows, order.length - i);
    const columns = fields.map((f, j) => leaf([names[j]], FIELD_TYPE[f.type], true, rows));
    const geometry = leaf(['geometry'], TYPE.BYTE_ARRAY, false, 0);
    const box = BBOX.map((name) => leaf(['bbox', name], TYPE.DOUBLE, false, 0));
    let bytes = 0;
    for (const end = i + rows; i < end && bytes < ROW_GROUP_BYTES; i++) {
      const k = order[i];
      let r = record(k);
      if (r instanceof Promise) r = await r; // a body on disk; in memory, no wait per row
      bytes += r.length;
      let next = 4 + r.readUInt32LE(0);
      geometry.values.pushRange(r, 0, next);
      geometry.rows++;
      for (let c = 0; c < 4; c++) {
        const column = box[c];
        const value = boxes[k * 4 + c];
        column.values.pushDouble(value);
        column.rows++;
        if (value < column.minNumber) column.minNumber = value;
        if (value > column.maxNumber) column.maxNumber = value;
      }
      for (let j = 0; j < fields.length; j++) next = addValue(columns[j], fields[j], r, next);
    }
    groups.push(await writeRowGroup(writer, [...columns, geometry, ...box]));
  }
  return groups;
}
