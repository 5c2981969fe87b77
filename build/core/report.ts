// The one reporter (STYLE 5): every command prints its problems through it,
// as text lines on stderr (`FILE: WHERE: message`) or, with --json, as one
// JSON array on stdout, so scripts read the same shape from every command.
// Either way, files are named from the current folder (see shownProblem).
import { formatProblem, shownPath, shownProblem, type Problem } from './problem.ts';

export interface ReportOptions {
  command: string; // e.g. "validate": names a problem that has no file ("geoshelf validate: …")
  json?: boolean; // one JSON array of every problem on stdout instead of text
  perFile?: number; // text only: after this many problems of one file and rule, a count (e.g. 20)
  root?: string; // the --root the user gave, e.g. "../boundaries": files relative to it are shown from here
}

/** Where the reporter writes: process streams by default, a buffer in tests. */
export interface Sink {
  out(text: string): void;
  err(text: string): void;
}

const processSink: Sink = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/**
 * Returns the text lines for `problems`: warnings first, then the errors
 * apart (after a blank line), so the problems that fail a run are the last
 * read, beside the summary; within each, after `perFile` problems of one file
 * and rule, a count.
 */
export function problemLines(problems: Problem[], options: ReportOptions): string[] {
  const warnings = linesOf(
    problems.filter((p) => p.severity === 'warning'),
    options,
  );
  const errors = linesOf(
    problems.filter((p) => p.severity === 'error'),
    options,
  );
  return warnings.length > 0 && errors.length > 0 ? [...warnings, '', ...errors] : [...warnings, ...errors];
}

function linesOf(problems: Problem[], options: ReportOptions): string[] {
  const lines: string[] = [];
  const seen = new Map<string, number>(); // "file\0rule" → problems so far
  for (const p of problems) {
    const key = `${p.file}\0${p.rule}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    if (options.perFile === undefined || n <= options.perFile) {
      const line = formatProblem(shownProblem(p, options.root));
      lines.push(p.file === '' ? `geoshelf ${options.command}: ${line}` : line);
    }
  }
  if (options.perFile !== undefined) {
    for (const [key, n] of seen) {
      if (n <= options.perFile) continue;
      const [file, rule] = key.split('\0');
      const more = n - options.perFile;
      lines.push(
        `${shownPath(file!, options.root)}: … and ${more} more ${rule} problems (all of them with --json)`,
      );
    }
  }
  return lines;
}

/**
 * Prints `problems`: text on stderr, or with `json` a JSON array on stdout of
 * {file, pointer | line | byte, rule, severity, message}, with the same file
 * and message as the text (named from the current folder, the fix in the message).
 */
export function reportProblems(problems: Problem[], options: ReportOptions, sink: Sink = processSink): void {
  if (options.json) {
    const shown = problems.map((p) => shownProblem(p, options.root));
    sink.out(`${JSON.stringify(shown, null, 2)}\n`);
    return;
  }
  const lines = problemLines(problems, options);
  // One write: a tree with thousands of warnings would otherwise make a system call per line.
  if (lines.length > 0) sink.err(`${lines.join('\n')}\n`);
}

/**
 * Returns the count of `problems` for a run's last line, e.g. "3 problems in
 * 2 files" or, when there are warnings, "67 problems in 25 files (1 error, 66 warnings)".
 */
export function problemSummary(problems: Problem[]): string {
  const files = new Set(problems.map((p) => p.file)).size;
  const warnings = problems.filter((p) => p.severity === 'warning').length;
  const errors = problems.length - warnings;
  const split =
    warnings === 0
      ? ''
      : ` (${errors === 0 ? '' : `${plural(errors, 'error')}, `}${plural(warnings, 'warning')})`;
  return `${plural(problems.length, 'problem')} in ${plural(files, 'file')}${split}`;
}

/**
 * Returns how many of `problems` each rule has, most first, e.g. "139 nesting,
 * 66 geometry": which kinds a long list holds, so a publisher's own few stand out.
 */
export function ruleCounts(problems: Problem[]): string {
  const counts = new Map<string, number>();
  for (const p of problems) counts.set(p.rule, (counts.get(p.rule) ?? 0) + 1);
  return [...counts]
    .sort(([a, m], [b, n]) => n - m || a.localeCompare(b))
    .map(([rule, n]) => `${n} ${rule}`)
    .join(', ');
}

/** Returns e.g. "1 manifest" or "7 manifests". */
export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/**
 * Returns the exit code for a run that found `problems`: 1 when any is an
 * error (or, with `strict`, a warning), else 0.
 */
export function exitCodeFor(problems: Problem[], strict = false): 0 | 1 {
  return problems.some((p) => p.severity === 'error' || strict) ? 1 : 0;
}
