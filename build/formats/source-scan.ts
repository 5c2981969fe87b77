// One streaming pass over a source level that every writer needs first: the
// typed fields, the feature count, each feature's bbox and byte range (so the
// FlatGeobuf writer can re-read features in Hilbert order), the geometry
// kinds, and whether any position has a z. Memory: 48 bytes per feature.
import { open } from 'node:fs/promises';
import { UserError } from '../core/errors.ts';
import type { GeoFeature } from '../geojson/level-features.ts';
import { readFeatureCollection, type ReadOptions } from '../geojson/features.ts';
import { UNIT_ID_PROPERTY } from '../core/shared/api.ts';
import { FieldCollector, type Field } from './fields.ts';
import { firstZ, shapeOf, type Layout } from './geometry.ts';

const BLOCK = 4 << 20;

/** One feature of a source file, with where its text lies (byte offsets, end exclusive). */
interface SourceFeature {
  index: number; // 0, 1, 2… in file order
  start: number;
  end: number;
  feature: GeoFeature;
}

/** Parses JSON text of a file; a UserError says which file and byte. */
function parseJson(path: string, bytes: Buffer, start: number, what = 'feature'): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new UserError(
      `${path}: byte ${start}: cannot read ${what}: ${(error as Error).message.split('\n')[0]}`,
    );
  }
}

/** Parses one feature's bytes; a UserError says which file and byte. */
function parseFeature(path: string, bytes: Buffer, start: number): GeoFeature {
  const value = parseJson(path, bytes, start) as GeoFeature;
  if (value === null || typeof value !== 'object' || value.type !== 'Feature') {
    throw new UserError(`${path}: byte ${start}: cannot read feature: not a Feature`);
  }
  return value;
}

/** A writer fed one feature at a time, in source order (see pump). */
export interface FeatureSink<R = unknown> {
  add(feature: GeoFeature, index: number): void | Promise<void>;
  finish(): Promise<R>; // completes the file (renamed into place) and returns what the writer reports
  abort(): Promise<void>; // removes everything written so far
}

export interface SourceScan {
  path: string; // e.g. "/root/data/earth/CHL/CHL_ADM1.geojson"
  count: number;
  fields: Field[];
  bbox: [number, number, number, number]; // [minX, minY, maxX, maxY] of all features
  boxes: Float64Array; // 4 numbers per feature
  starts: Float64Array; // byte offset of each feature's text
  ends: Float64Array;
  polygons: number; // features that are Polygons
  multiPolygons: number;
  /** JSON pointer of the first position with a third number (z), e.g. "/features/3/geometry/coordinates/0/0". */
  zAt?: string;
  /** Each feature's release ID, given to the writers as its first property, UNIT_ID_PROPERTY. */
  unitIds?: string[];
  unitIdClash?: true; // IDs were given, but the source has a UNIT_ID_PROPERTY of its own
}

/** Returns `properties` with the unit's release ID first (the writers' first column), when it has one. */
function withUnitId(
  properties: Record<string, unknown> | null,
  id: string | undefined,
): Record<string, unknown> | null {
  return id === undefined ? properties : { [UNIT_ID_PROPERTY]: id, ...properties };
}

/** Returns how the binary writers lay out every feature of a scanned level (see Layout). */
export function layoutOf(scan: SourceScan): Layout {
  return { multi: scan.multiPolygons > 0, z: scan.zAt !== undefined };
}

/** Scans `path` once and returns what the writers need before writing (`options`: for tests). */
export async function scanSource(
  path: string,
  options: ReadOptions = {},
  unitIds?: string[], // one per feature; the caller has checked the count (a source with its own unit_id gets none)
  collector = new FieldCollector(), // a world file's: shared by every source it joins (world-files.ts)
): Promise<SourceScan> {
  let boxes = new Float64Array(4 * 64);
  let starts = new Float64Array(64);
  let ends = new Float64Array(64);
  const bbox: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  let count = 0;
  let polygons = 0;
  let multiPolygons = 0;
  let zStart = -1; // the first feature with a z: its byte range and index
  let zEnd = -1;
  let zIndex = -1;
  let properties: Record<string, unknown> | null = null;
  let clash = false; // the source has a unit_id of its own
  // The reader hands over each feature's positions read (its extent), and the
  // text of its "properties" alone: only that is parsed, never the geometry.
  await readFeatureCollection(
    path,
    {
      keep: 'properties',
      properties(bytes, start) {
        properties = parseJson(path, bytes, start, 'properties') as Record<string, unknown>;
        if (unitIds && properties && Object.hasOwn(properties, UNIT_ID_PROPERTY)) clash = true;
      },
      feature({ start, end, type, box, z }) {
        if (count === starts.length) {
          boxes = grown(boxes, boxes.length * 2);
          starts = grown(starts, starts.length * 2);
          ends = grown(ends, ends.length * 2);
        }
        boxes.set(box, count * 4);
        if (type === 'MultiPolygon') multiPolygons++;
        else polygons++;
        bbox[0] = Math.min(bbox[0], box[0]);
        bbox[1] = Math.min(bbox[1], box[1]);
        bbox[2] = Math.max(bbox[2], box[2]);
        bbox[3] = Math.max(bbox[3], box[3]);
        if (z && zStart < 0) [zStart, zEnd, zIndex] = [start, end, count];
        starts[count] = start;
        ends[count] = end;
        collector.add(withUnitId(properties, unitIds?.[count])); // null when the feature's "properties" is null
        properties = null;
        count++;
      },
    },
    options,
  );
  if (count === 0) throw new UserError(`${path}: has no features to convert`);
  // The publisher's own unit_id is kept as it is: that download goes without the release IDs.
  // Adding the same properties again to a shared collector changes none of its fields.
  if (clash) return { ...(await scanSource(path, options, undefined, collector)), unitIdClash: true };
  return {
    path,
    count,
    fields: collector.fields(),
    bbox,
    boxes: boxes.subarray(0, count * 4),
    starts: starts.subarray(0, count),
    ends: ends.subarray(0, count),
    polygons,
    multiPolygons,
    ...(zStart < 0 ? {} : { zAt: await firstZAt(path, zStart, zEnd, zIndex) }),
    ...(unitIds ? { unitIds } : {}),
  };
}

function grown(a: Float64Array, n: number): Float64Array<ArrayBuffer> {
  const b = new Float64Array(n);
  b.set(a);
  return b;
}

/** Returns the JSON pointer of the first position with a z in the feature at bytes [start, end) of `path`. */
async function firstZAt(path: string, start: number, end: number, index: number): Promise<string> {
  const file = await open(path, 'r');
  try {
    const bytes = Buffer.allocUnsafe(end - start);
    await file.read(bytes, 0, bytes.length, start);
    const shape = shapeOf(parseFeature(path, bytes, start));
    return `/features/${index}/geometry/coordinates${firstZ(shape)!}`;
  } finally {
    await file.close();
  }
}

/**
 * Yields the features of a scanned source in file order, reading the byte
 * ranges the scan recorded in 4 MiB blocks: no second scan of the text, only
 * JSON.parse of each feature.
 */
async function* sourceFeatures(path: string, scan: SourceScan): AsyncGenerator<SourceFeature> {
  const file = await open(path, 'r');
  try {
    // One buffer, reused (a feature is parsed before the next read): allocating 4 MiB per block
    // leaves the allocator holding freed blocks, which shows as resident memory long after.
    let buffer = Buffer.allocUnsafe(BLOCK);
    let block = buffer.subarray(0, 0);
    let blockStart = 0;
    for (let index = 0; index < scan.count; index++) {
      const start = scan.starts[index];
      const end = scan.ends[index];
      if (end > blockStart + block.length || start < blockStart) {
        if (end - start > buffer.length) buffer = Buffer.allocUnsafe(end - start);
        const { bytesRead } = await file.read(buffer, 0, buffer.length, start);
        block = buffer.subarray(0, bytesRead);
        blockStart = start;
      }
      const bytes = block.subarray(start - blockStart, end - blockStart);
      const feature = parseFeature(path, bytes, start);
      if (scan.unitIds) feature.properties = withUnitId(feature.properties ?? null, scan.unitIds[index]);
      yield { index, start, end, feature };
    }
  } finally {
    await file.close();
  }
}

/**
 * Feeds every feature of a scanned source to each sink, parsing each feature
 * once, then finishes them all; on any error every sink is aborted (no
 * half-written file stays). Returns the sinks' results in order.
 */
export async function pump(path: string, scan: SourceScan, sinks: FeatureSink[]): Promise<unknown[]> {
  return await pumpSources([{ path, scan }], sinks);
}

/** One source of several written as one file, and the properties every feature of it gets (e.g. its country). */
export interface JoinedSource {
  path: string;
  scan: SourceScan;
  extra?: Record<string, string>; // set over the feature's own properties, e.g. {country: "CHL"}
}

/**
 * Feeds every feature of each scanned source in turn to each sink, as pump
 * does, numbered across the sources (the second source's first feature
 * follows the first's last), each with its source's `extra` properties.
 * Returns the sinks' results in order.
 */
export async function pumpSources(sources: JoinedSource[], sinks: FeatureSink[]): Promise<unknown[]> {
  try {
    let offset = 0;
    for (const { path, scan, extra } of sources) {
      for await (const { feature, index } of sourceFeatures(path, scan)) {
        if (extra) feature.properties = { ...feature.properties, ...extra };
        for (const sink of sinks) await sink.add(feature, offset + index);
      }
      offset += scan.count;
    }
    const results: unknown[] = [];
    for (const sink of sinks) results.push(await sink.finish());
    return results;
  } catch (error) {
    await Promise.all(sinks.map((s) => s.abort()));
    throw error;
  }
}
