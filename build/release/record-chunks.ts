// A release's records as the ledger's second record format stores them: its
// files, levels, unit registry and published files, each list cut into chunks
// at content-defined boundaries (after an item whose key hashes to 0 modulo
// `every`, as rsync and restic cut files at rolling-hash boundaries), each
// chunk stored once across releases as records/SHA256.json. A release that
// changes one country writes only the chunks that hold that country's items;
// its release.json names the others, which earlier releases wrote. Before,
// each release rewrote every record whole (about 2 MB for the sample).
import { hash } from 'node:crypto';
import { codeIdentity, readCacheFile, saveCacheFile } from '../core/cache.ts';
import { isObject } from '../core/json-value.ts';

/** A record chunk as the ledger holds it: the items of records/SHA256.json. */
export interface RecordChunk {
  sha256: string;
  items: readonly unknown[];
}

/** Items whose JSON is longer than this many characters are chunks of their own (a level's thousands of IDs). */
const LARGE_ITEM = 4096;

/** Whether an item is large: a change next to it must not store it again (USA's 3,142 IDs beside Uruguay's file). */
const large = (item: unknown): boolean =>
  item !== undefined && (JSON.stringify(item)?.length ?? 0) > LARGE_ITEM;

/**
 * Cuts `items` (in the order they are recorded) into runs whose ends depend
 * only on the items: an insertion or a change moves at most the boundaries
 * next to it. A run also ends after `4 × every` items, so that no chunk
 * grows without bound when no key happens to end one, and a large item is
 * a run of its own, so that a change beside it does not store it again.
 */
export function cutChunks<T>(items: readonly T[], key: (item: T) => string, every: number): T[][] {
  return cutChunksKnowing(items, key, every, []).map((cut) => cut.items);
}

/**
 * cutChunks, where a chunk equal to one of `known` (chunks this code cut
 * with the same `key` and `every`: no key but the last of each ends a run)
 * is found without hashing its keys but the last, and returned with it.
 */
export function cutChunksKnowing<T>(
  items: readonly T[],
  key: (item: T) => string,
  every: number,
  known: readonly RecordChunk[],
): { items: T[]; known?: RecordChunk }[] {
  const ends = (item: T) => Number.parseInt(hash('sha256', key(item), 'hex').slice(0, 8), 16) % every === 0; // its first 32 bits, without a Buffer
  const starts = new Map<string, RecordChunk>(); // by the key of its first item
  for (const chunk of known) {
    const first = chunk.items[0]; // as the ledger holds it: anything
    if (typeof first === 'object' && first !== null) starts.set(key(first as T), chunk);
  }
  const chunks: { items: T[]; known?: RecordChunk }[] = [];
  for (let i = 0; i < items.length;) {
    const was = starts.get(key(items[i]!));
    const end = i + (was?.items.length ?? 0);
    if (
      was &&
      end > i &&
      end <= items.length &&
      (end - i === 4 * every ||
        end === items.length ||
        ends(items[end - 1]!) ||
        large(items[end - 1]) ||
        large(items[end])) &&
      was.items.every((item, k) => sameJson(items[i + k], item))
    ) {
      chunks.push({ items: items.slice(i, end), known: was });
      i = end;
      continue;
    }
    const run: T[] = [];
    while (i < items.length) {
      if (run.length > 0 && large(items[i])) break; // a large item is a chunk of its own
      const item = items[i++]!;
      run.push(item);
      if (ends(item) || run.length >= 4 * every || large(item)) break;
    }
    chunks.push({ items: run });
  }
  return chunks;
}

/** A chunk's stored text: a JSON array, one item per line, so that git shows and packs changes by line. */
export function chunkText(items: readonly unknown[]): string {
  return `[\n${items.map((item) => JSON.stringify(item)).join(',\n')}\n]\n`;
}

/** Returns the sha256 of `text` as UTF-8, e.g. of a chunk's text: the name it is stored under. */
export function sha256Text(text: string): string {
  return hash('sha256', text, 'hex');
}

/** Returns the sha256 of `bytes`, e.g. of a chunk file as read. */
export function sha256Bytes(bytes: Buffer): string {
  return hash('sha256', bytes, 'hex');
}

/**
 * Returns whether JSON.stringify(`made`) is JSON.stringify(`read`), `read`
 * being a value JSON.parse gave, without writing either: equal primitives,
 * or arrays or plain objects with the same keys in the same order (a key of
 * `made` holding undefined, a function or a symbol is left out, as JSON
 * leaves it) and the same values. False when unsure (e.g. a class instance,
 * or a toJSON method), which only costs writing the text.
 */
export function sameJson(made: unknown, read: unknown): boolean {
  if (made === read) return true; // the same value, or object (-0 and 0 are both "0"; NaN is never equal)
  if (typeof made !== 'object' || typeof read !== 'object' || made === null || read === null) return false;
  if (Array.isArray(made)) {
    if (!Array.isArray(read) || made.length !== read.length) return false;
    for (let i = 0; i < made.length; i++) if (!sameJson(made[i], read[i])) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(made) as unknown;
  if (Array.isArray(read) || (proto !== Object.prototype && proto !== null) || 'toJSON' in made) return false;
  // Keys and values in the order JSON writes them, taken whole (no look-up by a key each).
  const keys = Object.keys(made);
  const values = Object.values(made);
  const readKeys = Object.keys(read);
  const readValues = Object.values(read);
  let k = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
    if (readKeys[k] !== keys[i] || (value !== readValues[k] && !sameJson(value, readValues[k]))) return false;
    k++;
  }
  return k === readKeys.length;
}

/** The lists of a release's record, each cut into chunks. */
export type RecordList = 'files' | 'levels' | 'registry' | 'site' | 'changes';

/** Returns an empty set of made chunks for each list. */
export function noMadeChunks(): MadeChunks {
  return { files: new Set(), levels: new Set(), registry: new Set(), site: new Set(), changes: new Set() };
}

/** The chunks this code cut and wrote for each list (a cache, e.g. .cache/geoshelf/release-chunks.json). */
export type MadeChunks = Record<RecordList, Set<string>>;

/**
 * Returns the chunks the made-chunks file lists for each list, when this
 * code wrote it (its stamp: build/core/cache.ts); none when it is missing,
 * damaged, or another code's (which may cut or write chunks otherwise).
 * What it says of a chunk is a fact about its content, which its name fixes.
 */
export async function readMadeChunks(file: string): Promise<MadeChunks> {
  const made = noMadeChunks();
  const { data: lists } = await readCacheFile(file, {}, isObject);
  for (const list of Object.keys(made) as RecordList[]) {
    const shas = lists[list];
    if (Array.isArray(shas)) for (const sha of shas) if (typeof sha === 'string') made[list].add(sha);
  }
  return made;
}

/** Writes the made-chunks file: the chunks this code cut and wrote (or found so) for each list. */
export async function saveMadeChunks(file: string, made: MadeChunks): Promise<void> {
  const lists = Object.fromEntries(Object.entries(made).map(([list, shas]) => [list, [...shas]]));
  await saveCacheFile({ file, stamp: codeIdentity(), data: lists });
}
