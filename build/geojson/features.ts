// The features of a GeoJSON FeatureCollection file, one at a time, for the
// users of the reader that want more than positions: each feature's byte
// range, geometry type, extent and text (or only its "properties" text).
// Memory is bounded by the largest feature, never the file (files may exceed
// V8's ~512 MB string limit). The file is read and checked as the measurer
// reads it: a malformed one throws the measurer's GeoJSONError.
import { open } from 'node:fs/promises';
import { inFile } from './errors.ts';
import type { PositionSink } from './positions.ts';
import { scanChunks } from './read.ts';
import type { FeatureEnd, FeatureListener } from './feature-listener.ts';
import { FeatureCollectionScanner } from './scanner.ts';

/** Options for tests: `chunkSize`, bytes per read, to cut features and tokens at a chunk's end. */
export interface ReadOptions {
  chunkSize?: number;
}

/** Options of readFeatureCollection: `sink` is handed every position and each complete geometry. */
export interface CollectionOptions extends ReadOptions {
  sink?: PositionSink;
}

/** Reads the FeatureCollection at `path` (e.g. "data/earth/CHL/CHL_ADM1.geojson"), handing each feature to `listener`. */
export async function readFeatureCollection(
  path: string,
  listener: FeatureListener,
  options: CollectionOptions = {},
): Promise<void> {
  const chunks = chunksOf(path, listener, options);
  while (!(await chunks.next()).done);
}

/** One feature's text, e.g. `{"type":"Feature","geometry":{…},"properties":{…}}`, its index and byte range. */
export interface FeatureBytes {
  index: number;
  start: number;
  end: number;
  bytes: Buffer; // valid only until the next feature is yielded
}

/** Yields every feature of the FeatureCollection at `path` as its text, in order. */
export async function* readFeatureBytes(
  path: string,
  options: ReadOptions = {},
): AsyncGenerator<FeatureBytes> {
  let ended: FeatureBytes[] = [];
  const listener: FeatureListener = {
    keep: 'feature',
    properties() {},
    feature({ index, start, end, bytes }: FeatureEnd) {
      ended.push({ index, start, end, bytes: bytes! });
    },
  };
  const chunks = chunksOf(path, listener, options);
  while (!(await chunks.next()).done) {
    // The features that ended in this chunk: views of the chunk buffer, valid until the next one is read.
    yield* ended;
    ended = [];
  }
  yield* ended;
}

/** Scans the whole file, pausing after each chunk (see scanChunks); a malformed file throws a GeoJSONError. */
async function* chunksOf(
  path: string,
  listener: FeatureListener,
  options: CollectionOptions,
): AsyncGenerator<void> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const scanner = new FeatureCollectionScanner(options.sink, { listener });
    yield* scanChunks(file, scanner, { from: 0, to: size, toEnd: true, chunkSize: options.chunkSize });
  } catch (error) {
    throw inFile(path, error);
  } finally {
    await file.close();
  }
}
