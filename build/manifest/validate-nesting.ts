// The validator's nesting check of one manifest: for each level and the
// level above it, one summary (issue 29 §2): how much of the level above its
// units cover, how much of their area lies outside their parents, and the
// units furthest out (build/identity/nesting.ts). Levels drawn at other
// scales (a coarse ADM0 outline) leave many units a few percent out, so a
// unit gets a line of its own only where no coarse outline explains it: it
// lies entirely outside its parent (or every unit of the level above), or
// its data files it under a parent while it lies mostly in another. With
// `verbose`, every unit more than 1 % out gets its line. Warnings (errors
// when strict), in the level's GeoJSON file. Only files that measured as
// GeoJSON are read: a missing or malformed file is its own problem, and a
// level above that cannot be read whole checks nothing.
import type { Dataset, Level } from '../core/shared/manifest.ts';
import type { NestingFigures } from '../core/shared/api.ts';
import type { Problem } from '../core/problem.ts';
import type { NestingChecker, HashedFile } from '../identity/nesting-cache.ts';
import { NESTING_LIMIT, type NestingIssue, type NestingSummary, type UnitRef } from '../identity/nesting.ts';
import { parentLevels } from '../identity/parents.ts';
import type { DataFiles } from './data-files.ts';

/** What the check of one manifest works on. */
export interface NestingContext {
  folder: string; // e.g. "data/earth/CHL/"
  data: DataFiles;
  checker: Pick<NestingChecker, 'checkLevel'>;
  strict: boolean;
  verbose?: boolean; // a line for every unit more than 1 % outside its parent
}

/** The files of a level that can be read, and whether they hold the whole level. */
export interface LevelFiles {
  files: HashedFile[];
  whole: boolean;
}

/** What the check of one manifest found: problems, and each level's figures against the level above. */
export interface ManifestNesting {
  problems: Problem[];
  figures: Map<Level, NestingFigures>;
}

/** Units named in a summary, furthest out first. */
const WORST = 3;

/**
 * Returns the nesting problems of a manifest's datasets (the first dataset of
 * each level; QUAD does not nest), level by level from the top, and each level's figures.
 */
export async function checkNesting(context: NestingContext, datasets: Dataset[]): Promise<ManifestNesting> {
  const byLevel = new Map<Level, Dataset>();
  for (const d of datasets) if (!byLevel.has(d.level)) byLevel.set(d.level, d);
  const above = parentLevels([...byLevel.keys()]);
  const problems: Problem[] = [];
  const figures = new Map<Level, NestingFigures>();
  const found = await Promise.all(
    [...above].map(async ([level, parentLevel]) => {
      const [files, parents] = await Promise.all([
        levelFiles(context, byLevel.get(level)!),
        levelFiles(context, byLevel.get(parentLevel)!),
      ]);
      if (files.files.length === 0 || !parents.whole) return undefined;
      return {
        level,
        parentLevel,
        files,
        nesting: await context.checker.checkLevel(files.files, parents.files),
      };
    }),
  );
  for (const f of found) {
    if (!f) continue;
    const { issues, summary } = f.nesting;
    const own = issues.filter((i) => context.verbose || ownLine(i));
    problems.push(...own.map((issue) => nestingProblem(issue, f.parentLevel, context.strict)));
    const summarised = issues.filter((i) => !own.includes(i));
    // Only units outside make a warning: a level that covers part of the one above (ADM2 for
    // some provinces only) is common and says so in its figures.
    if (f.files.whole && summarised.length > 0) {
      problems.push(
        summaryProblem(
          f.files.files[0]!.path,
          f.level,
          f.parentLevel,
          summary,
          issues,
          summarised,
          context.strict,
        ),
      );
    }
    if (f.files.whole) figures.set(f.level, figuresOf(f.parentLevel, summary, issues.length));
  }
  return { problems, figures };
}

/** Whether a unit keeps a line of its own: entirely outside, or lying mostly in another parent than its data's. */
function ownLine(issue: NestingIssue): boolean {
  return issue.outside >= 1 || issue.mostlyIn !== undefined;
}

function figuresOf(parentLevel: Level, s: NestingSummary, unitsOutside: number): NestingFigures {
  const share = (x: number) => Math.round(x * 1e4) / 1e4;
  return {
    parent_level: parentLevel,
    parent_covered: share(s.parentArea > 0 ? Math.min(1, s.covered / s.parentArea) : 1),
    outside: share(s.area > 0 ? Math.max(0, 1 - s.inside / s.area) : 0),
    units_outside: unitsOutside,
  };
}

/**
 * Returns the one warning about a pair of levels, e.g. `ADM1 in ADM0: the 47
 * units cover 97.9 % of ADM0, 3.1 % of their area lies outside their parents;
 * 34 units lie more than 1 % outside, most "Nagasaki" (JP-42) 24.1 %, …
 * (each with validate --verbose)`.
 */
function summaryProblem(
  file: string,
  level: Level,
  parentLevel: Level,
  s: NestingSummary,
  issues: NestingIssue[],
  summarised: NestingIssue[],
  strict: boolean,
): Problem {
  const covered = s.parentArea > 0 ? Math.min(1, s.covered / s.parentArea) : 1;
  const outside = s.area > 0 ? Math.max(0, 1 - s.inside / s.area) : 0;
  let message =
    `${level} in ${parentLevel}: the ${s.units} units cover ${share(covered)} % of ${parentLevel}, ` +
    `${share(outside)} % of their area lies outside their parents`;
  if (issues.length > 0) {
    const worst = [...summarised].sort((a, b) => b.outside - a.outside).slice(0, WORST);
    const names = worst.map((i) => `${name(i.unit, file, new Set())} ${percent(i.outside)} %`);
    message += `; ${issues.length} ${issues.length === 1 ? 'unit lies' : 'units lie'} more than ${NESTING_LIMIT * 100} % outside`;
    if (names.length > 0) message += `, most ${names.join(', ')}`;
    if (summarised.length > 0) message += ' (each with validate --verbose)';
  }
  return { file, rule: 'nesting', severity: strict ? 'error' : 'warning', message };
}

/** Returns a share as a percentage with one decimal that never reads as 100 or 0 when it is not. */
function share(x: number): string {
  const p = x * 100;
  if (p > 99.95 && p < 100) return '99.9';
  if (p > 0 && p < 0.05) return '< 0.1';
  return p.toFixed(1);
}

/**
 * Returns the readable files of a level: its `path` when it measured as
 * GeoJSON, else its parts that did (a level whose path is missing may still
 * have its units checked part by part, but is not whole).
 */
export async function levelFiles(
  { folder, data }: Pick<NestingContext, 'folder' | 'data'>,
  dataset: Dataset,
): Promise<LevelFiles> {
  const usable = async (path: string): Promise<HashedFile | undefined> => {
    const found = await data.stats(folder, path);
    if (!('stats' in found)) return undefined;
    const state = await data.state(path);
    return state.kind === 'file' ? { path, real: state.real, sha256: found.stats.sha256 } : undefined;
  };
  if (dataset.path !== undefined) {
    const file = await usable(dataset.path);
    if (file) return { files: [file], whole: true };
  }
  const parts = await Promise.all((dataset.parts ?? []).map((part) => usable(part.path)));
  const files = parts.filter((f) => f !== undefined);
  const whole = dataset.path === undefined && parts.length > 0 && files.length === parts.length;
  return { files, whole };
}

/** Returns the warning about one unit, e.g. `"Valparaíso" (CL-VS) lies 1.4 % outside its parent CHL (ADM0)`. */
function nestingProblem(issue: NestingIssue, parentLevel: Level, strict: boolean): Problem {
  const { unit, parent } = issue;
  const paths = new Set<string>();
  const named = (u: UnitRef) => u.code || (u.name ? `"${u.name}"` : name(u, unit.file, paths));
  let message: string;
  if (!parent) message = `${name(unit, unit.file, paths)} lies outside every unit of ${parentLevel}`;
  else {
    const share = issue.outside >= 1 ? 'entirely' : `${percent(issue.outside)} %`;
    message = `${name(unit, unit.file, paths)} lies ${share} outside its parent ${named(parent)} (${parentLevel})`;
    if (issue.mostlyIn) message += `; it lies mostly in ${named(issue.mostlyIn)}`;
  }
  // "unassigned": the code split gives units in no unit of the level above (build/split/split.ts).
  if (issue.by === 'overlap' && issue.parentCode && issue.parentCode !== 'unassigned') {
    message += ` (its parent code ${issue.parentCode} names no unit of ${parentLevel})`;
  }
  return {
    file: unit.file,
    pointer: `/features/${unit.feature}`,
    rule: 'nesting',
    severity: strict ? 'error' : 'warning',
    message,
    ...(paths.size > 0 && { paths: [...paths] }),
  };
}

/** Returns e.g. `"Valparaíso" (CL-VS)`, `CL-VS` or `/features/3` (with its file, added to `paths`, when not `file`). */
function name(u: UnitRef, file: string, paths: Set<string>): string {
  if (u.name && u.code) return `"${u.name}" (${u.code})`;
  if (u.name || u.code) return u.name ? `"${u.name}"` : u.code;
  if (u.file !== file) paths.add(u.file);
  return `${u.file === file ? '' : `${u.file} `}/features/${u.feature}`;
}

/** Returns a share as a percentage that never reads as the limit it exceeds: 0.0104 → "1.04", 0.034 → "3.4". */
function percent(share: number): string {
  const p = share * 100;
  if (p < 1.05) return (Math.ceil(p * 100) / 100).toFixed(2); // up: 1.001 % is not "1.00"
  return p >= 99.95 ? '99.9' : p.toFixed(1);
}
