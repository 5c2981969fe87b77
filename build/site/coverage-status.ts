// The coverage figures the catalogue shows per level (country page, JSON
// API): how its units fit together as validate measured them (overlaps,
// gaps, edges that do not match, nesting in the level above). One lookup and
// one wording for the page and the API alike.
import type { LevelCoverageFigures } from '../core/shared/api.ts';
export { isCleanCoverage } from '../core/shared/api.ts';
import type { Dataset, Manifest } from '../core/shared/manifest.ts';

/** Coverage figures by level, e.g. "earth/CHL/ADM1" (validateManifests' `coverage`). */
export type CoverageByLevel = ReadonlyMap<string, LevelCoverageFigures>;

/** Returns the key of a manifest's level in CoverageByLevel, e.g. "earth/CHL/ADM1". */
function coverageKey(m: Pick<Manifest, 'body' | 'iso_a3'>, level: string): string {
  return `${m.body}/${m.iso_a3}/${level}`;
}

/**
 * Returns the figures of a manifest's dataset: those of its level when it is
 * the level's first dataset (the one validate checks), else undefined.
 */
export function datasetCoverage(
  m: Manifest,
  d: Dataset,
  byLevel: CoverageByLevel | undefined,
): LevelCoverageFigures | undefined {
  if (!byLevel || m.datasets.find((x) => x.level === d.level) !== d) return undefined;
  return byLevel.get(coverageKey(m, d.level));
}

/** Returns an area as people read it: "2.31 km²", "850 m²", "0 m²". */
function describeArea(m2: number): string {
  if (m2 >= 10_000) return `${(m2 / 1e6).toFixed(m2 >= 1e8 ? 0 : 2)} km²`;
  return `${m2 >= 10 || m2 === 0 ? Math.round(m2) : m2.toPrecision(2)} m²`;
}

/** Returns e.g. "2 overlaps (3.10 km²)", "1 gap (850 m²)" or "no gaps". */
export function describeCount(count: number, noun: string, m2?: number): string {
  if (count === 0) return `no ${noun}s`;
  const area = m2 === undefined ? '' : ` (${describeArea(m2)})`;
  return `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}${area}`;
}

/** Returns a share as a percentage people read, e.g. "99.8 %", "< 0.1 %", "0 %". */
export function describeShare(share: number): string {
  if (share === 0) return '0 %';
  if (share < 0.001) return '< 0.1 %';
  if (share > 0.999 && share < 1) return '> 99.9 %';
  return `${(share * 100).toFixed(1)} %`;
}
