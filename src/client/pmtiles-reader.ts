// A small PMTiles v3 reader (the spec's header and directories) for the
// map's own archives: the header and root directory come in the first
// request (16 KiB), leaf directories and tiles on demand, each one HTTP
// Range request; gzip is undone by the browser's DecompressionStream. No
// Node, no DOM beyond fetch: the tests read our archives with it too.
// Rather than the pmtiles package: see ./mvt.ts for the sizes (bench:libraries).
import { tileId } from '../../build/core/shared/tiles.ts';

interface Entry {
  tileId: number;
  offset: number;
  length: number;
  runLength: number;
}

interface Header {
  rootOffset: number;
  rootLength: number;
  leafOffset: number;
  dataOffset: number;
  internalCompression: number;
  tileCompression: number;
}

const FIRST_BYTES = 16_384;

function varint(b: Uint8Array, p: { i: number }): number {
  let v = 0;
  for (let m = 1; ; m *= 128) {
    const byte = b[p.i++];
    if (byte === undefined) throw new Error('truncated PMTiles directory');
    v += (byte & 0x7f) * m;
    if (byte < 0x80) return v;
  }
}

/** Returns the entries of a (decompressed) directory. */
function parseDirectory(b: Uint8Array): Entry[] {
  const p = { i: 0 };
  const n = varint(b, p);
  const entries: Entry[] = [];
  let id = 0;
  for (let i = 0; i < n; i++)
    entries.push({ tileId: (id += varint(b, p)), offset: 0, length: 0, runLength: 0 });
  for (const e of entries) e.runLength = varint(b, p);
  for (const e of entries) e.length = varint(b, p);
  entries.forEach((e, i) => {
    const v = varint(b, p);
    const prev = entries[i - 1];
    e.offset = v === 0 && prev ? prev.offset + prev.length : v - 1;
  });
  return entries;
}

/** Returns the entry holding tile `id`: an exact one, a run covering it, or a leaf directory's (run length 0). */
function find(entries: Entry[], id: number): Entry | undefined {
  let [lo, hi] = [0, entries.length - 1];
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const c = id - entries[mid]!.tileId;
    if (c > 0) lo = mid + 1;
    else if (c < 0) hi = mid - 1;
    else return entries[mid];
  }
  const e = entries[hi];
  if (e && (e.runLength === 0 || id - e.tileId < e.runLength)) return e;
  return undefined;
}

async function inflate(data: ArrayBuffer, compression: number): Promise<Uint8Array> {
  if (compression === 1) return new Uint8Array(data);
  if (compression !== 2) throw new Error(`PMTiles compression ${compression} is not supported`);
  const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export type Fetcher = (offset: number, length: number) => Promise<ArrayBuffer>;

/** Returns a Fetcher of byte ranges of `url`, counting what it moves into `stats.bytes`. */
export function rangeFetcher(url: string, stats: { bytes: number }): Fetcher {
  return async (offset, length) => {
    const r = await fetch(url, { headers: { Range: `bytes=${offset}-${offset + length - 1}` } });
    if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
    const body = await r.arrayBuffer();
    stats.bytes += body.byteLength;
    // A server that ignores Range sends the whole file: take the part asked for.
    return r.status === 200 ? body.slice(offset, offset + length) : body;
  };
}

export class Archive {
  private first: Promise<{ header: Header; root: Entry[] }>;
  private leaves = new Map<number, Promise<Entry[]>>();

  constructor(private read: Fetcher) {
    this.first = read(0, FIRST_BYTES).then(async (buf) => {
      const v = new DataView(buf);
      const text = new TextDecoder().decode(new Uint8Array(buf, 0, 7));
      if (text !== 'PMTiles' || v.getUint8(7) !== 3) throw new Error('not a PMTiles v3 archive');
      const u = (at: number) => Number(v.getBigUint64(at, true));
      const header: Header = {
        rootOffset: u(8),
        rootLength: u(16),
        leafOffset: u(40),
        dataOffset: u(56),
        internalCompression: v.getUint8(97),
        tileCompression: v.getUint8(98),
      };
      const rootBytes = buf.slice(header.rootOffset, header.rootOffset + header.rootLength);
      return { header, root: parseDirectory(await inflate(rootBytes, header.internalCompression)) };
    });
  }

  /** Returns the tile's bytes (decompressed), or undefined when the archive has none there. */
  async tile(z: number, x: number, y: number): Promise<Uint8Array | undefined> {
    const { header } = await this.first;
    const e = await this.entry(tileId(z, x, y));
    if (!e) return undefined;
    return inflate(await this.read(header.dataOffset + e.offset, e.length), header.tileCompression);
  }

  /** Whether the archive stores tile z/x/y (directories only: no tile data is fetched). */
  async has(z: number, x: number, y: number): Promise<boolean> {
    return (await this.entry(tileId(z, x, y))) !== undefined;
  }

  private async entry(id: number): Promise<Entry | undefined> {
    const { header, root } = await this.first;
    let entries = root;
    for (let depth = 0; depth < 4; depth++) {
      const e = find(entries, id);
      if (!e) return undefined;
      if (e.runLength > 0) return e;
      const at = header.leafOffset + e.offset;
      let leaf = this.leaves.get(at);
      if (!leaf) {
        leaf = this.read(at, e.length).then(async (b) =>
          parseDirectory(await inflate(b, header.internalCompression)),
        );
        this.leaves.set(at, leaf);
      }
      entries = await leaf;
    }
    return undefined;
  }
}
