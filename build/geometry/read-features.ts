// Streams the features of a GeoJSON FeatureCollection file one at a time:
// the file is read in chunks and cut at each feature's braces, so memory is
// bounded by the largest feature, never the file (files may exceed V8's
// ~512 MB string limit). The file is expected to have passed the measurer
// (build/measure/measure.ts), which reports malformed JSON with its byte offset.
import { open } from 'node:fs/promises';
import { GeometryParseError } from './parse-geometry.ts';

const CHUNK_BYTES = 1 << 20;
const MAX_FEATURE_BYTES = 512 << 20; // a feature is checked whole: beyond this, it is not checked

/** Bytes that end a run inside a string: '"' and '\\'. */
const STRING_STOP = new Uint8Array(256);
STRING_STOP[0x22] = 1;
STRING_STOP[0x5c] = 1;

/** Bytes that matter inside a feature, between strings: quotes and braces. */
const IN_FEATURE = new Uint8Array(256);
for (const c of '"{}') IN_FEATURE[c.charCodeAt(0)] = 1;

/** One feature's bytes, e.g. `{"type":"Feature","geometry":{…},"properties":{…}}`, and its index. */
export interface FeatureBytes {
  index: number;
  bytes: Buffer;
}

/** A part of a file: bytes [from, to), and whether it starts inside the "features" array, before a feature. */
export interface ByteRange {
  from: number;
  to: number;
  midFeatures: boolean;
}

/**
 * Yields every feature of the top-level "features" array of `path` as raw
 * bytes, in order (within `range` when given). Bytes outside that array are
 * skipped. `cutter` is the state machine, to ask at the end whether the range
 * ended between features.
 */
export async function* readFeatureBytes(
  path: string,
  range?: ByteRange,
  cutter = new FeatureCutter(range?.midFeatures ?? false),
): AsyncGenerator<FeatureBytes> {
  const file = await open(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(CHUNK_BYTES);
    let at = range?.from ?? 0;
    const to = range?.to ?? Infinity;
    for (;;) {
      const want = Math.min(CHUNK_BYTES, to - at);
      if (want <= 0) break;
      const { bytesRead } = await file.read(buf, 0, want, at);
      if (bytesRead === 0) break;
      at += bytesRead;
      yield* cutter.push(buf.subarray(0, bytesRead));
    }
  } finally {
    await file.close();
  }
}

/** The byte-level state machine: depth, strings, and where "features" and each feature start. */
export class FeatureCutter {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private stringStart = -1; // offset of a depth-1 string in the current chunk, to read the key
  private keyPart = ''; // the start of such a string cut by the chunk's end
  private lastKey = ''; // the last string seen directly in the top object, e.g. "features"
  private inFeatures = false;
  private featureStart = -1; // offset of the current feature's '{' in the chunk (-1: carried over)
  private pending: Buffer[] = []; // earlier chunks' bytes of the current feature
  private pendingBytes = 0;
  private index = 0;

  /** `midFeatures`: the bytes start inside the "features" array, between features (a worker's part of a file). */
  constructor(midFeatures = false) {
    if (midFeatures) {
      this.depth = 2;
      this.inFeatures = true;
    }
  }

  /** Whether the bytes so far end inside the "features" array, between features. */
  isBetweenFeatures(): boolean {
    return this.depth === 2 && this.inFeatures && !this.inString && this.pending.length === 0;
  }

  /**
   * Returns the features that end in `chunk`. A feature's bytes may be a view
   * of `chunk`: use them before the chunk's buffer is refilled.
   */
  *push(chunk: Buffer): Generator<FeatureBytes> {
    let { depth, inString, escaped } = this;
    const n = chunk.length;
    for (let i = 0; i < n; i++) {
      if (inString) {
        // Skip to the next quote or backslash: string bodies are plain bytes.
        while (i < n && !escaped && STRING_STOP[chunk[i]!] === 0) i++;
        if (i >= n) break;
        const c = chunk[i]!;
        if (escaped) escaped = false;
        else if (c === 0x5c) escaped = true;
        else {
          inString = false;
          if (this.stringStart >= 0)
            this.lastKey = this.keyPart + chunk.toString('utf8', this.stringStart, i);
          this.keyPart = '';
        }
        continue;
      }
      if (depth > 2 && this.inFeatures) {
        // Inside a feature: its end is the '}' that closes it, so only braces
        // and strings matter (brackets balance inside it in valid JSON). The
        // coordinates, nearly all the bytes, are skipped in one tight loop.
        while (i < n && IN_FEATURE[chunk[i]!] === 0) i++;
        if (i >= n) break;
        const c = chunk[i]!;
        if (c === 0x22) {
          inString = true;
          this.stringStart = -1;
        } else if (c === 0x7b) depth++;
        else if (--depth === 2) {
          const own = chunk.subarray(this.featureStart < 0 ? 0 : this.featureStart, i + 1);
          const bytes = this.pending.length > 0 ? Buffer.concat([...this.pending, own]) : own;
          this.pending = [];
          this.pendingBytes = 0;
          this.featureStart = -1;
          yield { index: this.index++, bytes };
        }
        continue;
      }
      const c = chunk[i]!;
      if (c === 0x22) {
        inString = true;
        this.stringStart = depth === 1 ? i + 1 : -1;
      } else if (c === 0x7b || c === 0x5b) {
        if (depth === 1 && c === 0x5b && this.lastKey === 'features') this.inFeatures = true;
        else if (depth === 2 && c === 0x7b && this.inFeatures) this.featureStart = i;
        depth++;
      } else if (c === 0x7d || c === 0x5d) {
        depth--;
        if (depth === 1 && this.inFeatures) this.inFeatures = false;
      }
    }
    if (inString && this.stringStart >= 0) {
      this.keyPart += chunk.toString('utf8', this.stringStart);
      this.stringStart = 0;
    }
    if (depth > 2 && this.inFeatures) {
      // A feature continues in the next chunk: keep a copy of its bytes so far.
      const rest = Buffer.from(chunk.subarray(this.featureStart < 0 ? 0 : this.featureStart));
      this.pendingBytes += rest.length;
      // Bounded memory even on a malformed file read before the measurer refuses it.
      if (this.pendingBytes > MAX_FEATURE_BYTES) {
        throw new GeometryParseError(`feature ${this.index} is larger than ${MAX_FEATURE_BYTES >> 20} MiB`);
      }
      this.pending.push(rest);
      this.featureStart = -1;
    }
    Object.assign(this, { depth, inString, escaped });
  }
}
