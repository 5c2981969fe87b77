// A release's records as the ledger's second record format stores them: its
// files, levels, unit registry and published files, each list cut into chunks
// at content-defined boundaries (after an item whose key hashes to 0 modulo
// `every`, as rsync and restic cut files at rolling-hash boundaries), each
// chunk stored once across releases as records/SHA256.json. A release that
// changes one country writes only the chunks that hold that country's items;
// its release.json names the others, which earlier releases wrote. Before,
// each release rewrote every record whole (about 2 MB for the sample).
import { hash } from 'node:crypto';

/** The chunk file of a sha256, relative to the release folder that first wrote it. */
export function chunkName(sha256: string): string {
  return `records/${sha256}.json`;
}

/** The pattern of a chunk's file name in records/; group 1 is its sha256. */
export const CHUNK_FILE = /^([0-9a-f]{64})\.json$/;

/**
 * Cuts `items` (in the order they are recorded) into runs whose ends depend
 * only on the items' keys: an insertion or a change moves at most the
 * boundaries next to it. A run also ends after `4 × every` items, so that no
 * chunk grows without bound when no key happens to end one.
 */
export function cutChunks<T>(items: readonly T[], key: (item: T) => string, every: number): T[][] {
  const chunks: T[][] = [];
  let run: T[] = [];
  for (const item of items) {
    run.push(item);
    const h = Number.parseInt(hash('sha256', key(item), 'hex').slice(0, 8), 16); // its first 32 bits, without a Buffer
    if (h % every === 0 || run.length >= 4 * every) {
      chunks.push(run);
      run = [];
    }
  }
  if (run.length) chunks.push(run);
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
