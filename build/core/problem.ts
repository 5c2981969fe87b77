// The one shape of a problem (STYLE 5), for every stage and command: which
// file, where in it, which rule, how bad, and what is wrong.
import type { Rule } from './rules.ts';

export type { Rule } from './rules.ts';

export type Severity = 'error' | 'warning';

export interface Problem {
  file: string; // e.g. "data/earth/ARG/manifest.json"; "" when no file is involved (a flag)
  pointer?: string; // JSON pointer into the file, e.g. "/datasets/0/path"
  line?: number; // 1-based line of a line-oriented file (CSV), e.g. 12
  byte?: number; // byte offset of a malformed file, e.g. 1204
  rule: Rule; // e.g. "file-missing"; listed in build/core/rules.ts
  severity: Severity;
  message: string; // says what is wrong, naming the data file when it is about one
}

/** Returns an error-severity problem; `where` adds a pointer, line or byte offset. */
export function problem(
  file: string,
  message: string,
  where: Partial<Omit<Problem, 'file' | 'message'>> = {},
): Problem {
  return { file, rule: 'input', severity: 'error', ...where, message };
}

/**
 * Returns the problem as one line: `FILE: POINTER: message` (or `FILE:LINE:
 * message` for a line-oriented file, as compilers print it, and `FILE: byte
 * N: message` for a malformed one), just `FILE: message` for the whole file;
 * warnings say so (`FILE: POINTER: warning: message`). A problem with no file
 * is its message alone (the CLI's reporter names the command before it).
 */
export function formatProblem(p: Problem): string {
  const where =
    p.pointer !== undefined && p.pointer !== ''
      ? p.pointer
      : p.byte !== undefined && p.line === undefined
        ? `byte ${p.byte}`
        : undefined;
  const file = p.file === '' ? undefined : p.line !== undefined ? `${p.file}:${p.line}` : p.file;
  const parts = [file, where, p.severity === 'warning' ? 'warning' : undefined];
  return [...parts.filter((part) => part !== undefined), p.message].join(': ');
}

/** Returns whether any of `problems` is an error (warnings alone do not fail a run). */
export function hasErrors(problems: Problem[]): boolean {
  return problems.some((p) => p.severity === 'error');
}
