// One streaming pass over a source level that every writer needs first: the
// typed fields, the feature count, each feature's bbox and byte range (so the
// FlatGeobuf writer can re-read features in Hilbert order), the geometry
// kinds, and whether any position has a z. Memory: 48 bytes per feature.
import { UserError } from '../core/errors.ts';
import type { GeoFeature } from '../core/read-features.ts';
import { FieldCollector, type Field } from './fields.ts';
import { open } from 'node:fs/promises';
import { parseFeature, parseJson, scanFeatures, type SourceFeature } from './feature-stream.ts';
import { firstZ, shapeBbox, shapeOf, type Layout } from './geometry.ts';

const BLOCK = 4 << 20;

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
}

/** Returns how the binary writers lay out every feature of a scanned level (see Layout). */
export function layoutOf(scan: SourceScan): Layout {
  return { multi: scan.multiPolygons > 0, z: scan.zAt !== undefined };
}

/** Scans `path` once and returns what the writers need before writing. */
export async function scanSource(path: string): Promise<SourceScan> {
  const collector = new FieldCollector();
  let boxes = new Float64Array(4 * 64);
  let starts = new Float64Array(64);
  let ends = new Float64Array(64);
  const bbox: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  let count = 0;
  let polygons = 0;
  let multiPolygons = 0;
  let zAt: string | undefined;
  for await (const raw of scanFeatures(path)) {
    if (count === starts.length) {
      const grow = (a: Float64Array, n: number) => {
        const b = new Float64Array(n);
        b.set(a);
        return b;
      };
      boxes = grow(boxes, boxes.length * 2);
      starts = grow(starts, starts.length * 2);
      ends = grow(ends, ends.length * 2);
    }
    let multi: boolean;
    let properties: Record<string, unknown> | null;
    if (raw.box && raw.properties) {
      // The fast path: only the properties object is parsed.
      boxes.set(raw.box, count * 4);
      multi = raw.multi!;
      const [from, to] = raw.properties;
      properties = parseJson(path, raw.bytes.subarray(from, to), raw.start + from, 'properties') as Record<
        string,
        unknown
      >;
    } else {
      // Also every feature with a z: the fast path stops at a position's third number.
      const feature = parseFeature(path, raw.bytes, raw.start);
      let shape;
      try {
        shape = shapeOf(feature);
      } catch (error) {
        throw new UserError(`${path}: byte ${raw.start}: ${(error as Error).message}`);
      }
      boxes.set(shapeBbox(shape), count * 4);
      multi = shape.multi;
      const z = zAt === undefined ? firstZ(shape) : undefined;
      if (z !== undefined) zAt = `/features/${count}/geometry/coordinates${z}`;
      properties = feature.properties;
    }
    if (multi) multiPolygons++;
    else polygons++;
    bbox[0] = Math.min(bbox[0], boxes[count * 4]);
    bbox[1] = Math.min(bbox[1], boxes[count * 4 + 1]);
    bbox[2] = Math.max(bbox[2], boxes[count * 4 + 2]);
    bbox[3] = Math.max(bbox[3], boxes[count * 4 + 3]);
    starts[count] = raw.start;
    ends[count] = raw.end;
    collector.add(properties);
    count++;
  }
  if (count === 0) throw new UserError(`${path}: has no features to convert`);
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
    ...(zAt === undefined ? {} : { zAt }),
  };
}

/**
 * Yields the features of a scanned source in file order, reading the byte
 * ranges the scan recorded in 4 MiB blocks: no second scan of the text, only
 * JSON.parse of each feature.
 */
export async function* sourceFeatures(path: string, scan: SourceScan): AsyncGenerator<SourceFeature> {
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
      yield { index, start, end, feature: parseFeature(path, bytes, start) };
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
  try {
    for await (const { feature, index } of sourceFeatures(path, scan)) {
      for (const sink of sinks) await sink.add(feature, index);
    }
    const results: unknown[] = [];
    for (const sink of sinks) results.push(await sink.finish());
    return results;
  } catch (error) {
    await Promise.all(sinks.map((s) => s.abort()));
    throw error;
  }
}
