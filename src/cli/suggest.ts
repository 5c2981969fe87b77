// "Did you mean …?" for an unknown command or flag: the nearest known name by
// edit distance, when it is close enough to be what was meant.
import { editDistance } from '../../build/core/shared/edit-distance.ts';

/**
 * Returns the candidate nearest to `word` (Damerau–Levenshtein distance:
 * insertions, deletions, substitutions and swaps of two neighbours, any
 * letter case), if within a third of the word's length (at least 1); e.g.
 * "jsn" → "json", "valdiate" → "validate", "frobnicate" → undefined.
 */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  return nearestOf(candidates.map((candidate) => [word, candidate, candidate]));
}

/**
 * Returns the answer of the closest close-enough [typed, known, answer]
 * triple (as `nearest` measures), e.g. ["imprt", "import", "locations import"].
 */
export function nearestOf<T>(pairs: [typed: string, known: string, answer: T][]): T | undefined {
  let best: T | undefined;
  let bestDistance = Infinity;
  for (const [typed, known, answer] of pairs) {
    const d = editDistance(typed.toLowerCase(), known.toLowerCase());
    if (d <= Math.max(1, Math.floor(typed.length / 3)) && d < bestDistance)
      [best, bestDistance] = [answer, d];
  }
  return best;
}
