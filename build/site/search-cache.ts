// The search index's records of each country, kept between runs under
// <root>/.cache/geoshelf/search/, one file per country named by a hash of
// the code's identity (build/core/cache.ts: the stamp is in the name) and of
// searchKey() (the country's names and units, the word lists, the runtime). A file is
// the regions line, then one line per shard: "te\t[…],[…]". A missing,
// malformed or truncated file is a miss and the records are made again;
// files no run used are removed when the cache is saved.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../core/atomic-write.ts';
import { codeIdentity } from '../core/cache.ts';
import { cacheDir } from '../core/files.ts';
import type { SearchCache } from './search-index.ts';
import type { CountryRecords } from './search-records.ts';

/** Returns the text of a cache file: the regions as a JSON line, then "shard\trecords" per line. */
function recordsText(records: CountryRecords): string {
  return `${JSON.stringify(records.regions)}\n${records.shards.map(([key, texts]) => `${key}\t${texts}\n`).join('')}`;
}

const SHARD_LINE = /^[a-z0-9_]+\t./;
const CACHE_FILE = /^[0-9a-f]{64}\.txt$/; // not another run's temporary file

/** Returns the records a cache file holds, or undefined when it is not one recordsText() wrote. */
function parseRecords(text: string): CountryRecords | undefined {
  if (!text.endsWith('\n')) return undefined; // empty or cut short
  const [first, ...lines] = text.slice(0, -1).split('\n');
  let regions: unknown;
  try {
    regions = JSON.parse(first);
  } catch {
    return undefined;
  }
  if (!Array.isArray(regions) || !regions.every((r) => typeof r === 'string')) return undefined;
  if (!lines.every((line) => SHARD_LINE.test(line))) return undefined;
  const shards = lines.map((line): [string, string] => {
    const tab = line.indexOf('\t');
    return [line.slice(0, tab), line.slice(tab + 1)];
  });
  return { shards, regions };
}

/**
 * Returns the search cache of `root`, and `save` to write the records made in
 * this run and remove those unused. `identity`: the running code's (codeIdentity).
 */
export function openSearchCache(
  root: string,
  identity = codeIdentity(),
): SearchCache & { save(): Promise<void> } {
  const dir = join(cacheDir(root), 'search');
  const fileOf = (key: string) => `${createHash('sha256').update(`${identity}\n${key}`).digest('hex')}.txt`;
  const used = new Set<string>();
  const made = new Map<string, CountryRecords>();
  return {
    get(key) {
      const file = fileOf(key);
      let text: string;
      try {
        text = readFileSync(join(dir, file), 'utf8');
      } catch {
        return undefined;
      }
      const records = parseRecords(text);
      if (records) used.add(file);
      return records;
    },
    set(key, records) {
      const file = fileOf(key);
      used.add(file);
      made.set(file, records);
    },
    async save() {
      await mkdir(dir, { recursive: true });
      await Promise.all(
        [...made].map(([file, records]) => writeFileAtomic(join(dir, file), recordsText(records))),
      );
      const unused = (await readdir(dir)).filter((file) => CACHE_FILE.test(file) && !used.has(file));
      await Promise.all(unused.map((file) => rm(join(dir, file), { force: true })));
    },
  };
}
