// Reading the record chunks a release's release.json names (ledger_version 2
// and 3; in 4 through index chunks): each chunk is read once however many releases name it, checked
// against its sha256 and, once per list it is read as, against the shape of
// that list's items (build/release/ledger-shapes.ts). Lists are joined from
// their chunks only when first read: most releases' lists are never read.
import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { problem, type Problem } from '../core/problem.ts';
import { checkList, chunkName, type Check } from './ledger-shapes.ts';
import { LEDGER_OPEN, unreadable, type StoredObject } from './object-store.ts';
import { sha256Bytes, type RecordChunk } from './record-chunks.ts';

/** A ledger problem: rule `ledger`, at `file` (e.g. "data/releases/2026.11/release.json"). */
export function ledgerProblem(file: string, message: string, pointer = ''): Problem {
  return { ...problem(file, message, { rule: 'ledger' }), pointer };
}

/** A record chunk as read: its items, and what checks derived from them, each once however many releases name it. */
export class Chunk implements RecordChunk {
  private derived = new Map<string, unknown>(); // what → its value

  constructor(
    readonly sha256: string,
    readonly items: readonly unknown[],
  ) {}

  /** Returns `derive` of the items, derived once; `what` names the derivation. */
  derive<T, R>(what: string, derive: (items: readonly T[]) => R): R {
    if (!this.derived.has(what)) this.derived.set(what, derive(this.items as readonly T[]));
    return this.derived.get(what) as R;
  }
}

/**
 * Gives `object` its property `key` as the items of `chunks` one after the
 * other, joined when first read and from then on a plain property.
 */
export function joinedWhenRead<O extends object>(
  object: O,
  key: keyof O & string,
  chunks: readonly Chunk[],
): void {
  const plain = (value: unknown) =>
    Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  Object.defineProperty(object, key, {
    enumerable: true,
    configurable: true,
    get: () => {
      const items = ([] as unknown[]).concat(...chunks.map((c) => c.items));
      plain(items);
      return items;
    },
    set: plain,
  });
}

/** Chunks larger than this are damage, not records (the largest the sample writes is a few kB). */
const MAX_CHUNK_BYTES = 64 << 20;

/**
 * Reads record chunks, each once however many releases name it (most name
 * the same ones), checking each against its sha256. Synchronously: a ledger
 * holds about a thousand small chunks, read several times faster so than
 * through the thread pool.
 */
export class ChunkReader {
  private read = new Map<string, Chunk | string>(); // sha256 → the chunk, or what is wrong with it

  constructor(
    private root: string,
    private stored: Map<string, StoredObject>,
  ) {}

  /**
   * Returns the chunks of `shas` in order, or undefined (with one problem at
   * `file`, `pointer`, into `problems`) when `shas` is not a list of sha256s,
   * a chunk is lost or damaged, or an item is not what `item` accepts (the
   * first such, by index); `kind` names the list, e.g. "registry".
   */
  list(
    file: string,
    pointer: string,
    shas: unknown,
    [kind, item]: [string, Check],
    problems: Problem[],
  ): Chunk[] | undefined {
    if (!Array.isArray(shas) || !shas.every((s) => typeof s === 'string' && /^[0-9a-f]{64}$/.test(s))) {
      problems.push(ledgerProblem(file, 'expected a list of sha256s', pointer));
      return undefined;
    }
    const chunks: Chunk[] = [];
    for (const [i, sha] of (shas as string[]).entries()) {
      let got = this.read.get(sha);
      if (got === undefined) {
        got = this.load(sha);
        this.read.set(sha, got);
      }
      const wrong =
        typeof got === 'string' ? got : got.derive(`shape:${kind}`, (items) => checkList(items, item));
      if (wrong !== undefined) {
        const where = typeof got === 'string' ? wrong : `${this.stored.get(sha)!.path}: ${wrong}`;
        problems.push(ledgerProblem(file, where, `${pointer}/${i}`));
        return undefined;
      }
      chunks.push(got as Chunk);
    }
    return chunks;
  }

  /**
   * ledger_version 4: `shas` names index chunks, each a list of the
   * sha256s of the list's own chunks, in order (so that release.json stays
   * small however large the catalogue); returns the chunks they name, as
   * list() does. A damaged index chunk is named as any chunk is.
   */
  indexed(
    file: string,
    pointer: string,
    shas: unknown,
    list: [string, Check],
    problems: Problem[],
  ): Chunk[] | undefined {
    const index = this.list(file, pointer, shas, ['index', chunkName], problems);
    if (!index) return undefined;
    const chunks: Chunk[] = [];
    for (const [i, { items }] of index.entries()) {
      const named = this.list(file, `${pointer}/${i}`, items, list, problems); // a problem at /chunks/LIST/I/J
      if (!named) return undefined;
      chunks.push(...named);
    }
    return chunks;
  }

  private load(sha: string): Chunk | string {
    const object = this.stored.get(sha);
    if (!object) return `the ledger lost the record chunk ${sha} (in no release folder's records/)`;
    let bytes: Buffer;
    try {
      bytes = this.bytes(join(this.root, object.path));
      if (object.encoding === 'br') bytes = brotliDecompressSync(bytes);
    } catch (error) {
      return `${object.path} ${unreadable(error)}`;
    }
    if (sha256Bytes(bytes) !== sha) return `${object.path} is damaged: its sha256 is not its name`;
    try {
      const items = JSON.parse(bytes.toString('utf8')) as unknown;
      return Array.isArray(items) ? new Chunk(sha, items) : `${object.path} is not a JSON array`;
    } catch (error) {
      return `${object.path} is not JSON: ${(error as Error).message}`;
    }
  }

  private scratch = Buffer.allocUnsafe(1 << 16);

  /** Returns the bytes of the file `path`, read into a buffer kept from one chunk to the next (valid until the next read). */
  private bytes(path: string): Buffer {
    const fd = openSync(path, LEDGER_OPEN);
    try {
      let n = 0;
      for (let got; (got = readSync(fd, this.scratch, n, this.scratch.length - n, null)) > 0;) {
        n += got;
        if (n > MAX_CHUNK_BYTES) throw new Error(`larger than ${MAX_CHUNK_BYTES} bytes`);
        if (n === this.scratch.length) {
          const larger = Buffer.allocUnsafe(2 * n);
          this.scratch.copy(larger);
          this.scratch = larger;
        }
      }
      return this.scratch.subarray(0, n);
    } finally {
      closeSync(fd);
    }
  }
}
