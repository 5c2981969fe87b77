// Writes a PMTiles v3 archive (https://github.com/protomaps/PMTiles, spec v3):
// a 127-byte header, the root directory, JSON metadata, leaf directories when
// the root would not fit in the first 16 KiB, then the tile data, clustered by
// tile id. Directories and metadata are gzip-compressed; tiles are given
// already compressed. Identical tiles are stored once. One file, read with
// HTTP Range requests: no tile server. (npm's `pmtiles` only reads.)
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { tileId } from '../core/shared/tiles.ts';

const HEADER_BYTES = 127;
/** The header and root directory must fit in the first request a reader makes. */
const FIRST_BYTES = 16_384;

/**
 * Returns `bytes` gzip-compressed at level 6 with a window just large enough
 * to hold them: zlib sets up its window for every call, and tiles are small
 * (75 → 54 µs for a 680-byte tile). The window never slides over input that
 * fits it, so the bytes are the default 32 KiB window's (test/tiles/gzip-tile.test.ts).
 */
export function gzipTile(bytes: Uint8Array): Buffer {
  // zlib keeps 262 bytes of look-ahead in the window; it takes 9 to 15 bits.
  const windowBits = Math.min(15, Math.max(9, Math.ceil(Math.log2(bytes.length + 262))));
  // The result is a slice of zlib's output chunk (16 KiB unless told): a 24-byte tile kept
  // 16 KiB alive, and a level's 42,094 tiles held 690 MB until its archive was written.
  // A chunk the size of the input plus gzip's overhead (stored blocks, header) fits it.
  const chunkSize = Math.max(64, bytes.length + (bytes.length >> 7) + 64);
  return gzipSync(bytes, { level: 6, windowBits, chunkSize });
}

/** A tile to store: its z/x/y and its bytes, gzip-compressed. */
export interface ArchiveTile {
  z: number;
  x: number;
  y: number;
  data: Uint8Array;
}

export interface ArchiveOptions {
  bounds: [number, number, number, number]; // lon/lat of the data, for the header
  metadata: object;
  tileType?: number; // 1: MVT
  centerZoom?: number; // the header's centre zoom; the least zoom when not given
}

interface Entry {
  tileId: number;
  offset: number;
  length: number;
  runLength: number;
}

function varint(out: number[], v: number): void {
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

/** Returns a directory as the spec's columns (ids as deltas, run lengths, lengths, offsets), gzip-compressed. */
function directoryBytes(entries: Entry[]): Buffer {
  const out: number[] = [];
  varint(out, entries.length);
  let last = 0;
  for (const e of entries) {
    varint(out, e.tileId - last);
    last = e.tileId;
  }
  for (const e of entries) varint(out, e.runLength);
  for (const e of entries) varint(out, e.length);
  entries.forEach((e, i) => {
    const prev = entries[i - 1];
    // 0: right after the previous entry's data; else offset + 1.
    varint(out, i > 0 && e.offset === prev.offset + prev.length ? 0 : e.offset + 1);
  });
  return gzipTile(Buffer.from(out));
}

/** Returns the root directory, and the leaf directories when the entries do not fit in one root. */
function directories(entries: Entry[]): { root: Buffer; leaves: Buffer } {
  const root = directoryBytes(entries);
  if (root.length <= FIRST_BYTES - HEADER_BYTES) return { root, leaves: Buffer.alloc(0) };
  for (let leafSize = 4096; ; leafSize *= 2) {
    const rootEntries: Entry[] = [];
    const leaves: Buffer[] = [];
    let offset = 0;
    for (let i = 0; i < entries.length; i += leafSize) {
      const leaf = directoryBytes(entries.slice(i, i + leafSize));
      rootEntries.push({ tileId: entries[i].tileId, offset, length: leaf.length, runLength: 0 });
      leaves.push(leaf);
      offset += leaf.length;
    }
    const rootBytes = directoryBytes(rootEntries);
    if (rootBytes.length <= FIRST_BYTES - HEADER_BYTES)
      return { root: rootBytes, leaves: Buffer.concat(leaves) };
  }
}

/** Returns the bytes of a PMTiles archive holding `tiles` (at least one). */
export function writeArchive(tiles: ArchiveTile[], options: ArchiveOptions): Buffer {
  const sorted = tiles.map((t) => ({ ...t, id: tileId(t.z, t.x, t.y) })).sort((a, b) => a.id - b.id);
  const stored = new Map<string, { offset: number; length: number }>();
  const chunks: Uint8Array[] = [];
  let dataBytes = 0;
  const entries: Entry[] = [];
  for (const t of sorted) {
    const hash = createHash('sha1').update(t.data).digest('hex');
    let where = stored.get(hash);
    if (!where) {
      where = { offset: dataBytes, length: t.data.length };
      stored.set(hash, where);
      chunks.push(t.data);
      dataBytes += t.data.length;
    }
    const last = entries.at(-1);
    if (last && last.offset === where.offset && last.tileId + last.runLength === t.id) last.runLength++;
    else entries.push({ tileId: t.id, offset: where.offset, length: where.length, runLength: 1 });
  }
  const { root, leaves } = directories(entries);
  const metadata = gzipTile(Buffer.from(JSON.stringify(options.metadata)));
  const zooms = sorted.map((t) => t.z);
  const [minZoom, maxZoom] = [Math.min(...zooms), Math.max(...zooms)];
  const h = Buffer.alloc(HEADER_BYTES);
  h.write('PMTiles', 0, 'ascii');
  h.writeUInt8(3, 7);
  const offsets = [HEADER_BYTES];
  for (const part of [root, metadata, leaves]) offsets.push(offsets.at(-1)! + part.length);
  const u64 = (v: number, at: number) => h.writeBigUInt64LE(BigInt(v), at);
  u64(offsets[0], 8); // root directory
  u64(root.length, 16);
  u64(offsets[1], 24); // metadata
  u64(metadata.length, 32);
  u64(offsets[2], 40); // leaf directories
  u64(leaves.length, 48);
  u64(offsets[3], 56); // tile data
  u64(dataBytes, 64);
  u64(sorted.length, 72); // addressed tiles
  u64(entries.length, 80); // tile entries
  u64(chunks.length, 88); // tile contents
  h.writeUInt8(1, 96); // clustered
  h.writeUInt8(2, 97); // internal compression: gzip
  h.writeUInt8(2, 98); // tile compression: gzip
  h.writeUInt8(options.tileType ?? 1, 99);
  h.writeUInt8(minZoom, 100);
  h.writeUInt8(maxZoom, 101);
  const e7 = (v: number) => Math.round(v * 1e7);
  const [w, s, e, n] = headerBounds(options.bounds);
  h.writeInt32LE(e7(w), 102);
  h.writeInt32LE(e7(s), 106);
  h.writeInt32LE(e7(e), 110);
  h.writeInt32LE(e7(n), 114);
  h.writeUInt8(options.centerZoom ?? minZoom, 118); // centre zoom
  h.writeInt32LE(e7((w + e) / 2), 119);
  h.writeInt32LE(e7((s + n) / 2), 123);
  return Buffer.concat([h, root, metadata, leaves, ...chunks]);
}

/**
 * Returns the data's bounds as a header may state them: longitudes within
 * [-180, 180] and latitudes within [-90, 90] (data out of range, e.g. a
 * latitude of 200, says no more than "to the pole"), so the centre, their
 * midpoint, is a valid position too.
 */
function headerBounds([w, s, e, n]: ArchiveOptions['bounds']): ArchiveOptions['bounds'] {
  const lon = (v: number) => Math.max(-180, Math.min(180, v));
  const lat = (v: number) => Math.max(-90, Math.min(90, v));
  return [lon(w), lat(s), lon(e), lat(n)];
}
