// Writes a level as FlatGeobuf (v3) with its packed Hilbert R-tree, so
// clients can fetch a bbox by HTTP range requests. The flatgeobuf package's
// own writer keeps everything in memory, writes no index and types columns
// from the first feature only; we use its FlatBuffers schema classes and
// write the file layout ourselves, as GDAL does: magic, header, index, then
// the features in Hilbert order of their bbox centres. One geometry type for
// the layer, as in the GeoPackage (MultiPolygon for a level holding any),
// and z when the level has any. Streaming: features are encoded in source
// order to a temporary file, then copied in order.
import { RecordBody } from './record-body.ts';
import * as flatbuffers from 'flatbuffers';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { ColumnType } from 'flatgeobuf/lib/mjs/flat-geobuf/column-type.js';
import { Column } from 'flatgeobuf/lib/mjs/flat-geobuf/column.js';
import { Crs } from 'flatgeobuf/lib/mjs/flat-geobuf/crs.js';
import { Feature } from 'flatgeobuf/lib/mjs/flat-geobuf/feature.js';
import { Geometry } from 'flatgeobuf/lib/mjs/flat-geobuf/geometry.js';
import { GeometryType } from 'flatgeobuf/lib/mjs/flat-geobuf/geometry-type.js';
import { Header } from 'flatgeobuf/lib/mjs/flat-geobuf/header.js';
import { calcTreeSize, generateLevelBounds, NODE_ITEM_BYTE_LEN } from 'flatgeobuf/lib/mjs/packedrtree.js';
import { tempPathBeside } from '../core/atomic-write.ts';
import type { CrsDefinition } from '../core/shared/crs.ts';
import { BufferedFile, IN_MEMORY_BELOW_BYTES } from './buffered-file.ts';
import { fieldValue, type Field } from './fields.ts';
import type { GeoFeature } from '../geojson/level-features.ts';
import { shapeOf, zOf, type Layout, type Polygon, type Shape } from './geometry.ts';
import { hilbertOrder } from './hilbert.ts';
import { layoutOf, pump, scanSource, type FeatureSink, type SourceScan } from './source-scan.ts';

const MAGIC = Buffer.from([0x66, 0x67, 0x62, 0x03, 0x66, 0x67, 0x62, 0x00]); // "fgb" 3 "fgb" 0
const FGB_NODE_SIZE = 16;

const COLUMN_TYPE: Record<Field['type'], ColumnType> = {
  integer: ColumnType.Long,
  real: ColumnType.Double,
  boolean: ColumnType.Bool,
  text: ColumnType.String,
};

/** Returns the size-prefixed header of the file, its crs table as GDAL writes `crs`'s. */
function headerBytes(layer: string, info: SourceScan, crs: CrsDefinition): Uint8Array {
  const b = new flatbuffers.Builder(1024);
  const columns = info.fields.map((f) => {
    const name = b.createString(f.name);
    Column.startColumn(b);
    Column.addName(b, name);
    Column.addType(b, COLUMN_TYPE[f.type]);
    Column.addNullable(b, true);
    return Column.endColumn(b);
  });
  const columnsVector = Header.createColumnsVector(b, columns);
  const name = b.createString(layer);
  const org = crs.fgb.org === undefined ? 0 : b.createString(crs.fgb.org);
  const crsName = b.createString(crs.fgb.name);
  const wkt = b.createString(crs.fgb.wkt);
  Crs.startCrs(b);
  if (org) Crs.addOrg(b, org);
  Crs.addCode(b, crs.fgb.code);
  Crs.addName(b, crsName);
  Crs.addWkt(b, wkt);
  const crsTable = Crs.endCrs(b);
  const envelope = Header.createEnvelopeVector(b, info.bbox);
  const layout = layoutOf(info);
  Header.startHeader(b);
  Header.addName(b, name);
  Header.addEnvelope(b, envelope);
  Header.addGeometryType(b, layout.multi ? GeometryType.MultiPolygon : GeometryType.Polygon);
  Header.addHasZ(b, layout.z);
  Header.addColumns(b, columnsVector);
  Header.addFeaturesCount(b, BigInt(info.count));
  Header.addIndexNodeSize(b, FGB_NODE_SIZE);
  Header.addCrs(b, crsTable);
  b.finishSizePrefixed(Header.endHeader(b));
  return b.asUint8Array();
}

/** Reused between polygons (the builder copies them): xy, then z. */
let coordinates = new Float64Array(1 << 13);

/** Returns the FlatBuffers geometry of one polygon (xy flat, z with `z`, ring ends when more than one ring). */
function polygonGeometry(b: flatbuffers.Builder, polygon: Polygon, z: boolean): flatbuffers.Offset {
  let n = 0;
  for (const ring of polygon) n += ring.length;
  if (n * 3 > coordinates.length) coordinates = new Float64Array(Math.max(n * 3, coordinates.length * 2));
  const xy = coordinates.subarray(0, n * 2);
  const zs = z ? coordinates.subarray(n * 2, n * 3) : undefined;
  const ends: number[] = [];
  let i = 0;
  for (const ring of polygon) {
    for (const p of ring) {
      if (zs) zs[i / 2] = zOf(p);
      xy[i++] = p[0];
      xy[i++] = p[1];
    }
    ends.push(i / 2);
  }
  const xyOffset = Geometry.createXyVector(b, xy);
  const zOffset = zs ? Geometry.createZVector(b, zs) : 0;
  const endsOffset = ends.length > 1 ? Geometry.createEndsVector(b, ends) : 0;
  Geometry.startGeometry(b);
  if (endsOffset) Geometry.addEnds(b, endsOffset);
  Geometry.addXy(b, xyOffset);
  if (zOffset) Geometry.addZ(b, zOffset);
  Geometry.addType(b, GeometryType.Polygon);
  return Geometry.endGeometry(b);
}

function shapeGeometry(b: flatbuffers.Builder, shape: Shape, layout: Layout): flatbuffers.Offset {
  if (!shape.multi && !layout.multi) return polygonGeometry(b, shape.polygons[0], layout.z);
  const parts = shape.polygons.map((p) => polygonGeometry(b, p, layout.z));
  const partsOffset = Geometry.createPartsVector(b, parts);
  Geometry.startGeometry(b);
  Geometry.addType(b, GeometryType.MultiPolygon);
  Geometry.addParts(b, partsOffset);
  return Geometry.endGeometry(b);
}

/** Returns the property bytes of one feature: (column index u16, value) for each non-null value. */
function propertyBytes(fields: Field[], properties: Record<string, unknown> | null): Buffer {
  const pieces: Buffer[] = [];
  fields.forEach((field, i) => {
    const v = fieldValue(field, properties);
    if (v === null) return;
    let piece: Buffer;
    if (field.type === 'integer') {
      piece = Buffer.allocUnsafe(10);
      piece.writeBigInt64LE(BigInt(v as number), 2);
    } else if (field.type === 'real') {
      piece = Buffer.allocUnsafe(10);
      piece.writeDoubleLE(v as number, 2);
    } else if (field.type === 'boolean') {
      piece = Buffer.allocUnsafe(3);
      piece.writeUInt8(v ? 1 : 0, 2);
    } else {
      const text = Buffer.from(v as string, 'utf8');
      piece = Buffer.allocUnsafe(6 + text.length);
      piece.writeUInt32LE(text.length, 2);
      text.copy(piece, 6);
    }
    piece.writeUInt16LE(i, 0);
    pieces.push(piece);
  });
  return Buffer.concat(pieces);
}

/** Returns the packed R-tree (root first) over the features' boxes in written order. */
function packedTree(boxes: Float64Array, order: Uint32Array, offsets: Float64Array): Buffer {
  const count = order.length;
  const levels = generateLevelBounds(count, FGB_NODE_SIZE);
  const total = calcTreeSize(count, FGB_NODE_SIZE) / NODE_ITEM_BYTE_LEN;
  const nodes = new Float64Array(total * 4);
  const refs = new Float64Array(total); // a leaf's feature offset, a branch's first child
  const leaves = levels[0][0];
  for (let i = 0; i < count; i++) {
    nodes.set(boxes.subarray(order[i] * 4, order[i] * 4 + 4), (leaves + i) * 4);
    refs[leaves + i] = offsets[i];
  }
  for (let l = 0; l < levels.length - 1; l++) {
    const end = levels[l][1];
    let pos = levels[l][0];
    let parent = levels[l + 1][0];
    while (pos < end) {
      const node = parent * 4;
      refs[parent] = pos;
      nodes[node] = nodes[node + 1] = Infinity;
      nodes[node + 2] = nodes[node + 3] = -Infinity;
      for (let j = 0; j < FGB_NODE_SIZE && pos < end; j++, pos++) {
        nodes[node] = Math.min(nodes[node], nodes[pos * 4]);
        nodes[node + 1] = Math.min(nodes[node + 1], nodes[pos * 4 + 1]);
        nodes[node + 2] = Math.max(nodes[node + 2], nodes[pos * 4 + 2]);
        nodes[node + 3] = Math.max(nodes[node + 3], nodes[pos * 4 + 3]);
      }
      parent++;
    }
  }
  const bytes = Buffer.allocUnsafe(total * NODE_ITEM_BYTE_LEN);
  for (let i = 0; i < total; i++) {
    const o = i * NODE_ITEM_BYTE_LEN;
    for (let k = 0; k < 4; k++) bytes.writeDoubleLE(nodes[i * 4 + k], o + k * 8);
    bytes.writeBigUInt64LE(BigInt(refs[i]), o + 32);
  }
  return bytes;
}

/** Returns one feature as a size-prefixed FlatBuffer (`b` is reused between features). */
function featureBytes(
  b: flatbuffers.Builder,
  fields: Field[],
  layout: Layout,
  feature: GeoFeature,
): Uint8Array {
  b.clear();
  const geometry = shapeGeometry(b, shapeOf(feature), layout);
  const props = propertyBytes(fields, feature.properties);
  const propsOffset = props.length > 0 ? Feature.createPropertiesVector(b, props) : 0;
  Feature.startFeature(b);
  Feature.addGeometry(b, geometry);
  if (propsOffset) Feature.addProperties(b, propsOffset);
  b.finishSizePrefixed(Feature.endFeature(b));
  return b.asUint8Array();
}

/**
 * Opens a FlatGeobuf file being written beside `out`, with one layer named
 * `layer`. add() encodes the features in source order into a temporary
 * body file; finish() writes magic, header and index, then copies the
 * features in Hilbert order (as the index requires, so not the source's
 * order) and renames the file into place.
 */
export async function openFlatGeobuf(
  out: string,
  layer: string,
  info: SourceScan,
  crs: CrsDefinition,
  inMemoryBelow = IN_MEMORY_BELOW_BYTES,
): Promise<FeatureSink<void>> {
  const bodyPath = tempPathBeside(out);
  const temp = tempPathBeside(out);
  // Small levels keep the body in memory (no temporary file); large ones stream through one.
  const small = info.count === 0 || info.ends[info.count - 1] < inMemoryBelow;
  const body = await RecordBody.open(bodyPath, info.count, small);
  const b = new flatbuffers.Builder(1 << 16);
  const layout = layoutOf(info);
  let output: FileHandle | undefined;
  const abort = async () => {
    await body.close();
    await output?.close().catch(() => {});
    await rm(temp, { force: true });
  };
  return {
    async add(feature, index) {
      await body.add(index, featureBytes(b, info.fields, layout, feature));
    },
    async finish() {
      try {
        await body.finish();
        const header = headerBytes(layer, info, crs);
        const order = hilbertOrder(info.boxes, info.bbox);
        const offsets = new Float64Array(info.count); // each feature's offset in the features section
        output = await open(temp, 'w');
        const head = Buffer.concat([MAGIC, header]);
        const treeBytes = calcTreeSize(info.count, FGB_NODE_SIZE);
        const writer = new BufferedFile(output, head.length + treeBytes);
        for (let i = 0; i < info.count; i++) {
          offsets[i] = writer.position - head.length - treeBytes;
          await writer.write(await body.record(order[i]));
        }
        await writer.flush();
        const front = Buffer.concat([head, packedTree(info.boxes, order, offsets)]);
        await output.write(front, 0, front.length, 0);
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

/** Writes `source` (a GeoJSON level) to `out` as FlatGeobuf (see openFlatGeobuf). */
export async function writeFlatGeobuf(
  source: string,
  out: string,
  layer: string,
  crs: CrsDefinition,
  scan?: SourceScan,
  inMemoryBelow = IN_MEMORY_BELOW_BYTES,
): Promise<void> {
  const info = scan ?? (await scanSource(source));
  await pump(source, info, [await openFlatGeobuf(out, layer, info, crs, inMemoryBelow)]);
}
