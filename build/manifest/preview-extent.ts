// What a preview's simplification can do to a unit's extent. `geoshelf
// preview` (build/preview/simplify.ts) keeps some of each ring's positions,
// then rounds them to the fewest decimals whose step is at most the
// threshold T (tolerance_m is T rounded to the metre). So:
// - rounding moves a position by at most half a step, h, either way: a
//   preview never reaches further than its data by more than h;
// - Douglas-Peucker drops only positions within T of the chord that replaces
//   them: the data reaches at most T + h further than its preview;
// - Visvalingam drops positions whose triangle with their neighbours is at
//   most T² (m²): a thin spike of any length may go, so no distance bounds
//   it. Each drop changes the polygon by exactly that triangle, so the data's
//   area beyond the preview's extent (+ h) is at most (positions dropped) × T².
// Anything beyond these bounds was not made from this data.
import type { Simplification } from '../core/shared/manifest.ts';
import type { FlatGeometry } from '../geometry/flat-geometry.ts';

/**
 * A preview's simplification as bounds: `t`, the largest threshold in
 * metres; `h`, half the largest rounding step in degrees; `perDegree`,
 * metres per degree on the body (METRES_PER_DEGREE).
 */
export interface ExtentRule {
  method: Simplification['method'];
  t: number;
  h: number;
  perDegree: number;
}

/** A unit's extent ([west, south, east, north]) and its positions less each ring's closing one. */
export interface Extent {
  box: number[];
  vertices: number;
}

/** Slack for rounding in floating point, in degrees. */
const EPSILON = 1e-9;
const SIDES = ['west', 'south', 'east', 'north'];

/**
 * Returns the bounds of a preview made with `s` on a body of `perDegree`
 * metres per degree; the decimals follow build/preview/simplify.ts's
 * decimalsFor (at most 6).
 */
export function extentRule(s: Simplification, perDegree: number): ExtentRule {
  const t = s.method === 'none' ? 0 : s.tolerance_m + 0.5; // the threshold, rounded to tolerance_m
  return { method: s.method, t, h: Math.max(t / perDegree, 1e-6) / 2 + EPSILON, perDegree };
}

/**
 * Returns how a preview unit's extent differs from its data unit's beyond
 * what `rule` allows, e.g. "reaches 4.2 km further north in the dataset", or
 * undefined. `g`: the data unit's geometry (Visvalingam's bound needs its area).
 */
export function extentDifference(
  g: FlatGeometry,
  data: Extent,
  preview: Extent,
  rule: ExtentRule,
): string | undefined {
  const d = data.box;
  const p = preview.box;
  const { h, t, perDegree: k } = rule;
  // Metres per degree of longitude are fewest at the unit's highest latitude: the most lenient bound.
  const cos = Math.max(Math.cos((Math.max(Math.abs(d[1]!), Math.abs(d[3]!)) * Math.PI) / 180), 1e-9);
  const perDegree = (side: number) =>
    side % 2 === 1 ? k : k * Math.cos((((d[1]! + d[3]!) / 2) * Math.PI) / 180);
  let worst: { metres: number; text: string } | undefined;
  const note = (side: number, by: number, where: string) => {
    const metres = by * perDegree(side);
    if (!worst || metres > worst.metres)
      worst = { metres, text: `reaches ${distance(metres)} further ${SIDES[side]} in ${where}` };
  };
  /** Whether simplifying could have cut the data's extent back by `by` degrees on `side`. */
  const simplified = (side: number, by: number): boolean => {
    if (rule.method === 'douglas-peucker') return by <= h + t / (side % 2 === 1 ? k : k * cos);
    if (rule.method !== 'visvalingam') return false; // "none" drops no position
    const dropped = Math.max(0, data.vertices - preview.vertices);
    const allowed = (dropped * t * t) / (cos * k * k);
    const line = side < 2 ? p[side]! - h : p[side]! + h;
    return areaBeyond(g, side, line) <= allowed * (1 + 1e-9);
  };
  for (let side = 0; side < 4; side++) {
    const previewBeyond = beyond(side, p, d);
    if (previewBeyond > h) note(side, previewBeyond, 'it');
    const dataBeyond = beyond(side, d, p);
    if (dataBeyond > h && !simplified(side, dataBeyond)) note(side, dataBeyond, 'the dataset');
  }
  return worst?.text;
}

/** Returns how far box `a` reaches beyond box `b` on `side` (0 west, 1 south, 2 east, 3 north), in degrees. */
function beyond(side: number, a: number[], b: number[]): number {
  return side < 2 ? b[side]! - a[side]! : a[side]! - b[side]!;
}

/** Returns e.g. "0.4 m", "120 m" or "4.2 km". */
function distance(metres: number): string {
  if (metres >= 1000) return `${(metres / 1000).toFixed(1)} km`;
  return metres >= 10 ? `${Math.round(metres)} m` : `${Number(metres.toPrecision(1))} m`;
}

/**
 * Returns the area, in square degrees, of the part of `g` beyond `line` on
 * `side` (west: x < line; south: y < line; east: x > line; north: y > line):
 * each ring clipped to that half-plane (Sutherland-Hodgman), holes subtracted.
 */
function areaBeyond(g: FlatGeometry, side: number, line: number): number {
  let total = 0;
  let ring = 0;
  for (let polygon = 0; polygon < g.polygons; polygon++) {
    const end = g.polygonEnds[polygon]!;
    for (const first = ring; ring < end; ring++) {
      const area = clippedRingArea(g, ring, side, line);
      total += ring === first ? area : -area;
    }
  }
  return Math.max(0, total);
}

function clippedRingArea(g: FlatGeometry, ring: number, side: number, line: number): number {
  const { xy } = g;
  const from = ring === 0 ? 0 : g.ringEnds[ring - 1]!;
  const n = g.ringEnds[ring]! - from;
  const axis = side % 2; // 0: x, 1: y
  const sign = side < 2 ? -1 : 1;
  // Relative to the ring's first position, so that the shoelace sum keeps its precision.
  const ox = xy[2 * from]!;
  const oy = xy[2 * from + 1]!;
  let sum = 0;
  let started = false;
  let [fx, fy, px, py] = [0, 0, 0, 0];
  const emit = (x: number, y: number) => {
    if (started) sum += px * y - x * py;
    else [fx, fy, started] = [x, y, true];
    [px, py] = [x, y];
  };
  for (let k = 0; k < n; k++) {
    const a = from + k;
    const b = from + ((k + 1) % n);
    const ax = xy[2 * a]! - ox;
    const ay = xy[2 * a + 1]! - oy;
    const bx = xy[2 * b]! - ox;
    const by = xy[2 * b + 1]! - oy;
    const at = line - (axis === 0 ? ox : oy);
    const va = sign * ((axis === 0 ? ax : ay) - at); // > 0: beyond the line
    const vb = sign * ((axis === 0 ? bx : by) - at);
    if (va > 0 !== vb > 0) {
      const s = va / (va - vb);
      emit(ax + s * (bx - ax), ay + s * (by - ay));
    }
    if (vb > 0) emit(bx, by);
  }
  if (started) sum += px * fy - fx * py;
  return Math.abs(sum) / 2;
}
