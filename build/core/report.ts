// The one reporter (STYLE 5): every command prints its problems through it,
// as text lines on stderr (`FILE: WHERE: message`) or, with --json, as one
// JSON array on stdout, so scripts read the same shape from every command.
import { formatProblem, type Problem } from './problem.ts';

export interface ReportOptions {
  command: string; // e.g. "validate": names a problem that has no file ("geoshelf validate: …")
  json?: boolean; // one JSON array of every problem on stdout instead of text
  perFile?: number; // text only: after this many problems of one file and rule, a count (e.g. 20)
}

/** Where the reporter writes: process streams by default, a buffer in tests. */
export interface Sink {
  out(text: string): void;
  err(text: string): void;
}

export const processSink: Sink = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/** Returns the text lines for `problems`, summarising past `perFile` problems of one file and rule. */
export function problemLines(problems: Problem[], options: ReportOptions): string[] {
  const lines: string[] = [];
  const seen = new Map<string, number>(); // "file\0rule" → problems so far
  for (const p of problems) {
    const key = `${p.file}\0${p.rule}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    if (options.perFile === undefined || n <= options.perFile) {
      lines.push(p.file === '' ? `geoshelf ${options.command}: ${formatProblem(p)}` : formatProblem(p));
    }
  }
  if (options.perFile !== undefined) {
    for (const [key, n] of seen) {
      if (n <= options.perFile) continue;
      const [file, rule] = key.split('\0');
      lines.push(`${file}: … and ${n - options.perFile} more ${rule} problems (all of them with --json)`);
    }
  }
  return lines;
}

/** Prints `problems` (text on stderr, or a JSON array on stdout with `json`). */
export function reportProblems(problems: Problem[], options: ReportOptions, sink: Sink = processSink): void {
  if (options.json) {
    sink.out(`${JSON.stringify(problems, null, 2)}\n`);
    return;
  }
  for (const line of problemLines(problems, options)) sink.err(`${line}\n`);
}

/**
 * Returns the exit code for a run that found `problems`: 1 when any is an
 * error (or, with `strict`, a warning), else 0.
 */
export function exitCodeFor(problems: Problem[], strict = false): 0 | 1 {
  return problems.some((p) => p.severity === 'error' || strict) ? 1 : 0;
}
