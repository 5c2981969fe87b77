// Typo tolerance for the place search: when a query finds nothing, each of
// its words that starts no word of the loaded shards' names is replaced by the
// nearest such word ("argentna" → "argentina"), within one edit for words of
// up to five letters and two for longer ones. The shards of a word hold every
// name with a word of the same first two letters, so a slip after them is
// found; pure, unit-tested in Node (test/build/search-index.test.ts).
import type { SearchRecord } from '../../build/core/shared/api.ts';
import { editDistance } from '../../build/core/shared/edit-distance.ts';
import { fold, words } from '../../build/core/shared/fold.ts';

/** Shortest query word corrected: shorter ones are still being typed, or match too much. */
const MIN_LENGTH = 4;

/** Returns the folded words of every name of the loaded shards' records. */
function vocabulary(shards: SearchRecord[][]): Set<string> {
  const out = new Set<string>();
  for (const shard of shards) {
    for (const record of shard) {
      for (const name of [record[1], ...record[2], ...(record[8] ?? [])]) {
        for (const word of words(fold(name))) out.add(word);
      }
    }
  }
  return out;
}

/** Returns the word of `known` nearest `word` (as a whole word, or the start of one being typed), or undefined. */
function nearest(word: string, known: Set<string>): string | undefined {
  const max = word.length <= 5 ? 1 : 2;
  let best: string | undefined;
  let bestDistance = max + 1;
  for (const candidate of known) {
    const d = Math.min(
      editDistance(word, candidate, max),
      candidate.length > word.length ? editDistance(word, candidate.slice(0, word.length), max) : max + 1,
    );
    if (d < bestDistance || (d === bestDistance && best !== undefined && candidate < best)) {
      [best, bestDistance] = [candidate, d];
    }
  }
  return best;
}

/**
 * Returns `query` with its misspelt words replaced by the nearest words of the
 * loaded shards' names ("argentna" → "argentina"), or undefined when no word
 * needed or found a replacement.
 */
export function correctQuery(shards: SearchRecord[][], query: string): string | undefined {
  const known = vocabulary(shards);
  let changed = false;
  const corrected = words(fold(query)).map((word) => {
    if (word.length < MIN_LENGTH) return word;
    for (const w of known) if (w.startsWith(word)) return word;
    const near = nearest(word, known);
    if (near === undefined) return word;
    changed = true;
    return near;
  });
  return changed ? corrected.join(' ') : undefined;
}
