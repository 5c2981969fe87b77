// The search index's shards (search/{key}.json), fetched once each and kept
// for the page's life: typing "santiago chile" letter by letter fetches "sa"
// once, then "ch" once.
import type { SearchRecord } from '../../build/core/shared/api.ts';

const shards = new Map<string, Promise<SearchRecord[]>>();

/** Returns a shard's records, fetched once; a missing shard (no word starts so) is empty. */
function loadShard(base: string, key: string): Promise<SearchRecord[]> {
  let shard = shards.get(key);
  if (!shard) {
    shard = fetch(`${base}search/${key}.json`)
      .then((r) => (r.ok ? (r.json() as Promise<SearchRecord[]>) : []))
      .catch(() => {
        shards.delete(key); // offline for a moment: try again on the next keystroke
        return [];
      });
    shards.set(key, shard);
  }
  return shard;
}

/** Returns the records of the shards `keys`, each shard's list apart (see rank()). */
export function loadShards(base: string, keys: string[]): Promise<SearchRecord[][]> {
  return Promise.all(keys.map((key) => loadShard(base, key)));
}
