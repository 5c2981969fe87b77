// Writes a level as a zipped ESRI Shapefile: .shp, .shx, .dbf, .prj (the manifest's CRS)
// and .cpg (UTF-8), written by hand (the format is small and fixed; no npm
// writer streams, handles UTF-8 names and keeps doubles exact). Every
// feature is a Polygon record (type 5; PolygonZ, 15, when the level has z)
// holding all its rings, outer rings clockwise and holes counter-clockwise
// as the format requires, so rings may come out reversed relative to the
// GeoJSON (same points, same places).
import { mkdtemp, open, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { BufferedFile, IN_MEMORY_BELOW_BYTES, MemoryFile } from './buffered-file.ts';
import { dbfFields, dbfHeader, dbfRecord, type DbfField } from './dbase.ts';
import { ringArea2, shapeBbox, shapeOf, zOf, type Ring, type Shape } from './geometry.ts';
import { UserError } from '../core/errors.ts';
import type { CrsDefinition } from '../core/shared/crs.ts';
import { layoutOf, pump, scanSource, type FeatureSink, type SourceScan } from './source-scan.ts';
import { writeZip } from './zip.ts';

/** .shp offsets are 32-bit counts of 16-bit words: files stop at 4 GiB (GDAL reads up to that). */
const SHP_MAX_BYTES = 2 ** 32 - 2;

/** Reused between records (the writers copy what they are given): one allocation for all. */
let scratch = Buffer.allocUnsafe(1 << 16);

/**
 * Returns the content of one Polygon record (without its 8-byte record
 * header); with `z`, a PolygonZ record: then the z range and every z after
 * the points (the optional measures left out). Rings are written in the
 * winding the format wants (outer clockwise), read backwards when the
 * GeoJSON's runs the other way (no copy: a large ring is megabytes of
 * arrays). The bytes are valid until the next call.
 */
function shpPolygon(shape: Shape, z = false): Buffer {
  const rings: Ring[] = [];
  const backwards: boolean[] = [];
  for (const polygon of shape.polygons) {
    polygon.forEach((ring, i) => {
      rings.push(ring);
      backwards.push(ringArea2(ring) > 0 === (i === 0)); // counter-clockwise outer, or clockwise hole
    });
  }
  const points = rings.reduce((n, r) => n + r.length, 0);
  const xyBytes = 44 + 4 * rings.length + 16 * points;
  const size = xyBytes + (z ? 16 + 8 * points : 0);
  if (size > scratch.length) scratch = Buffer.allocUnsafe(Math.max(size, scratch.length * 2));
  const content = scratch.subarray(0, size);
  const [minX, minY, maxX, maxY] = shapeBbox(shape);
  content.writeInt32LE(z ? 15 : 5, 0);
  content.writeDoubleLE(minX, 4);
  content.writeDoubleLE(minY, 12);
  content.writeDoubleLE(maxX, 20);
  content.writeDoubleLE(maxY, 28);
  content.writeInt32LE(rings.length, 36);
  content.writeInt32LE(points, 40);
  let o = 44;
  let start = 0;
  for (const ring of rings) {
    content.writeInt32LE(start, o);
    o += 4;
    start += ring.length;
  }
  rings.forEach((ring, r) => {
    const n = ring.length;
    for (let k = 0; k < n; k++) {
      const p = ring[backwards[r] ? n - 1 - k : k];
      content.writeDoubleLE(p[0], o);
      content.writeDoubleLE(p[1], o + 8);
      o += 16;
    }
  });
  if (z) {
    let minZ = Infinity;
    let maxZ = -Infinity;
    o += 16; // the range, written below
    rings.forEach((ring, r) => {
      const n = ring.length;
      for (let k = 0; k < n; k++) {
        const v = zOf(ring[backwards[r] ? n - 1 - k : k]);
        if (v < minZ) minZ = v;
        if (v > maxZ) maxZ = v;
        content.writeDoubleLE(v, o);
        o += 8;
      }
    });
    content.writeDoubleLE(minZ, xyBytes);
    content.writeDoubleLE(maxZ, xyBytes + 8);
  }
  return content;
}

/** Returns the 100-byte header shared by .shp and .shx; `zRange` for a PolygonZ file. */
function mainHeader(fileBytes: number, bbox: [number, number, number, number], zRange?: number[]): Buffer {
  const header = Buffer.alloc(100);
  header.writeInt32BE(9994, 0);
  header.writeInt32BE(fileBytes / 2, 24);
  header.writeInt32LE(1000, 28);
  header.writeInt32LE(zRange ? 15 : 5, 32);
  header.writeDoubleLE(bbox[0], 36);
  header.writeDoubleLE(bbox[1], 44);
  header.writeDoubleLE(bbox[2], 52);
  header.writeDoubleLE(bbox[3], 60);
  if (zRange) {
    header.writeDoubleLE(zRange[0], 68);
    header.writeDoubleLE(zRange[1], 76);
  }
  return header;
}

export interface ShapefileResult {
  fields: { property: string; field: string }[]; // every property's dBase field name, e.g. "shapeGroup"
  renamed: { property: string; field: string }[]; // those whose name changed (cut to 10 bytes or made unique)
}

/**
 * Opens a zipped Shapefile being written: `layer`.shp, .shx, .dbf, .prj and
 * .cpg in a temporary folder beside `out`; finish() zips them into `out`
 * and returns the field names chosen for the properties.
 */
export async function openShapefile(
  out: string,
  layer: string,
  info: SourceScan,
  crs: CrsDefinition,
  inMemoryBelow = IN_MEMORY_BELOW_BYTES,
): Promise<FeatureSink<ShapefileResult>> {
  const fields: DbfField[] = dbfFields(info.fields);
  const z = layoutOf(info).z;
  const zRange = z ? [Infinity, -Infinity] : undefined; // of every record, for the file's header
  // Small levels are built in memory and zipped from there: no temporary folder (many small
  // files convert several times faster); large ones stream through files.
  const small = info.count === 0 || info.ends[info.count - 1] < inMemoryBelow;
  const parts = await openParts(out, layer, small);
  let record = 0;
  try {
    await parts.shp.write(Buffer.alloc(100)); // headers last, when lengths are known
    await parts.shx.write(Buffer.alloc(100));
    await parts.dbf.write(dbfHeader(fields, info.count));
  } catch (error) {
    await parts.abort();
    throw error;
  }
  return {
    async add(feature) {
      const content = shpPolygon(shapeOf(feature), z);
      if (zRange) widenZRange(zRange, content);
      await writeShape(parts, ++record, content);
      await parts.dbf.write(dbfRecord(fields, feature.properties));
      if (parts.shp.position > SHP_MAX_BYTES)
        throw new UserError(`${out}: too large for a Shapefile (.shp over 4 GiB)`);
    },
    async finish() {
      try {
        await zipParts(parts, out, layer, info.bbox, zRange, crs.prj);
      } finally {
        await parts.abort();
      }
      const all = fields.map((f) => ({ property: f.field.name, field: f.name }));
      return { fields: all, renamed: all.filter((f) => f.property !== f.field) };
    },
    abort: parts.abort,
  };
}

/** The .shp, .shx and .dbf being written: in memory, or files in a temporary folder beside the zip. */
interface Parts {
  shp: BufferedFile | MemoryFile;
  shx: BufferedFile | MemoryFile;
  dbf: BufferedFile | MemoryFile;
  dir?: string; // the temporary folder beside the zip, e.g. ".CHL_ADM1.shp.zip.Xq3b9a"
  handles: FileHandle[]; // of .shp, .shx and .dbf when in `dir`
  close(): Promise<void>; // closes the handles, once
  abort(): Promise<void>; // closes them and removes `dir`
}

/** Opens the parts of a Shapefile: in memory when `small`, else in a new temporary folder beside `out`. */
async function openParts(out: string, layer: string, small: boolean): Promise<Parts> {
  const dir = small ? undefined : await mkdtemp(join(dirname(out), `.${basename(out)}.`));
  const handles = dir
    ? await Promise.all(['shp', 'shx', 'dbf'].map((ext) => open(join(dir, `${layer}.${ext}`), 'w')))
    : [];
  const [shp, shx, dbf] = dir
    ? handles.map((h) => new BufferedFile(h))
    : [0, 1, 2].map(() => new MemoryFile());
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await Promise.all(handles.map((h) => h.close()));
  };
  const abort = async () => {
    await close().catch(() => {});
    if (dir) await rm(dir, { recursive: true, force: true });
  };
  return { shp, shx, dbf, dir, handles, close, abort };
}

/** Widens `zRange` to the z range of a PolygonZ record's `content`. */
function widenZRange(zRange: number[], content: Buffer): void {
  const at = 44 + 4 * content.readInt32LE(36) + 16 * content.readInt32LE(40); // the record's z range
  zRange[0] = Math.min(zRange[0], content.readDoubleLE(at));
  zRange[1] = Math.max(zRange[1], content.readDoubleLE(at + 8));
}

/** Writes record number `record` (from 1): its header and `content` to the .shp, its offset to the .shx. */
async function writeShape({ shp, shx }: Parts, record: number, content: Buffer): Promise<void> {
  const head = Buffer.allocUnsafe(8);
  head.writeInt32BE(record, 0);
  head.writeInt32BE(content.length / 2, 4);
  const index = Buffer.allocUnsafe(8);
  index.writeInt32BE(shp.position / 2, 0);
  index.writeInt32BE(content.length / 2, 4);
  await shp.write(head);
  await shp.write(content);
  await shx.write(index);
}

/** Ends the parts, writes the .shp and .shx headers (the lengths now known) and zips them with a .prj and .cpg into `out`. */
async function zipParts(
  parts: Parts,
  out: string,
  layer: string,
  bbox: [number, number, number, number],
  zRange: number[] | undefined,
  prj: string, // the .prj's text, e.g. 'GEOGCS["GCS_Moon_2015_-_Sphere_Ocentric",…]'
): Promise<void> {
  const { shp, shx, dbf, dir, handles } = parts;
  const names = (ext: string) => `${layer}.${ext}`;
  await dbf.write(Buffer.from([0x1a]));
  for (const o of [shp, shx, dbf]) await o.flush();
  const shpHeader = mainHeader(shp.position, bbox, zRange);
  const shxHeader = mainHeader(shx.position, bbox, zRange);
  if (!dir) {
    const [a, b, c] = [shp, shx, dbf].map((o) => (o as MemoryFile).contents());
    shpHeader.copy(a, 0);
    shxHeader.copy(b, 0);
    await writeZip(out, [
      { data: a, name: names('shp') },
      { data: b, name: names('shx') },
      { data: c, name: names('dbf') },
      { data: Buffer.from(prj), name: names('prj') },
      { data: Buffer.from('UTF-8'), name: names('cpg') },
    ]);
    return;
  }
  const path = (ext: string) => join(dir, names(ext));
  await handles[0].write(shpHeader, 0, 100, 0);
  await handles[1].write(shxHeader, 0, 100, 0);
  await parts.close();
  await writeFile(path('prj'), prj);
  await writeFile(path('cpg'), 'UTF-8');
  await writeZip(
    out,
    ['shp', 'shx', 'dbf', 'prj', 'cpg'].map((ext) => ({ file: path(ext), name: names(ext) })),
  );
}

/** Writes `source` (a GeoJSON level) to `out` as a zipped Shapefile (see openShapefile). */
export async function writeShapefile(
  source: string,
  out: string,
  layer: string,
  crs: CrsDefinition,
  scan?: SourceScan,
  inMemoryBelow = IN_MEMORY_BELOW_BYTES,
): Promise<ShapefileResult> {
  const info = scan ?? (await scanSource(source));
  const [result] = await pump(source, info, [await openShapefile(out, layer, info, crs, inMemoryBelow)]);
  return result as ShapefileResult;
}
