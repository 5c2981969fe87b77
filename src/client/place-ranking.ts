// Matching and ranking of search records (the shards written by
// build/site/search-index.ts): pure functions, unit-tested in Node.
import type { SearchRecord } from '../shared/api.ts';
import { fold, words } from '../shared/fold.ts';

export interface Hit {
  record: SearchRecord;
  score: number; // 0 exact name, 1 a name starts with the query, 2 every query word starts a word
  via: string; // the name that matched, e.g. "UK" for the United Kingdom
}

/** Folded names and their words, computed once per name (a shard is ranked again on every keystroke). */
const folded = new Map<string, { text: string; words: string[] }>();

function foldName(name: string): { text: string; words: string[] } {
  let f = folded.get(name);
  if (!f) {
    const text = fold(name);
    f = { text, words: words(text) };
    folded.set(name, f);
  }
  return f;
}

/** Returns how well `name` matches the folded query (see Hit.score), or -1 when it does not. */
export function matchScore(name: string, query: string, queryWords: string[]): number {
  const { text, words: nameWords } = foldName(name);
  if (text === query) return 0;
  if (text.startsWith(query)) return 1;
  return queryWords.every((q) => nameWords.some((w) => w.startsWith(q))) ? 2 : -1;
}

const KIND_ORDER: Record<string, number> = { c: 0, r: 1, u: 2 };

/** Returns the level's depth for ordering, e.g. "ADM2" → 2; countries (ADM0) come before their units. */
function depth(level: string): number {
  const n = /^ADM(\d)$/.exec(level);
  return n ? Number(n[1]) : 9;
}

/**
 * Returns the records matching `query`, best first: by score (exact name,
 * then prefix, then word prefixes), then countries, regions, then units by
 * level (ADM1 before ADM2), then shorter names, then alphabetically.
 */
export function rank(records: SearchRecord[], query: string): Hit[] {
  const folded = fold(query);
  const queryWords = words(folded);
  if (queryWords.length === 0) return [];
  const hits: Hit[] = [];
  const seen = new Set<string>();
  for (const record of records) {
    let best: Hit | undefined;
    for (const name of record[2].length ? record[2] : [record[1]]) {
      const score = matchScore(name, folded, queryWords);
      if (score >= 0 && (!best || score < best.score)) best = { record, score, via: name };
    }
    const key = `${record[0]} ${record[1]} ${record[6]} ${record[7]}`;
    if (best && !seen.has(key)) {
      seen.add(key);
      hits.push(best);
    }
  }
  return hits.sort(
    (a, b) =>
      a.score - b.score ||
      KIND_ORDER[a.record[0]] - KIND_ORDER[b.record[0]] ||
      depth(a.record[3]) - depth(b.record[3]) ||
      a.record[1].length - b.record[1].length ||
      a.record[1].localeCompare(b.record[1], 'en'),
  );
}
