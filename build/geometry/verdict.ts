// The geometry verdict on a file: one issue per rule a feature breaks, with
// its JSON pointer, as the checks make it feature by feature.
import type { FlatGeometry } from './flat-geometry.ts';
import type { GeometryProblemKind } from './kinds.ts';
import { COORDINATE_OUT_OF_RANGE, findOutOfRange, inRange } from './range.ts';
import { checkFlat, isPolygonal, type GeometryIssue } from './validity.ts';

/** One invalid feature: e.g. pointer "/features/8/geometry/coordinates/3/0". */
export interface FeatureIssue {
  feature: number;
  pointer: string;
  structural: boolean; // RFC 7946 structure: an error; else an OGC rule: a warning unless --strict
  kind: GeometryProblemKind; // e.g. "ring self-intersection"
  message: string; // e.g. "ring self-intersection at or near [-47.3019, -16.0392]"
}

/** The geometry verdict on one file: features checked, and the invalid ones. */
export interface FileGeometry {
  checked: number;
  issues: FeatureIssue[];
}

/** The check of a byte range: feature indices count from its start; `between`: it ended between features. */
export interface RangeResult extends FileGeometry {
  between: boolean;
}

/** Returns the issue of a part of a file as the whole file's: its feature index moved on by `offset`. */
export function moveIssue(issue: FeatureIssue, offset: number): FeatureIssue {
  const feature = issue.feature + offset;
  const pointer = `/features/${feature}${issue.pointer.slice(`/features/${issue.feature}`.length)}`;
  return { ...issue, feature, pointer };
}

/**
 * Adds the problems of feature `index` to `issues`: its first validity
 * problem, then its first position out of lon/lat range (reported only for
 * lon/lat datasets, build/manifest/validate-geometry.ts). So a feature has at
 * most one of each, in that order. `scanned`: the bbox of every position
 * read so far, this feature's included: while it is in range, no feature
 * needs looking at.
 */
export function checkFeature(
  index: number,
  f: FlatGeometry,
  issues: FeatureIssue[],
  scanned?: Float64Array,
): void {
  if (!isPolygonal(f)) return;
  const issue = checkFlat(f);
  if (issue) issues.push(featureIssue(index, issue));
  const range = !scanned || !inRange(scanned) ? findOutOfRange(f) : undefined;
  if (range) issues.push(featureIssue(index, range));
}

/** Returns how many features of a verdict are invalid (by the validity rules; a range problem alone does not count). */
export function invalidFeatures(result: FileGeometry): number {
  return result.issues.filter((issue) => issue.kind !== COORDINATE_OUT_OF_RANGE).length;
}

/** Returns the issue of feature `index`, its pointer down to the ring (or position) at fault. */
export function featureIssue(index: number, issue: GeometryIssue): FeatureIssue {
  const below = issue.path.map((i) => `/${i}`).join('');
  return {
    feature: index,
    pointer: `/features/${index}/geometry/coordinates${below}`,
    structural: issue.structural,
    kind: issue.kind,
    message: issue.message,
  };
}
