// Text output for geometry problems: a file with thousands of invalid
// features shows the first few, then one line with the count (--json keeps all).
import { formatProblem, type Problem } from '../core/problem.ts';

/** Geometry problems shown per GeoJSON file in text output before the rest are counted. */
export const SHOWN_PER_FILE = 10;

/**
 * Returns the lines to print for `problems`, in order: every problem as
 * `FILE: POINTER: message`, except that after `perFile` geometry problems of
 * one file the rest become one line, e.g. "data/…/USA_ADM2.geojson: 120 more
 * invalid features (validate --json lists every one)".
 */
export function problemLines(problems: Problem[], perFile = SHOWN_PER_FILE): string[] {
  const seen = new Map<string, number>(); // geometry problems per file so far
  const lines: (string | { file: string })[] = [];
  for (const problem of problems) {
    if (problem.rule !== 'geometry') {
      lines.push(formatProblem(problem));
      continue;
    }
    const n = (seen.get(problem.file) ?? 0) + 1;
    seen.set(problem.file, n);
    if (n <= perFile) lines.push(formatProblem(problem));
    else if (n === perFile + 1) lines.push({ file: problem.file }); // filled in below, once counted
  }
  return lines.map((line) => {
    if (typeof line === 'string') return line;
    const more = seen.get(line.file)! - perFile;
    return `${line.file}: ${more} more invalid feature${more === 1 ? '' : 's'} (validate --json lists every one)`;
  });
}
