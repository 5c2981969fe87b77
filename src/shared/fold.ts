// Text folding and the search index's shard keys, shared by the build (which
// writes the shards, build/site/search-index.ts) and the browser (which picks
// the shard to load): no DOM and no Node here, so both sides compute the same key.

/** Returns `text` lowercased without diacritics: "Bío Bío" → "bio bio", "Åland" → "aland". */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();
}

/** Returns the words of folded text: "côte d'ivoire" → ["cote", "d", "ivoire"]. */
export function words(folded: string): string[] {
  return folded.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

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
