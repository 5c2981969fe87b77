// The front page's search index, precomputed at build time and split into
// shards by the first two folded letters of each word (search/t/te.json holds
// every entry with a word starting "te": Texas, Tennessee, Tétouan…), so the
// browser loads one small file per query instead of the whole catalogue.
// Each country's records come from search-records.ts (the names it is found
// by, from world-countries and the subdivision names, are read at build time
// only; the browser gets the shards), or from the records kept the last time
// its input was the same (search-cache.ts).
import type { LoadedManifest } from '../manifest/validate.ts';
import { SHARD_LIST, shardPath } from '../core/shared/fold.ts';
import type { CountryAtlas } from './atlas.ts';
import {
  addRegionRecords,
  countryRecords,
  searchInput,
  searchKey,
  type CountryRecords,
  type SearchInput,
} from './search-records.ts';

/** Country records kept between runs: `get` returns only what `set` stored under the same key in a run of the same code. */
export interface SearchCache {
  get(key: string): CountryRecords | undefined;
  set(key: string, records: CountryRecords): void;
}

/** Returns a country's records from `cache` when it holds them under the input's key, else makes (and keeps) them. */
function recordsOf(input: SearchInput, cache: SearchCache | undefined): CountryRecords {
  if (!cache) return countryRecords(input);
  const key = searchKey(input);
  const kept = cache.get(key);
  if (kept) return kept;
  const made = countryRecords(input);
  cache.set(key, made);
  return made;
}

/**
 * Returns the shards of the search index, keyed by their path inside dist/
 * (e.g. "search/t/te.json", shardPath()): each holds the records with a word in it, listing
 * only the names that have such a word (the rest are in other shards). Words
 * shorter than SHARD_PREFIX ("d" in "Côte d'Ivoire") and little words after
 * a name's first ("de" in "Santiago de Cuba") shard nothing: a query loads
 * the shards of its other words. Records come in catalogue order: each
 * country, its units, and last the M49 regions. SHARD_LIST lists the
 * shards' keys.
 */
export function renderSearchIndex(
  loaded: LoadedManifest[],
  atlas: Map<string, CountryAtlas>,
  cache?: SearchCache,
): Map<string, string> {
  const shards = new Map<string, string[]>(); // shard key → its records' JSON texts (a country's joined by commas)
  const regions = new Map<string, string[]>(); // region → its countries' ISO3 codes
  for (const { file, manifest: m } of loaded) {
    const records = recordsOf(searchInput(m, atlas.get(file)), cache);
    for (const [key, texts] of records.shards) {
      const shard = shards.get(key);
      if (shard) shard.push(texts);
      else shards.set(key, [texts]);
    }
    for (const region of records.regions) {
      const members = regions.get(region);
      if (members) members.push(m.iso_a3);
      else regions.set(region, [m.iso_a3]);
    }
  }
  for (const [region, members] of regions) addRegionRecords(shards, region, members);
  const files = new Map<string, string>();
  const keys = [...shards.keys()].sort();
  for (const key of keys) files.set(shardPath(key), `[${shards.get(key)!.join(',')}]\n`);
  files.set(SHARD_LIST, `${JSON.stringify(keys)}\n`); // a query requests only shards that exist
  return files;
}
