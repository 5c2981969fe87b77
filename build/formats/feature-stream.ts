// Reads the features of a GeoJSON FeatureCollection one at a time, in 1 MiB
// chunks, so a level larger than V8's string limit (~512 MB) converts with
// flat memory: only one feature's text is held at a time. The build measures
// (validates) every file first, so this only splits the top-level
// `features` array at its elements and JSON.parses each one.
import { open } from 'node:fs/promises';
import { UserError } from '../core/errors.ts';
import type { GeoFeature } from '../core/read-features.ts';

const CHUNK = 1 << 20;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** One feature of a source file, with where its text lies (byte offsets, end exclusive). */
export interface SourceFeature {
  index: number; // 0, 1, 2… in file order
  start: number;
  end: number;
  feature: GeoFeature;
}

/** Parses one feature's bytes; a UserError says which file and byte. */
export function parseFeature(path: string, bytes: Buffer, start: number): GeoFeature {
  try {
    const value = JSON.parse(bytes.toString('utf8')) as GeoFeature;
    if (value === null || typeof value !== 'object' || value.type !== 'Feature')
      throw new Error('not a Feature');
    return value;
  } catch (error) {
    throw new UserError(
      `${path}: byte ${start}: cannot read feature: ${(error as Error).message.split('\n')[0]}`,
    );
  }
}

/**
 * Yields every feature of the FeatureCollection at `path` (e.g.
 * "data/earth/CHL/CHL_ADM1.geojson"), in order, with its byte range. Memory
 * is one chunk plus the largest feature.
 */
export async function* streamFeatures(path: string): AsyncGenerator<SourceFeature> {
  const file = await open(path, 'r');
  try {
    const chunk = Buffer.allocUnsafe(CHUNK);
    let depth = 0; // nesting depth of objects and arrays
    let inString = false;
    let escaped = false;
    let key = ''; // the last string read at depth 1, e.g. "features"
    let keyBytes: number[] | undefined; // collecting a depth-1 string
    let featuresDepth = -1; // depth inside the features array, once entered
    let featureStart = -1;
    let pieces: Buffer[] = [];
    let index = 0;
    let position = 0; // file offset of chunk[0]
    for (;;) {
      const { bytesRead } = await file.read(chunk, 0, CHUNK, position);
      if (bytesRead === 0) break;
      let pieceFrom = 0;
      for (let i = 0; i < bytesRead; i++) {
        const c = chunk[i];
        if (inString) {
          if (escaped) escaped = false;
          else if (c === BACKSLASH) escaped = true;
          else if (c === QUOTE) {
            inString = false;
            if (keyBytes) {
              key = Buffer.from(keyBytes).toString('utf8');
              keyBytes = undefined;
            }
          } else if (keyBytes && keyBytes.length < 64) keyBytes.push(c);
          continue;
        }
        if (c === QUOTE) {
          inString = true;
          if (depth === 1) keyBytes = [];
        } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
          if (depth === featuresDepth && c === OPEN_BRACE) {
            featureStart = position + i;
            pieceFrom = i;
            pieces = [];
          }
          depth++;
          if (depth === 2 && c === OPEN_BRACKET && key === 'features') featuresDepth = 2;
        } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
          depth--;
          if (depth === featuresDepth && featureStart >= 0) {
            pieces.push(chunk.subarray(pieceFrom, i + 1));
            const bytes = pieces.length === 1 ? pieces[0] : Buffer.concat(pieces);
            const end = position + i + 1;
            yield {
              index: index++,
              start: featureStart,
              end,
              feature: parseFeature(path, bytes, featureStart),
            };
            featureStart = -1;
            pieces = [];
          } else if (depth === 1 && featuresDepth === 2) featuresDepth = -1;
        }
      }
      // A feature running past this chunk keeps a copy of its part (the chunk is reused).
      if (featureStart >= 0) pieces.push(Buffer.from(chunk.subarray(pieceFrom, bytesRead)));
      position += bytesRead;
    }
  } finally {
    await file.close();
  }
}

/** Reads the feature at bytes [start, end) of an open file (as recorded by streamFeatures). */
export async function readFeatureAt(
  path: string,
  file: import('node:fs/promises').FileHandle,
  start: number,
  end: number,
): Promise<GeoFeature> {
  const bytes = Buffer.allocUnsafe(end - start);
  await file.read(bytes, 0, bytes.length, start);
  return parseFeature(path, bytes, start);
}
