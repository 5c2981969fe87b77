// The validator's nesting check of one manifest: for each level and the
// level above it, the units more than 1 % of whose area lies outside their
// parent, and those with no parent at all (build/identity/nesting.ts). One
// warning per unit (an error when strict), in the unit's GeoJSON file. Only
// files that measured as GeoJSON are read: a missing or malformed file is
// its own problem, and a level above that cannot be read whole checks nothing.
import type { Dataset, Level } from '../core/shared/manifest.ts';
import type { Problem } from '../core/problem.ts';
import type { NestingChecker, HashedFile } from '../identity/nesting-cache.ts';
import type { NestingIssue, UnitRef } from '../identity/nesting.ts';
import { parentLevels } from '../identity/parents.ts';
import type { DataFiles } from './data-files.ts';

/** What the check of one manifest works on. */
export interface NestingContext {
  folder: string; // e.g. "data/earth/CHL/"
  data: DataFiles;
  checker: Pick<NestingChecker, 'check'>;
  strict: boolean;
}

/** The files of a level that can be read, and whether they hold the whole level. */
interface LevelFiles {
  files: HashedFile[];
  whole: boolean;
}

/**
 * Returns the nesting problems of a manifest's datasets (the first dataset of
 * each level; QUAD does not nest), level by level from the top.
 */
export async function checkNesting(context: NestingContext, datasets: Dataset[]): Promise<Problem[]> {
  const byLevel = new Map<Level, Dataset>();
  for (const d of datasets) if (!byLevel.has(d.level)) byLevel.set(d.level, d);
  const above = parentLevels([...byLevel.keys()]);
  const found = await Promise.all(
    [...above].map(async ([level, parentLevel]) => {
      const [files, parents] = await Promise.all([
        levelFiles(context, byLevel.get(level)!),
        levelFiles(context, byLevel.get(parentLevel)!),
      ]);
      if (files.files.length === 0 || !parents.whole) return [];
      const issues = await context.checker.check(files.files, parents.files);
      return issues.map((issue) => nestingProblem(issue, parentLevel, context.strict));
    }),
  );
  return found.flat();
}

/**
 * Returns the readable files of a level: its `path` when it measured as
 * GeoJSON, else its parts that did (a level whose path is missing may still
 * have its units checked part by part, but is not whole).
 */
async function levelFiles({ folder, data }: NestingContext, dataset: Dataset): Promise<LevelFiles> {
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
  const name = (u: UnitRef) => {
    if (u.name && u.code) return `"${u.name}" (${u.code})`;
    if (u.name || u.code) return u.name ? `"${u.name}"` : u.code;
    if (u.file !== unit.file) paths.add(u.file);
    return `${u.file === unit.file ? '' : `${u.file} `}/features/${u.feature}`;
  };
  const named = (u: UnitRef) => u.code || (u.name ? `"${u.name}"` : name(u));
  let message: string;
  if (!parent) message = `${name(unit)} lies outside every unit of ${parentLevel}`;
  else {
    const share = issue.outside >= 1 ? 'entirely' : `${percent(issue.outside)} %`;
    message = `${name(unit)} lies ${share} outside its parent ${named(parent)} (${parentLevel})`;
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

/** Returns a share as a percentage that never reads as the limit it exceeds: 0.0104 → "1.04", 0.034 → "3.4". */
function percent(share: number): string {
  const p = share * 100;
  if (p < 1.05) return (Math.ceil(p * 100) / 100).toFixed(2); // up: 1.001 % is not "1.00"
  return p >= 99.95 ? '99.9' : p.toFixed(1);
}
