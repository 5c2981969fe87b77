// The ledger's stored bytes: each distinct content once, named by the
// sha256 of its bytes. Small contents that compress are kept in packs, as
// git keeps objects: one brotli stream per country (`objects/pack-ID.br`,
// its members listed in `objects/pack-ID.json` with their sha256, offset and
// length), so that what a country's files share (a preview and its level,
// the coordinates a GeoPackage and a FlatGeobuf both hold) is stored once.
// A large content is kept alone (`objects/SHA.br`, streamed), and one that
// is compressed already, such as a zip or a tile archive, as it is
// (`objects/SHA`). Earlier ledgers stored contents raw (`site/SHA`,
// ledger_version 2) or gzipped (`objects/SHA.geojson.gz`, the first layout);
// all are read alike. Every read is checked against the name: a damaged
// object is a ledger problem, never published, never compared with.
import { constants as fsConstants, createReadStream, createWriteStream } from 'node:fs';
import { open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createHash, hash } from 'node:crypto';
import {
  brotliCompress,
  brotliDecompressSync,
  constants,
  createBrotliCompress,
  createBrotliDecompress,
  createGunzip,
  gunzipSync,
} from 'node:zlib';
import { promisify } from 'node:util';

/** How a stored object's bytes are kept: alone (as they are, or compressed), or in a pack. */
export type Encoding = 'raw' | 'br' | 'gzip' | 'pack';

/** Where one content lives in the ledger. */
export type StoredObject =
  | { path: string; encoding: 'raw' | 'br' | 'gzip' } // e.g. "data/releases/2026.11/objects/8ab2….br"
  | { path: string; encoding: 'pack'; offset: number; bytes: number }; // bytes [offset, offset + bytes) of the unpacked stream

/** The file names of stored objects in each release folder, and how each is kept. */
export const OBJECT_FILES: { sub: string; name: RegExp; encoding: Exclude<Encoding, 'pack'> }[] = [
  { sub: 'objects', name: /^[0-9a-f]{64}\.br$/, encoding: 'br' },
  { sub: 'objects', name: /^[0-9a-f]{64}$/, encoding: 'raw' },
  { sub: 'objects', name: /^[0-9a-f]{64}\.geojson\.gz$/, encoding: 'gzip' }, // the first layout's level files
  { sub: 'site', name: /^[0-9a-f]{64}$/, encoding: 'raw' }, // ledger_version 2
];

/**
 * brotli's quality for stored contents: 7. Since a release holds GeoPackage,
 * FlatGeobuf and GeoParquet (binary doubles, much alike across formats) the
 * quality counts: the sample's first release holds 41.0 MB at 5 and 39.2 MB
 * at 7 (1.54× and 1.47× data/earth; the USA's 39 MB pack 6.15 → 4.93 MB
 * for 2.1 → 3.7 s of CPU); 9 saves 7 % more for three times 7's time.
 */
const QUALITY = 7;
/** The largest window: 16 MiB reaches across a country's files (docs/releases.md, "What a release costs"). */
const MAX_WINDOW_BITS = 24;

/**
 * Returns brotli's parameters for a stream of `length` bytes at `quality`:
 * a window just large enough to hold the whole stream (at most
 * MAX_WINDOW_BITS). A window larger than the stream finds nothing more, yet
 * the encoder sets up tables for all of it: at quality 9 a record chunk of
 * 4 kB took 9.2 ms with the default 4 MiB window and 0.36 ms with 8 kB
 * (and 8 bytes less); at 7 a 450 kB level 58 → 39 ms, the same bytes.
 */
export function brotliParams(quality: number, length: number): Record<number, number> {
  // A window of 2^bits holds 2^bits − 16 bytes; brotli takes 10 to 24 bits.
  const bits = Math.min(MAX_WINDOW_BITS, Math.max(10, Math.ceil(Math.log2(length + 16))));
  return {
    [constants.BROTLI_PARAM_QUALITY]: quality,
    [constants.BROTLI_PARAM_LGWIN]: bits,
    [constants.BROTLI_PARAM_SIZE_HINT]: length,
  };
}
/** Content is stored compressed only when that saves at least this share of its bytes. */
const WORTH = 0.05;
/** Contents up to this size go into packs; larger ones are stored alone, streamed. */
export const PACKED_MAX = 16 << 20;
/** A pack holds at most this many bytes, unpacked: one is read whole, into memory. */
export const PACK_MAX = 48 << 20;
/** A pack's index file in objects/; group 1 names the pack. */
export const PACK_INDEX = /^pack-([0-9a-f]{64})\.json$/;

const compress = promisify(brotliCompress);

/** A stored object whose bytes are not those its name says, or that cannot be read: `file` (from the root) and `reason`. */
export class DamagedObject extends Error {
  constructor(
    readonly file: string, // e.g. "data/releases/2026.11/objects/pack-1c3f….br"
    readonly reason: string, // e.g. "is damaged: its sha256 is not its name"
  ) {
    super(`${file} ${reason}`);
  }
}

/**
 * How a ledger's files are opened: never through a symbolic link. A ledger
 * arrives through pull requests, and git carries links: one to /dev/zero
 * would be read for ever, one to a file outside the root would be read as
 * the ledger's.
 */
export const LEDGER_OPEN = fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW;

/** Returns the bytes of the ledger file `path`, opened as LEDGER_OPEN says. */
async function readLedgerFile(path: string): Promise<Buffer> {
  const file = await open(path, LEDGER_OPEN);
  try {
    return await file.readFile();
  } finally {
    await file.close();
  }
}

/** Returns what is wrong with a ledger file that could not be read, from the error: missing, a link, or the error's message. */
export function unreadable(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'is missing';
  if (code === 'ELOOP') return 'is a symbolic link: a ledger holds files only';
  return `is damaged: ${(error as Error).message}`;
}

/**
 * Returns whether `head` (a file's first bytes) begins a format that holds
 * compressed data already: zip, gzip, PMTiles, PNG, JPEG. Those are stored
 * as they are.
 */
export function compressedAlready(head: Uint8Array): boolean {
  const starts = (...bytes: number[]) => bytes.every((b, i) => head[i] === b);
  return (
    starts(0x50, 0x4b, 0x03, 0x04) || // zip
    starts(0x50, 0x4b, 0x05, 0x06) || // an empty zip
    starts(0x1f, 0x8b) || // gzip
    starts(0x50, 0x4d, 0x54, 0x69, 0x6c, 0x65, 0x73) || // "PMTiles"
    starts(0x89, 0x50, 0x4e, 0x47) || // PNG
    starts(0xff, 0xd8, 0xff) // JPEG
  );
}

/**
 * Writes `contents`, whose sha256 is `sha256`, as a new object in the folder
 * `dir` (a staged release's objects/), compressed when that pays, and
 * returns its file name there.
 */
export async function writeObject(dir: string, sha256: string, contents: Buffer): Promise<string> {
  if (!compressedAlready(contents.subarray(0, 8))) {
    const packed = await compress(contents, { params: brotliParams(QUALITY, contents.length) });
    if (packed.length <= (1 - WORTH) * contents.length) {
      await writeFile(join(dir, `${sha256}.br`), packed);
      return `${sha256}.br`;
    }
  }
  await writeFile(join(dir, sha256), contents);
  return sha256;
}

/**
 * Stores the file `source` as a new object in `dir`, and returns its name
 * there and the sha256 of the bytes read, which the caller compares with
 * what it expects (the file may change while it is read): streamed, so a
 * file of any size takes bounded memory. A file that does not compress is
 * stored again as it is.
 */
export async function writeObjectFromFile(
  dir: string,
  source: string,
): Promise<{ name: string; sha256: string; bytes: number }> {
  const { size } = await stat(source); // over PACKED_MAX: the largest window (a hint; the stream is measured as read)
  if (size <= PACKED_MAX) {
    const whole = await readFile(source);
    const sha256 = hash('sha256', whole, 'hex');
    return { name: await writeObject(dir, sha256, whole), sha256, bytes: whole.length };
  }
  const head = Buffer.alloc(8);
  const fd = await open(source, 'r');
  try {
    await fd.read(head, 0, head.length, 0);
  } finally {
    await fd.close();
  }
  const hasher = createHash('sha256');
  let bytes = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      hasher.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  const temp = join(dir, `.incoming-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const packed = !compressedAlready(head);
  try {
    if (packed)
      await pipeline(
        createReadStream(source),
        tap,
        createBrotliCompress({ params: brotliParams(QUALITY, size) }),
        createWriteStream(temp),
      );
    else await pipeline(createReadStream(source), tap, createWriteStream(temp));
    const sha256 = hasher.digest('hex');
    const name = packed ? `${sha256}.br` : sha256;
    await rename(temp, join(dir, name));
    return { name, sha256, bytes };
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** One member of a pack: its sha256, where it starts in the unpacked stream, and its length. */
export type PackMember = [sha256: string, offset: number, bytes: number];

/**
 * Writes `members` (each content and its sha256, in the order that keeps
 * alike contents near: a country's files by path) as one pack in `dir`, and
 * returns the pack's file name (its index names it: "pack-ID.json").
 */
export async function writePack(
  dir: string,
  members: { sha256: string; contents: Buffer }[],
): Promise<string> {
  const index: PackMember[] = [];
  let offset = 0;
  for (const { sha256, contents } of members) {
    index.push([sha256, offset, contents.length]);
    offset += contents.length;
  }
  const stream = Buffer.concat(
    members.map((m) => m.contents),
    offset,
  );
  const packed = await compress(stream, { params: brotliParams(QUALITY, stream.length) });
  const text = `${JSON.stringify({ pack: 1, members: index })}\n`;
  const id = hash('sha256', text, 'hex');
  await writeFile(join(dir, `pack-${id}.br`), packed);
  await writeFile(join(dir, `pack-${id}.json`), text); // last: a pack is listed only once it is whole
  return `pack-${id}.br`;
}

/**
 * Returns the members of the pack whose index is `text`, or what is wrong
 * with it: a ledger arrives through pull requests, so an index is checked
 * like any record (sha256s, whole offsets and lengths, in order, within
 * PACK_MAX). A member's bytes are checked against its sha256 when read.
 */
export function packMembers(text: string): PackMember[] | string {
  let index: unknown;
  try {
    index = JSON.parse(text);
  } catch (error) {
    return `not JSON: ${(error as Error).message}`;
  }
  const members = (index as { members?: unknown } | null)?.members;
  if ((index as { pack?: unknown } | null)?.pack !== 1 || !Array.isArray(members)) {
    return 'expected {"pack": 1, "members": [[sha256, offset, bytes], …]}';
  }
  let end = 0;
  for (const [i, m] of members.entries()) {
    const ok =
      Array.isArray(m) &&
      m.length === 3 &&
      typeof m[0] === 'string' &&
      /^[0-9a-f]{64}$/.test(m[0]) &&
      m[1] === end &&
      Number.isSafeInteger(m[2]) &&
      m[2] >= 0 &&
      m[1] + m[2] <= PACK_MAX;
    if (!ok) return `members/${i}: expected [sha256, offset, bytes], each member right after the one before`;
    end += m[2] as number;
  }
  return members as PackMember[];
}

/** Packs read lately, unpacked, by path: a build reads every member of a pack, and unpacks it once. */
const unpackedPacks = new Map<string, Promise<Buffer>>();
/** How many unpacked packs are kept (each at most PACK_MAX bytes). */
const KEPT_PACKS = 4;

/** Returns the unpacked stream of the pack at `path` (under `root`), read once while it stays among the last few. */
function unpackedPack(root: string, path: string): Promise<Buffer> {
  const key = join(root, path);
  let got = unpackedPacks.get(key);
  if (got) {
    unpackedPacks.delete(key); // most recently used last
  } else {
    got = readLedgerFile(key).then((packed) => brotliDecompressSync(packed, { maxOutputLength: PACK_MAX }));
    got.catch(() => unpackedPacks.delete(key));
  }
  unpackedPacks.set(key, got);
  while (unpackedPacks.size > KEPT_PACKS) unpackedPacks.delete(unpackedPacks.keys().next().value!);
  return got;
}

/**
 * Returns the bytes of the object `sha256` stored at `object` under `root`,
 * checked against the name; throws DamagedObject (naming the file) when they
 * are not, or when it cannot be decompressed.
 */
export async function readObject(root: string, sha256: string, object: StoredObject): Promise<Buffer> {
  let bytes: Buffer;
  try {
    if (object.encoding === 'pack') {
      const stream = await unpackedPack(root, object.path);
      if (object.offset + object.bytes > stream.length)
        throw new Error('the pack is shorter than its index says');
      bytes = stream.subarray(object.offset, object.offset + object.bytes);
    } else {
      const stored = await readLedgerFile(join(root, object.path));
      bytes =
        object.encoding === 'br'
          ? brotliDecompressSync(stored)
          : object.encoding === 'gzip'
            ? gunzipSync(stored)
            : stored;
    }
  } catch (error) {
    throw new DamagedObject(object.path, unreadable(error));
  }
  if (hash('sha256', bytes, 'hex') !== sha256) {
    throw new DamagedObject(object.path, 'is damaged: its sha256 is not its name');
  }
  return bytes;
}

/**
 * Writes the object `sha256` to the new file `dest`, streamed (bounded
 * memory for a file of any size) and checked against its name; on a
 * mismatch, deletes `dest` and throws DamagedObject.
 */
export async function copyObjectTo(
  root: string,
  sha256: string,
  object: StoredObject,
  dest: string,
): Promise<void> {
  if (object.encoding === 'pack') {
    await writeFile(dest, await readObject(root, sha256, object));
    return;
  }
  const hasher = createHash('sha256');
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      hasher.update(chunk);
      done(null, chunk);
    },
  });
  try {
    const source = createReadStream('', { fd: await open(join(root, object.path), LEDGER_OPEN) });
    if (object.encoding === 'raw') await pipeline(source, tap, createWriteStream(dest));
    else {
      const decode = object.encoding === 'br' ? createBrotliDecompress() : createGunzip();
      await pipeline(source, decode, tap, createWriteStream(dest));
    }
  } catch (error) {
    await rm(dest, { force: true });
    throw new DamagedObject(object.path, unreadable(error));
  }
  if (hasher.digest('hex') !== sha256) {
    await rm(dest, { force: true });
    throw new DamagedObject(object.path, 'is damaged: its sha256 is not its name');
  }
}
