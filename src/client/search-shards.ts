// The search index's shards (search/{x}/{key}.json, shardPath()), fetched once each and kept
// for the page's life: typing "santiago chile" letter by letter fetches "sa"
// once, then "ch" once. The list of published shards (search/keys.json) is
// fetched once too, so a query whose words start no name ("xyzzy") requests
// nothing: no 404, no console error.
import type { SearchRecord } from '../../build/core/shared/api.ts';
import { SHARD_LIST, shardPath } from '../../build/core/shared/fold.ts';

const shards = new Map<string, Promise<SearchRecord[]>>();
let published: Promise<ReadonlySet<string> | undefined> | undefined;

/** Returns a shard's records, fetched once; a missing shard (no word starts so) is empty. */
function loadShard(base: string, key: string): Promise<SearchRecord[]> {
  let shard = shards.get(key);
  if (!shard) {
    shard = fetch(`${base}${shardPath(key)}`)
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

/**
 * Returns the keys of the published shards, fetched once (the search box
 * asks when it gets focus, before the first letter); undefined when the list
 * cannot be had, and then every shard a query names is requested.
 */
export function publishedKeys(base: string): Promise<ReadonlySet<string> | undefined> {
  published ??= fetch(`${base}${SHARD_LIST}`)
    .then((r) => (r.ok ? (r.json() as Promise<string[]>) : undefined))
    .then((keys) => (Array.isArray(keys) ? new Set(keys) : undefined))
    .catch(() => {
      published = undefined; // offline for a moment: ask again on the next keystroke
      return undefined;
    });
  return published;
}
