// "Did you mean …?" for an unknown command or flag: the nearest known name by
// edit distance, when it is close enough to be what was meant.

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
    const d = distance(typed.toLowerCase(), known.toLowerCase());
    if (d <= Math.max(1, Math.floor(typed.length / 3)) && d < bestDistance)
      [best, bestDistance] = [answer, d];
  }
  return best;
}

/** Returns the optimal string alignment distance between `a` and `b`. */
export function distance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}
