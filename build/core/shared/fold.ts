// Text folding and the search index's shard keys, shared by the build (which
// writes the shards, build/site/search-index.ts) and the browser (which picks
// the shard to load): no DOM and no Node here, so both sides compute the same key.

/** Returns `text` lowercased without diacritics: "Bío Bío" → "bio bio", "Åland" → "aland". */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();
}

/** Dotted initials, e.g. "d.c." or "u.s.a", whose dots words() drops: "Washington, D.C." reads as "washington dc". */
const INITIALS = /(?<![\p{L}\p{N}])\p{L}(?:\.\p{L})+\.?(?![\p{L}\p{N}])/gu;

/**
 * Returns the words of folded text: "côte d'ivoire" → ["cote", "d", "ivoire"],
 * with dotted initials as one word: "washington, d.c." → ["washington", "dc"].
 */
export function words(folded: string): string[] {
  return folded
    .replace(INITIALS, (initials) => initials.replaceAll('.', ''))
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** The list of the published shards' keys, inside dist/ ("keys" is never a key: keys are two characters or start "_"). */
export const SHARD_LIST = 'search/keys.json';

/** Shortest query word that loads a shard (one letter would load a huge one). */
export const SHARD_PREFIX = 2;

/**
 * Returns the shard a folded word lives in, usable as a file name: its first
 * two characters, ASCII letters and digits as they are, anything else as
 * "_" + hex code point, e.g. "texas" → "te", "東京" → "_6771_4eac".
 */
export function shardKey(word: string): string {
  return [...word]
    .slice(0, SHARD_PREFIX)
    .map((c) => (/[a-z0-9]/.test(c) ? c : `_${c.codePointAt(0)!.toString(16)}`))
    .join('');
}

/**
 * Little words that shard a name only when they begin it: "La Paz" is in the
 * "la" shard, "Santiago de Cuba" is not in "de" (it is in "sa" and "cu").
 * Without this the shards of "de", "la", "di"… hold a large share of every
 * Spanish, Portuguese, Italian and French name. A query skips them when it
 * picks its shards (place-ranking.ts), unless it has no other word.
 */
export const LITTLE_WORDS = new Set([
  ...['de', 'del', 'della', 'delle', 'dei', 'degli', 'des', 'du', 'di', 'da', 'do', 'dos', 'das'],
  ...['la', 'le', 'les', 'los', 'las', 'el', 'lo', 'il', 'of', 'the', 'and', 'y', 'et', 'e', 'und'],
  ...['van', 'von', 'der', 'den', 'en', 'au', 'aux', 'sur'],
]);

/**
 * Returns the shard keys a name is stored under, from its words
 * (`words(fold(name))`, which the caller has for other uses too): one per
 * word of SHARD_PREFIX letters or more, little words only first.
 */
export function nameShardKeys(nameWords: string[]): string[] {
  const keys: string[] = [];
  for (let i = 0; i < nameWords.length; i++) {
    const word = nameWords[i];
    if (word.length < SHARD_PREFIX || (i > 0 && LITTLE_WORDS.has(word))) continue;
    const start = word.slice(0, SHARD_PREFIX);
    const key = PLAIN_KEY.test(start) ? start : shardKey(word); // ASCII letters and digits are their own key
    if (!keys.includes(key)) keys.push(key); // a name has a few words: a list is the cheapest set
  }
  return keys;
}

const PLAIN_KEY = /^[a-z0-9]*$/;

/**
 * Returns where the shard `key` is published inside dist/, in a folder of
 * its first character: "te" → "search/t/te.json", and a key starting with
 * another script by its block of 256 code points, "_6771_4eac" →
 * "search/_67/_6771_4eac.json". A release that changes a few shards makes
 * only their folders again; the others are the previous release's
 * (build/output/write-dist.ts shares identical folders), where one folder
 * of all 2,222 shards was a 70 KB directory made again in every release.
 */
export function shardPath(key: string): string {
  const first = /^_([0-9a-f]+)/.exec(key);
  const folder = first ? `_${(parseInt(first[1]!, 16) >> 8).toString(16)}` : key.slice(0, 1);
  return `search/${folder}/${key}.json`;
}
