// The geometry status the catalogue shows per dataset (country page, JSON
// API): how many features were checked and how many are invalid under the
// OGC rules (build fails on structural errors, so only those remain).
import type { Dataset } from '../core/shared/manifest.ts';
import type { GeometryCounts } from '../manifest/validate-geometry.ts';

export type { GeometryCounts };

/** Geometry counts of each checked file, keyed by path, e.g. "data/earth/CHL/CHL_ADM1.geojson". */
export type GeometryByFile = ReadonlyMap<string, GeometryCounts>;

/**
 * Returns the counts of a dataset: those of its file, or of its parts added
 * up when it is published only as parts; undefined when not checked.
 */
export function datasetGeometry(d: Dataset, byFile: GeometryByFile): GeometryCounts | undefined {
  if (d.path !== undefined) return byFile.get(d.path);
  const parts = (d.parts ?? []).map((part) => byFile.get(part.path));
  if (parts.length === 0 || parts.some((counts) => counts === undefined)) return undefined;
  return parts.reduce<GeometryCounts>(
    (sum, counts) => ({ checked: sum.checked + counts!.checked, invalid: sum.invalid + counts!.invalid }),
    { checked: 0, invalid: 0 },
  );
}

/** Returns e.g. "3 invalid features", "1 invalid feature" or "no invalid features". */
export function describeGeometry(counts: GeometryCounts): string {
  if (counts.invalid === 0) return 'no invalid features';
  return `${counts.invalid.toLocaleString('en-US')} invalid feature${counts.invalid === 1 ? '' : 's'}`;
}
