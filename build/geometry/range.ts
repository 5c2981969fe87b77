// Coordinates outside longitude/latitude range. GEOS does not check ranges
// (its plane is unbounded), so this is not one of its rules: a feature's first
// position outside [-180, 180] × [-90, 90] is reported beside the feature's
// validity problem, if any, and only for datasets whose CRS is one geoshelf
// accepts, all lon/lat in degrees (validate's geometry rule,
// build/manifest/validate-geometry.ts).
import type { GeometryIssue } from './validity.ts';
import type { FlatGeometry } from './flat-geometry.ts';

export const COORDINATE_OUT_OF_RANGE = 'coordinate out of range';

/** Returns whether a bbox [minX, minY, maxX, maxY] lies within [-180, 180] × [-90, 90] (an empty one does). */
export function inRange(box: ArrayLike<number>): boolean {
  return box[0]! >= -180 && box[2]! <= 180 && box[1]! >= -90 && box[3]! <= 90;
}

/**
 * Returns the first position of a Polygon or MultiPolygon outside
 * [-180, 180] × [-90, 90], as a problem at its path below "coordinates"
 * (e.g. [0, 2]: ring 0, position 2), or undefined.
 */
export function findOutOfRange(f: FlatGeometry): GeometryIssue | undefined {
  const xy = f.xy;
  let k = 0;
  for (; k < f.positions; k++) {
    const x = xy[2 * k]!;
    const y = xy[2 * k + 1]!;
    // A non-finite value is GEOS's "invalid coordinate" (and the measurer refuses it): not a range problem too.
    if ((x < -180 || x > 180 || y < -90 || y > 90) && Number.isFinite(x) && Number.isFinite(y)) break;
  }
  if (k === f.positions) return undefined;
  const x = xy[2 * k]!;
  const y = xy[2 * k + 1]!;
  const message =
    x < -180 || x > 180
      ? `coordinate out of range: longitude ${x} is outside [-180, 180]`
      : `coordinate out of range: latitude ${y} is outside [-90, 90]`;
  return { structural: false, kind: COORDINATE_OUT_OF_RANGE, path: pathOf(f, k), message };
}

/** Returns the path of position k below "coordinates": [polygon,] ring, position. */
function pathOf(f: FlatGeometry, k: number): number[] {
  let ring = 0;
  while (f.ringEnds[ring]! <= k) ring++;
  let polygon = 0;
  while (f.polygonEnds[polygon]! <= ring) polygon++;
  const firstRing = polygon === 0 ? 0 : f.polygonEnds[polygon - 1]!;
  const position = k - (ring === 0 ? 0 : f.ringEnds[ring - 1]!);
  return f.multi ? [polygon, ring - firstRing, position] : [ring - firstRing, position];
}
