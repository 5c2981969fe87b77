// What changed on the geometry of each identity pair of a level, and
// whether it is a re-digitisation (the same line drawn again) or a boundary
// change: each pair is judged against the noise ν_ref of its neighbours
// (build/identity/noise.ts), or, in a level where it has none, against the
// noise of the country's other levels (its lineage), else the fixed limits.
import type { GeometryChangeMetrics } from '../core/shared/api.ts';
import { hausdorffAndOffset, perimeter } from './distance.ts';
import { median, neighbourMedians } from './noise.ts';
import { sameShape, scaleAt, type Shape } from './shape.ts';
import { isRedigitised, type Thresholds } from './thresholds.ts';

/** What changed on one identity pair's geometry (the published shape). */
export type GeometryChange = GeometryChangeMetrics;

/** One identity pair's two drawings and the area they share (degree²). */
export interface DrawnPair {
  old?: Shape;
  new?: Shape;
  shared: () => number;
}

export interface Classified {
  changes: (GeometryChange | undefined)[]; // by pair, undefined when the geometry is the same
  offsets: number[]; // ν of every pair with an area on both sides (0 when the same): the level's noise
}

interface Measured {
  relativeArea: number;
  hausdorff: number;
  offset: number;
  perimeter: number;
  areaM2: number;
  symmetric: number;
}

/**
 * Returns the geometry change of each pair, in metres of a body of
 * `perDegree` metres per degree (METRES_PER_DEGREE). `lineage`: the median
 * offset of the country's other levels, for a pair with no other pair in
 * its level (an ADM0); without one, such a pair is held to the fixed limits.
 */
export function classifyGeometry(
  pairs: DrawnPair[],
  t: Thresholds,
  perDegree: number,
  lineage?: number,
): Classified {
  const measured: (Measured | undefined)[] = pairs.map((p) => measure(p, perDegree));
  const both: number[] = []; // pairs with an area on both sides
  pairs.forEach((p, i) => {
    if (p.old && p.new) both.push(i);
  });
  const offsets = both.map((i) => measured[i]?.offset ?? 0);
  const lat = median(both.map((i) => (pairs[i]!.old!.box[1] + pairs[i]!.old!.box[3]) / 2));
  const [kx, ky] = scaleAt(Number.isNaN(lat) ? 0 : lat, perDegree);
  const xs = Float64Array.from(both, (i) => ((pairs[i]!.old!.box[0] + pairs[i]!.old!.box[2]) / 2) * kx);
  const ys = Float64Array.from(both, (i) => ((pairs[i]!.old!.box[1] + pairs[i]!.old!.box[3]) / 2) * ky);
  const around = neighbourMedians(xs, ys, Float64Array.from(offsets), t.noiseNeighbours);
  const reference = new Map(both.map((i, k) => [i, Number.isNaN(around[k]!) ? (lineage ?? 0) : around[k]!]));
  const changes = pairs.map((p, i): GeometryChange | undefined => {
    if (!p.old && !p.new) return undefined;
    if (!p.old || !p.new) {
      const none = { area_change: null, symmetric_difference: null, max_distance_m: null, offset_m: null };
      return { kind: 'boundary', ...none, reference_offset_m: null };
    }
    const m = measured[i];
    if (!m) return undefined;
    const ref = reference.get(i)!;
    return {
      kind: isRedigitised({ ...m, reference: ref }, t) ? 'redigitised' : 'boundary',
      area_change: m.relativeArea,
      symmetric_difference: m.symmetric,
      max_distance_m: m.hausdorff,
      offset_m: m.offset,
      reference_offset_m: ref,
    };
  });
  return { changes, offsets };
}

/** Returns the measures of a pair whose two drawings differ, undefined when they are the same. */
function measure(p: DrawnPair, perDegree: number): Measured | undefined {
  const a = p.old;
  const b = p.new;
  if (!a || !b || sameShape(a, b)) return undefined;
  const [kx, ky] = scaleAt((a.box[1] + a.box[3]) / 2, perDegree);
  const { hausdorff, offset } = hausdorffAndOffset(a, b, kx, ky);
  return {
    relativeArea: (b.area - a.area) / a.area,
    hausdorff,
    offset,
    perimeter: perimeter(a, kx, ky),
    areaM2: a.area * kx * ky,
    symmetric: (a.area + b.area - 2 * p.shared()) / a.area,
  };
}
