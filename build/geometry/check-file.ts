// Checks the geometry of every feature of one GeoJSON file, one feature at a
// time (bounded memory), and returns one issue per invalid feature. A large
// file is shared with a worker thread (build/geometry/parallel.ts).
import { open, stat } from 'node:fs/promises';
import { findSegments } from '../measure/parallel.ts';
import { checkInWorker } from './parallel.ts';
import { GeometryReader } from './parse-geometry.ts';
import { FeatureCutter, readFeatureBytes, type ByteRange } from './read-features.ts';
import { checkFlat } from './validity.ts';

/** One invalid feature: e.g. pointer "/features/8/geometry/coordinates/3/0". */
export interface FeatureIssue {
  feature: number;
  pointer: string;
  structural: boolean; // RFC 7946 structure: an error; else an OGC rule: a warning unless --strict
  kind: string; // e.g. "ring self-intersection"
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
  const segments = await findSegments(file, size, Math.ceil(size / 2)).finally(() => file.close());
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
  const offset = first.checked;
  const moved = second.issues.map((issue) => {
    const feature = issue.feature + offset;
    return {
      ...issue,
      feature,
      pointer: `/features/${feature}${issue.pointer.slice(`/features/${issue.feature}`.length)}`,
    };
  });
  return { checked: first.checked + second.checked, issues: [...first.issues, ...moved] };
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
    const issue = checkFlat(geometry);
    if (!issue) continue;
    const below = issue.path.map((i) => `/${i}`).join('');
    issues.push({
      feature: index,
      pointer: `/features/${index}/geometry/coordinates${below}`,
      structural: issue.structural,
      kind: issue.kind,
      message: issue.message,
    });
  }
  return { checked, issues, between: cutter.isBetweenFeatures() };
}
