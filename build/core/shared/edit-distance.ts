// The one edit distance, for "did you mean": the CLI's unknown commands and
// flags (src/cli/suggest.ts) and the place search's typo tolerance
// (src/client/did-you-mean.ts). No DOM and no Node here.

/**
 * Returns the optimal-string-alignment distance of `a` and `b` (insertions,
 * deletions, substitutions and swaps of two neighbours count one each), or
 * `max + 1` as soon as it is sure to exceed `max`.
 */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let least = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, before[j - 2]! + 1);
      row.push(d);
      least = Math.min(least, d);
    }
    // A row's least value never falls in the rows below: past `max` here, past it at the end.
    if (least > max) return max + 1;
    [before, previous] = [previous, row];
  }
  return Math.min(previous[b.length]!, max + 1);
}
