// Whether the units of one level lie in their parents (issue 18: "units more
// than 1 % of whose area lies outside their parent are a nesting problem"):
// each unit's parent is found as a release finds parent_id
// (build/identity/parents.ts), and the share of the unit's area outside it is
// measured exactly (build/identity/overlap.ts). Areas are planar in the
// file's coordinates, as GEOS measures them.
import { ParentFinder } from './parents.ts';
import { eachLevelUnit, type LevelReader, type LevelUnit } from './level.ts';

/** A unit more than this share of whose area lies outside its parent is a nesting problem. */
export const NESTING_LIMIT = 0.01;

/** One file of a level: as the manifest names it (e.g. "data/earth/CHL/CHL_ADM1.geojson"), and where to read it. */
export interface LevelFile {
  path: string;
  real: string;
  sha256?: string; // of its bytes, when known: a LevelReader then reads it once for several checks
}

/** A unit, by where it is and what it is called ("" when the data has no code or name). */
export interface UnitRef {
  file: string; // as the manifest names it
  feature: number; // index in that file's features
  code: string;
  name: string;
}

/** A unit that does not lie in its parent. */
export interface NestingIssue {
  unit: UnitRef;
  parentCode: string; // the data's parent code (parentISO), "" when none
  parent?: UnitRef; // none: the unit meets no unit of the level above (and its parent code names none)
  by: 'code' | 'overlap';
  outside: number; // share of the unit's area outside `parent`, 0…1 (1 without a parent)
  mostlyIn?: UnitRef; // a parent by code it mostly lies outside: the unit it overlaps most, when another
}

/**
 * How a level lies in the level above, over all its units (areas planar, in
 * coordinate units²): validate's one summary per pair of levels.
 */
export interface NestingSummary {
  units: number; // units with area
  area: number; // their total area
  inside: number; // the part of it inside each unit's parent
  covered: number; // the part of it inside any unit of the level above
  parentArea: number; // the level above's total area
}

/** What the nesting check of a level finds: the units outside their parents, and the summary. */
export interface LevelNesting {
  issues: NestingIssue[];
  summary: NestingSummary;
}

/**
 * Returns the units of `files` (one level, or the parts of it that can be
 * read) more than NESTING_LIMIT of whose area lies outside their parent in
 * `parentFiles` (the whole level above), and those with no parent at all.
 * The level above is held in memory; the level's own units are read one at a
 * time. Units without area are left to the geometry rule.
 */
export async function checkLevelNesting(
  files: LevelFile[],
  parentFiles: LevelFile[],
  codeKey?: string, // the property holding each unit's code (release --code-key), else the usual ones
): Promise<NestingIssue[]> {
  return (await measureLevelNesting(files, parentFiles, codeKey)).issues;
}

/**
 * Returns what checkLevelNesting does, and the level's summary: how much of
 * its area lies in its units' parents, how much in the level above at all,
 * and that level's area (so the share of the parent level its units cover).
 */
export async function measureLevelNesting(
  files: LevelFile[],
  parentFiles: LevelFile[],
  codeKey?: string,
  reader?: LevelReader, // files read once for several checks (they must carry their sha256)
): Promise<LevelNesting> {
  const each = async (file: LevelFile, visit: (u: LevelUnit, feature: number) => void) => {
    if (reader && file.sha256) (await reader.units(file.real, file.sha256, codeKey)).forEach(visit);
    else await eachLevelUnit(file.real, visit, codeKey);
  };
  const parents: LevelUnit[] = [];
  const parentRefs: UnitRef[] = [];
  for (const file of parentFiles) {
    await each(file, (u, feature) => {
      parents.push(u);
      parentRefs.push(refOf(file, u, feature));
    });
  }
  const finder = new ParentFinder(parents);
  const issues: NestingIssue[] = [];
  const summary: NestingSummary = { units: 0, area: 0, inside: 0, covered: 0, parentArea: 0 };
  for (const p of parents) summary.parentArea += p.shape?.area ?? 0;
  for (const file of files) {
    await each(file, (u, feature) => {
      if (!u.shape) return;
      const { parent, by, inside, covered } = finder.find(u, true);
      const outside = Math.min(1, Math.max(0, 1 - inside / u.shape.area));
      summary.units++;
      summary.area += u.shape.area;
      summary.inside += Math.min(inside, u.shape.area);
      summary.covered += Math.min(covered ?? inside, u.shape.area);
      if (parent >= 0 && outside <= NESTING_LIMIT) return;
      const issue: NestingIssue = { unit: refOf(file, u, feature), parentCode: u.parent, by, outside };
      if (parent >= 0) issue.parent = parentRefs[parent]!;
      if (by === 'code') {
        // Named by the data but mostly elsewhere: say where (e.g. a district filed under the wrong province).
        const best = finder.largestOverlap(u);
        if (best.parent >= 0 && best.parent !== parent && best.inside > inside)
          issue.mostlyIn = parentRefs[best.parent];
      }
      issues.push(issue);
    });
  }
  return { issues, summary };
}

function refOf(file: LevelFile, u: LevelUnit, feature: number): UnitRef {
  return { file: file.path, feature, code: u.code, name: u.name };
}
