// The validator's geometry check of one dataset: every GeoJSON file it lists
// (data, preview, parts) that exists and measured as GeoJSON is checked
// feature by feature (build/geometry/). One problem per invalid feature, in
// the GeoJSON file, pointing down to the ring: RFC 7946 structure is an
// error; the OGC rules (GEOS's IsValidOp) are warnings, errors when strict.
// In a lon/lat dataset, a feature's first position out of range is a
// problem too (a warning, an error when strict), beside its validity problem.
import type { Problem } from '../core/problem.ts';
import type { FileGeometry } from '../geometry/check-file.ts';
import { COORDINATE_OUT_OF_RANGE } from '../geometry/range.ts';
import type { DatasetContext } from './dataset-context.ts';
import { isInside } from './data-files.ts';

/** The geometry status of one file: features checked, and how many are invalid. */
export interface GeometryCounts {
  checked: number;
  invalid: number;
}

/** Returns the geometry problems of every file of the dataset, file by file in manifest order. */
export async function checkDatasetGeometry(context: DatasetContext): Promise<Problem[]> {
  const { dataset } = context;
  const files = [dataset.path, dataset.preview, ...(dataset.parts ?? []).map((part) => part.path)];
  const found = await Promise.all(
    files.map((path) => (path === undefined ? undefined : geometryOf(context, path))),
  );
  return files.flatMap((path, i) => {
    const result = found[i];
    if (path === undefined || !result) return [];
    const issues = context.lonLat
      ? result.issues
      : result.issues.filter((issue) => issue.kind !== COORDINATE_OUT_OF_RANGE);
    return issues.map((issue): Problem => ({
      file: path,
      pointer: issue.pointer,
      rule: 'geometry',
      severity: issue.structural || context.strict ? 'error' : 'warning',
      message: issue.message,
    }));
  });
}

/** Returns the verdict on `path`, or undefined when it is not checked (outside, missing, not GeoJSON: reported elsewhere). */
async function geometryOf({ folder, data }: DatasetContext, path: string): Promise<FileGeometry | undefined> {
  if (!data.checksGeometry || !isInside(folder, path) || !data.firstReport(path)) return undefined;
  if ((await data.state(path)).kind !== 'file') return undefined;
  return data.geometry(path);
}
