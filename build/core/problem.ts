// The one shape of a problem (STYLE 5), for every stage and command: which
// file, where in it, which rule, how bad, and what is wrong; and how it is
// shown to a user who may have named the data's root with --root.
import { isAbsolute, join, normalize } from 'node:path';
import type { Rule } from './rules.ts';

type Severity = 'error' | 'warning';

export interface Problem {
  file: string; // e.g. "data/earth/ARG/manifest.json"; "" when no file is involved (a flag)
  pointer?: string; // JSON pointer into the file, e.g. "/datasets/0/path"
  line?: number; // 1-based line of a line-oriented file (CSV), e.g. 12
  column?: number; // 1-based column on that line, where a file's syntax breaks (malformed JSON), e.g. 7
  byte?: number; // byte offset of a malformed file, e.g. 1204
  rule: Rule; // e.g. "file-missing"; listed in build/core/rules.ts
  severity: Severity;
  message: string; // says what is wrong, naming the data file when it is about one
  // Files `message` names on disk, relative to the root as `file` is (e.g.
  // ["data/earth/CHL/CHL_ADM1.geojson"]): shown as `file` is. Not manifest values.
  paths?: string[];
  // A geoshelf command that fixes it, run on the same root, e.g. ["manifest", "CHL"]:
  // shown after the message as "(run: geoshelf manifest CHL)", with --root when one was given.
  fix?: string[];
  // What a finding measured, for scripts (--json only; the message says it in words).
  detail?: ProblemDetail;
}

/**
 * A coverage problem's measurements (rule `coverage`): which kind of defect,
 * the units involved as JSON pointers into `file` (or "FILE#POINTER" for a
 * unit of another file of the level), its area in m² on the body's sphere
 * (0 for edges that do not match without area between them) and a
 * [lon, lat] inside it.
 */
interface CoverageDetail {
  kind: 'overlap' | 'gap' | 'edge';
  features: string[]; // e.g. ["/features/3", "/features/7"]
  area_m2: number;
  point: [number, number];
}

/** The details a problem may carry (one kind so far). */
type ProblemDetail = CoverageDetail;

/** Returns an error-severity problem; `where` adds a pointer, line or byte offset. */
export function problem(
  file: string,
  message: string,
  where: Partial<Omit<Problem, 'file' | 'message'>> = {},
): Problem {
  return { file, rule: 'input', severity: 'error', ...where, message };
}

/**
 * Returns `file`, a path relative to `root` as the user gave it (e.g.
 * "../boundaries"), as a path that names the same file from the current
 * folder (e.g. "../boundaries/data/earth/CHL/manifest.json"). Absolute paths,
 * paths when the root is the current folder, and "" are returned as they are.
 */
export function shownPath(file: string, root = '.'): string {
  if (file === '' || isHere(root) || isAbsolute(file)) return file;
  return join(root, file);
}

/** Returns whether `root` is the current folder ("", ".", "./"). */
function isHere(root: string): boolean {
  return root === '' || normalize(root) === '.' || normalize(root) === './';
}

/**
 * Returns the problem as the user reads it from the current folder: its
 * `file` and the `paths` its message names relative to `root` (the root as
 * the user gave it, e.g. "../boundaries"), its `fix` appended to the message
 * with that --root. The result has neither `paths` nor `fix`.
 */
export function shownProblem(p: Problem, root = '.'): Problem {
  const { paths, fix, ...shown } = p;
  const here = isHere(root);
  shown.file = shownPath(p.file, root);
  if (paths && paths.length > 0 && !here) {
    // One pass, longest first, whole paths only: a path inside another is not shown twice.
    const names = [...new Set(paths)].sort((a, b) => b.length - a.length).map(escapeRegExp);
    const pattern = new RegExp(`(?<=^|[\\s(])(?:${names.join('|')})(?=$|[\\s,;:)])`, 'g');
    shown.message = shown.message.replace(pattern, (path) => shownPath(path, root));
  }
  if (fix) {
    const [command, ...args] = fix;
    const rooted = here ? [] : ['--root', root];
    shown.message += ` (run: ${['geoshelf', command!, ...rooted, ...args].map(shellWord).join(' ')})`;
  }
  return shown;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Returns `word` as a shell reads it back: as is when plain, else in single quotes. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/**
 * Returns the problem as one line: `FILE: POINTER: message` (or `FILE:LINE:
 * message` for a line-oriented file, as compilers print it, and `FILE: byte
 * N: message` for a malformed one), just `FILE: message` for the whole file;
 * warnings say so (`FILE: POINTER: warning: message`). A problem with no file
 * is its message alone (the CLI's reporter names the command before it).
 * Its fix is shown after the message; for a run under --root, format
 * `shownProblem(problem, root)` instead.
 */
export function formatProblem(problem: Problem): string {
  const p = shownProblem(problem);
  const where =
    p.pointer !== undefined && p.pointer !== ''
      ? p.pointer
      : p.byte !== undefined && p.line === undefined
        ? `byte ${p.byte}`
        : undefined;
  const line = p.line === undefined ? '' : p.column === undefined ? `:${p.line}` : `:${p.line}:${p.column}`;
  const file = p.file === '' ? undefined : `${p.file}${line}`;
  const parts = [file, where, p.severity === 'warning' ? 'warning' : undefined];
  return [...parts.filter((part) => part !== undefined), p.message].join(': ');
}

/** Returns whether any of `problems` is an error (warnings alone do not fail a run). */
export function hasErrors(problems: Problem[]): boolean {
  return problems.some((p) => p.severity === 'error');
}
