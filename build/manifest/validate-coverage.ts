// The validator's coverage check of one manifest (build/coverage/): for
// each level of two or more units, their overlaps, narrow gaps and edges that do not match,
// one problem each in the level's GeoJSON file (a warning, an error when
// strict), with a `detail` for --json; and the level's figures. Only files
// that measured as GeoJSON are read, as the nesting check does.
import type { Problem } from '../core/problem.ts';
import type { Body, Dataset, Level } from '../core/shared/manifest.ts';
import type { CoverageChecker, LevelCoverage, LevelFinding } from '../coverage/cache.ts';
import { countFindings } from '../coverage/coverage.ts';
import type { UnitRef } from '../identity/nesting.ts';
import { parentLevels } from '../identity/parents.ts';
import type { DataFiles } from './data-files.ts';
import { levelFiles } from './validate-nesting.ts';
import type { LevelCoverageFigures } from '../core/shared/api.ts';

/** What the check of one manifest works on. */
export interface CoverageContext {
  folder: string; // e.g. "data/earth/CHL/"
  data: DataFiles;
  checker: Pick<CoverageChecker, 'check'>;
  body: Body;
  gapWidthM: number;
  strict: boolean;
}

/** What the check of one manifest found: problems, and each level's figures. */
export interface ManifestCoverage {
  problems: Problem[];
  figures: Map<Level, LevelCoverageFigures>;
}

/** Returns the coverage problems and figures of a manifest's levels (the first dataset of each; QUAD is a grid of its own). */
export async function checkCoverage(
  context: CoverageContext,
  datasets: Dataset[],
): Promise<ManifestCoverage> {
  const byLevel = new Map<Level, Dataset>();
  for (const d of datasets) if (d.level !== 'QUAD' && !byLevel.has(d.level)) byLevel.set(d.level, d);
  const above = parentLevels([...byLevel.keys()]);
  const problems: Problem[] = [];
  const figures = new Map<Level, LevelCoverageFigures>();
  const checked = await Promise.all(
    [...byLevel].map(async ([level, dataset]) => {
      const files = await levelFiles(context, dataset);
      if (files.files.length === 0 || !files.whole) return undefined;
      // One unit has no neighbour to overlap or leave a gap with (its own holes are its outline's).
      if ((await unitCount(context, dataset)) <= 1) return undefined;
      const parentLevel = above.get(level);
      const parents = parentLevel ? await levelFiles(context, byLevel.get(parentLevel)!) : undefined;
      const settings = { body: context.body, gapWidthM: context.gapWidthM };
      const coverage = await context.checker.check(
        files.files,
        parents?.whole ? parents.files : [],
        settings,
      );
      return { level, coverage };
    }),
  );
  for (const found of checked) {
    if (!found) continue;
    figures.set(found.level, figuresOf(found.coverage, context.gapWidthM));
    problems.push(...found.coverage.findings.map((f) => coverageProblem(f, context.strict)));
  }
  return { problems, figures };
}

/** Returns the features of a level as measured (its file's, or its parts' added up). */
async function unitCount({ folder, data }: CoverageContext, dataset: Dataset): Promise<number> {
  const paths = dataset.path !== undefined ? [dataset.path] : (dataset.parts ?? []).map((p) => p.path);
  let n = 0;
  for (const path of paths) {
    const found = await data.stats(folder, path);
    n += 'stats' in found ? found.stats.features : 0;
  }
  return n;
}

/** Returns a level's figures as the API publishes them. */
function figuresOf(coverage: LevelCoverage, gapWidthM: number): LevelCoverageFigures {
  const counts = countFindings(coverage.findings.map((f) => ({ ...f, units: [] })));
  return {
    units: coverage.units,
    gap_width_m: gapWidthM,
    overlaps: { count: counts.overlaps, area_m2: round(counts.overlapAreaM2) },
    gaps: { count: counts.gaps, area_m2: round(counts.gapAreaM2) },
    edges: counts.edges,
  };
}

const round = (m2: number) => Math.round(m2 * 10) / 10;

/**
 * Returns the problem of one finding, e.g. `overlap of 2.31 km² between
 * "Maipo" (CL-RM-MA) and "Puente Alto" (CL-RM-PA) near -70.61,-33.45`.
 */
export function coverageProblem(finding: LevelFinding, strict: boolean): Problem {
  const [first] = finding.units;
  const file = first!.file;
  const paths = new Set<string>();
  const names = finding.units.map((u) => unitName(u, file, paths));
  const near = `near ${finding.point.map((v) => v.toFixed(5).replace(/\.?0+$/, '')).join(',')}`;
  let message: string;
  if (finding.kind === 'overlap') {
    message = `overlap of ${area(finding.areaM2)} between ${list(names)} ${near}`;
  } else if (finding.kind === 'gap') {
    const between = names.length === 1 ? `inside ${names[0]}` : `between ${list(names)}`;
    message = `gap of ${area(finding.areaM2)} (${length(finding.widthM)} wide) ${between} ${near}`;
  } else {
    const over = finding.lengthM ? ` over ${length(finding.lengthM)}` : '';
    const slivers = finding.areaM2 > 0 ? `, slivers of ${area(finding.areaM2)} between them` : '';
    message = `edges of ${list(names)} do not match vertex for vertex${over}${slivers} ${near}`;
  }
  return {
    file,
    pointer: `/features/${first!.feature}`,
    rule: 'coverage',
    severity: strict ? 'error' : 'warning',
    message,
    ...(paths.size > 0 && { paths: [...paths] }),
    detail: {
      kind: finding.kind,
      features: finding.units.map((u) => `${u.file === file ? '' : `${u.file}#`}/features/${u.feature}`),
      area_m2: round(finding.areaM2),
      point: finding.point.map((v) => Math.round(v * 1e7) / 1e7) as [number, number],
    },
  };
}

/** Returns e.g. `"Maipo" (CL-RM-MA)`, `CL-RM-MA` or `/features/3` (with its file when not `file`). */
function unitName(u: UnitRef, file: string, paths: Set<string>): string {
  if (u.name && u.code) return `"${u.name}" (${u.code})`;
  if (u.name || u.code) return u.name ? `"${u.name}"` : u.code;
  if (u.file !== file) paths.add(u.file);
  return `${u.file === file ? '' : `${u.file} `}/features/${u.feature}`;
}

/** Returns "A and B" or "A, B and C". */
function list(names: string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** Returns an area as people read it: "2.31 km²", "850 m²", "0.4 m²". */
function area(m2: number): string {
  if (m2 >= 10_000) return `${(m2 / 1e6).toFixed(m2 >= 1e8 ? 0 : 2)} km²`;
  return m2 >= 10 ? `${Math.round(m2)} m²` : `${m2.toPrecision(2)} m²`;
}

/** Returns a length as people read it: "3.2 km", "85 m", "0.012 m". */
function length(m: number): string {
  if (m >= 1000) return `${(m / 1000).toFixed(1)} km`;
  return m >= 10 ? `${Math.round(m)} m` : `${m.toPrecision(2)} m`;
}
