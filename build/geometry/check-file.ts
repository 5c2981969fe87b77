// Checks the geometry of every feature of one GeoJSON file, one feature at a
// time (bounded memory), and returns one issue per invalid feature. A large
// file is shared with a worker thread (build/geometry/parallel.ts).
import { open, stat } from 'node:fs/promises';
import { findSegments } from '../measure/parallel.ts';
import { checkInWorker } from './parallel.ts';
import type { GeometryProblemKind } from './kinds.ts';
import { GeometryReader, type FlatGeometry } from './parse-geometry.ts';
import { COORDINATE_OUT_OF_RANGE, findOutOfRange, inRange } from './range.ts';
import { FeatureCutter, readFeatureBytes, type ByteRange } from './read-features.ts';
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

const PARALLEL_MIN_BYTES = 32 << 20; // share with a worker thread from this size on

/**
 * Returns the verdict on every feature of `path`, a GeoJSON FeatureCollection
 * the measurer accepted. `parallelMinBytes` (tests) lowers the size from which
 * a worker thread takes the second half.
 */
export async function checkGeometryFile(
  path: string,
  options: { parallelMinBytes?: number } = {},
): Promise<FileGeometry> {
  const { size } = await stat(path);
  if (size < (options.parallelMinBytes ?? PARALLEL_MIN_BYTES)) return strip(await checkRange(path));
  const file = await open(path, 'r');
  let segments;
  try {
    segments = findSegments(file, size, Math.ceil(size / 2));
  } finally {
    await file.close();
  }
  if (segments.length < 2) return strip(await checkRange(path));
  const cut = segments[1]!.from;
  const second = checkInWorker(path, cut, size);
  const cutter = new FeatureCutter();
  const first = await checkRange(path, { from: 0, to: cut, midFeatures: false }, cutter);
  const part = cutter.isBetweenFeatures() ? await second : undefined;
  if (part) return join(first, part);
  // The cut was not between features (or the worker failed): go on here.
  const rest = await checkRange(path, { from: cut, to: size, midFeatures: false }, cutter, first.checked);
  return { checked: first.checked + rest.checked, issues: [...first.issues, ...rest.issues] };
}

function strip({ checked, issues }: RangeResult): FileGeometry {
  return { checked, issues };
}

/** Returns the first half's result followed by the worker's, its feature indices moved on. */
function join(first: RangeResult, second: RangeResult): FileGeometry {
  const moved = second.issues.map((issue) => moveIssue(issue, first.checked));
  return { checked: first.checked + second.checked, issues: [...first.issues, ...moved] };
}

/** Returns the issue of a part of a file as the whole file's: its feature index moved on by `offset`. */
export function moveIssue(issue: FeatureIssue, offset: number): FeatureIssue {
  const feature = issue.feature + offset;
  const pointer = `/features/${feature}${issue.pointer.slice(`/features/${issue.feature}`.length)}`;
  return { ...issue, feature, pointer };
}

/** Checks the features of `range` (default: the whole file); indices start at `firstIndex`. */
export async function checkRange(
  path: string,
  range?: ByteRange,
  cutter = new FeatureCutter(range?.midFeatures ?? false),
  firstIndex = 0,
): Promise<RangeResult> {
  const issues: FeatureIssue[] = [];
  let checked = 0;
  const reader = new GeometryReader();
  for await (const { bytes } of readFeatureBytes(path, range, cutter)) {
    const index = firstIndex + checked++;
    const geometry = reader.read(bytes);
    if (!geometry) continue;
    checkFeature(index, geometry, issues);
  }
  return { checked, issues, between: cutter.isBetweenFeatures() };
}

/**
 * Adds the problems of feature `index` to `issues`: its first validity
 * problem, then its first position out of lon/lat range (reported only for
 * lon/lat datasets, build/manifest/validate-geometry.ts). So a feature has at
 * most one of each, in that order. `scanned`: the bbox of every position
 * read so far, this feature's included (the measurer's): while it is in
 * range, no feature needs looking at.
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
