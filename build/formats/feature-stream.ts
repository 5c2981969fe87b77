// Splits a GeoJSON FeatureCollection into its features without parsing
// them, in 1 MiB chunks, so a level larger than V8's string limit (~512 MB)
// scans with flat memory (one chunk plus the largest feature). JSON.parse of
// a whole level is the largest cost of a conversion, so the scan reads only
// what the writers need up front: each feature's byte range, its bbox
// (positions read by the measurer's fast reader), Polygon or MultiPolygon
// (from the depth of its positions) and the byte range of its `properties`
// object. A position cut
// by a chunk's end is read again at the start of the next chunk. Anything
// laid out otherwise (spaces inside positions, exponents, a third number)
// is marked, and the caller parses that feature instead. The
// build measures (validates) every file first.
import { open } from 'node:fs/promises';
import { UserError } from '../core/errors.ts';
import type { GeoFeature } from '../core/read-features.ts';
import { readPositionRun } from '../measure/positions.ts';

const CHUNK = 1 << 20;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** Bytes that change the scanner's state outside strings: " { } [ ]. */
const SYNTAX = new Uint8Array(256);
for (const c of [QUOTE, OPEN_BRACE, CLOSE_BRACE, OPEN_BRACKET, CLOSE_BRACKET]) SYNTAX[c] = 1;

/** One feature of a source file, with where its text lies (byte offsets, end exclusive). */
export interface SourceFeature {
  index: number; // 0, 1, 2… in file order
  start: number;
  end: number;
  feature: GeoFeature;
}

/** One feature as the scan found it, unparsed. */
export interface RawFeature {
  start: number; // byte offsets in the file, end exclusive
  end: number;
  bytes: Buffer; // the feature's text; valid only until the next feature is yielded
  /** Set when the fast path read every position: [minX, minY, maxX, maxY], and the geometry kind. */
  box?: Float64Array;
  multi?: boolean;
  properties?: [number, number]; // byte range of the properties object within `bytes`, when it is one
}

/** Parses JSON text of a file; a UserError says which file and byte. */
export function parseJson(path: string, bytes: Buffer, start: number, what = 'feature'): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new UserError(
      `${path}: byte ${start}: cannot read ${what}: ${(error as Error).message.split('\n')[0]}`,
    );
  }
}

/** Parses one feature's bytes; a UserError says which file and byte. */
export function parseFeature(path: string, bytes: Buffer, start: number): GeoFeature {
  const value = parseJson(path, bytes, start) as GeoFeature;
  if (value === null || typeof value !== 'object' || value.type !== 'Feature') {
    throw new UserError(`${path}: byte ${start}: cannot read feature: not a Feature`);
  }
  return value;
}

/**
 * Yields every feature of the FeatureCollection at `path` (e.g.
 * "data/earth/CHL/CHL_ADM1.geojson"), in order, unparsed (see RawFeature).
 */
export async function* scanFeatures(path: string): AsyncGenerator<RawFeature> {
  const file = await open(path, 'r');
  try {
    const chunk = Buffer.allocUnsafe(CHUNK);
    let depth = 0; // nesting depth of objects and arrays
    let inString = false;
    let escaped = false;
    let stringBytes: number[] | undefined; // collecting a string that may be a key we follow
    const lastString: string[] = []; // per depth, the last short string read there (keys included)
    const containerKey: string[] = []; // per depth, the key of the container holding it
    let fd = -1; // depth inside the features array, once entered
    let featureStart = -1;
    let pieces: Buffer[] = [];
    let position = 0; // file offset of chunk[0]
    const box = new Float64Array(4);
    let positionDepth = -1; // depth (before '[') of the feature's positions; -2 when mixed
    let fast = true; // every position read by the fast path so far
    let propsFrom = -1; // file offsets of the properties object
    let propsTo = -1;
    for (;;) {
      const { bytesRead } = await file.read(chunk, 0, CHUNK, position);
      if (bytesRead === 0) break;
      let pieceFrom = 0;
      // Where this chunk's scan ends: before a position the chunk's end cuts, which the next
      // chunk starts with (a feature spanning chunks, e.g. a one-line level, stays on the fast path).
      let end = bytesRead;
      const more = bytesRead === CHUNK; // not the file's last chunk
      for (let i = 0; i < bytesRead; i++) {
        // Most bytes are digits, commas and spaces: skip them in a tight loop.
        while (i < bytesRead && !inString && !SYNTAX[chunk[i]]) i++;
        if (i === bytesRead) break;
        if (inString && !escaped && !stringBytes) {
          // Inside a string we do not collect: jump to the next quote or backslash.
          const q = chunk.indexOf(QUOTE, i);
          const b = chunk.indexOf(BACKSLASH, i);
          const next = Math.min(
            q < 0 || q >= bytesRead ? bytesRead : q,
            b < 0 || b >= bytesRead ? bytesRead : b,
          );
          if (next === bytesRead) break;
          i = next;
        }
        const c = chunk[i];
        if (inString) {
          if (escaped) escaped = false;
          else if (c === BACKSLASH) escaped = true;
          else if (c === QUOTE) {
            inString = false;
            if (stringBytes) {
              lastString[depth] = Buffer.from(stringBytes).toString('utf8');
              stringBytes = undefined;
            }
          } else if (stringBytes && stringBytes.length < 64) stringBytes.push(c);
          continue;
        }
        if (c === QUOTE) {
          inString = true;
          // Keys we follow: "features" (depth 1), "properties"/"geometry" (feature), "coordinates" (geometry).
          if (depth === 1 || (fd > 0 && (depth === fd + 1 || depth === fd + 2))) stringBytes = [];
        } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
          if (depth === fd && c === OPEN_BRACE) {
            featureStart = position + i;
            pieceFrom = i;
            pieces = [];
            box[0] = box[1] = Infinity;
            box[2] = box[3] = -Infinity;
            positionDepth = -1;
            fast = true;
            propsFrom = propsTo = -1;
          } else if (fd > 0 && depth >= fd + 4 && containerKey[fd + 2] === 'geometry' && c === OPEN_BRACKET) {
            if (more && i > 0 && i + 1 === bytesRead) {
              end = i; // '[' is the chunk's last byte: what follows it is in the next chunk
              break;
            }
            const next = chunk[i + 1];
            if (next === 0x2d || (next >= 0x30 && next <= 0x39)) {
              // A position: read it and those that follow, as the measurer does.
              positionDepth = positionDepth === -1 || positionDepth === depth ? depth : -2;
              const after = readPositionRun(chunk, i, bytesRead, box);
              if (after === i && more && i > 0 && chunk.indexOf(CLOSE_BRACKET, i) < 0) {
                end = i; // cut by the chunk's end: read it again from the next chunk
                break;
              }
              if (after === i) fast = false;
              else {
                i = after - 1;
                continue;
              }
            }
          } else if (depth === fd + 1 && c === OPEN_BRACE && lastString[depth] === 'properties') {
            propsFrom = position + i;
          }
          depth++;
          containerKey[depth] = lastString[depth - 1];
          lastString[depth] = '';
          if (depth === 2 && c === OPEN_BRACKET && containerKey[2] === 'features') fd = 2;
        } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
          depth--;
          if (depth === fd + 1 && propsFrom >= 0 && propsTo < 0 && containerKey[fd + 2] === 'properties') {
            propsTo = position + i + 1;
          }
          if (depth === fd && featureStart >= 0) {
            pieces.push(chunk.subarray(pieceFrom, i + 1));
            const bytes = pieces.length === 1 ? pieces[0] : Buffer.concat(pieces);
            const raw: RawFeature = { start: featureStart, end: position + i + 1, bytes };
            const kind = positionDepth - fd; // positions opened at fd+4 (Polygon) or fd+5 (MultiPolygon)
            if (fast && (kind === 4 || kind === 5)) {
              raw.box = box;
              raw.multi = kind === 5;
            }
            if (propsFrom >= 0 && propsTo > propsFrom) {
              raw.properties = [propsFrom - featureStart, propsTo - featureStart];
            }
            yield raw;
            featureStart = -1;
            pieces = [];
          } else if (depth === 1 && fd === 2) fd = -1;
        }
      }
      // A feature running past this chunk keeps a copy of its part (the chunk is reused).
      if (featureStart >= 0) pieces.push(Buffer.from(chunk.subarray(pieceFrom, end)));
      position += end;
    }
  } finally {
    await file.close();
  }
}
