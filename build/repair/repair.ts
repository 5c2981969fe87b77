// Repairs a level's units into a coverage (issue 29 §4), in the order a GIS
// analyst cleans one in QGIS or PostGIS: make each invalid unit valid
// (valid.ts, as GEOS's MakeValid); snap near-coincident vertices and node
// T-junctions (snap.ts); give each overlap to the unit that shares the
// longer border with it and cut it from the other; fill each hole of the
// level's union narrower than the gap width with the unit that shares the
// longest border with it; then snap and node again, since the overlay
// (polygon-clipping) adds crossing points to one side only, and make valid
// again what that snapping broke.
import polygonClipping, { type MultiPolygon, type Pair, type Ring } from 'polygon-clipping';
import { checkCoverage, EDGE_WIDTH_M } from '../coverage/coverage.ts';
import { inscribedCircle, sphericalArea } from '../coverage/measure.ts';
import { shapeOf } from '../identity/shape.ts';
import { cleanUnits, nodeVertices, SegmentGrid, snapVertices, toSegment } from './snap.ts';
import { isValidUnit, makeValid } from './valid.ts';

/** Default snapping distance, in metres: vertices of neighbours closer than this are made one. */
export const SNAP_M = 1;

/** Rounds of snapping and making valid again at the end: each settles what the one before moved. */
const SETTLE_ROUNDS = 3;

export interface RepairOptions {
  radiusM: number; // the body's radius (BODY_RADIUS_M)
  gapWidthM: number; // holes of the union at most this wide are filled
  snapM: number; // vertices (and vertices and segments) of neighbours closer than this are joined
}

/** What repairing did: the units (undefined for a unit left as it was) and counts. */
export interface Repaired {
  // undefined: a unit without area (no geometry, points, a ring drawn as a
  // line), which no repair can give one: left as it was, out of the overlay.
  units: (MultiPolygon | undefined)[];
  madeValid: number; // units invalid by GEOS's rules, made valid
  snapped: number; // vertices moved onto a neighbour's
  noded: number; // vertices inserted into a neighbour's segment
  overlaps: number; // overlapping pieces given to one unit
  gaps: number; // holes of the union filled
}

/**
 * Returns the area of a multipolygon in m² on a sphere of `radius`: each
 * outer ring's less its holes', whichever way the publisher wound them
 * (RFC 7946 asks holes against the outer ring; not every file does).
 */
export function areaM2(mp: MultiPolygon | undefined, radius: number): number {
  if (!mp) return 0;
  let total = 0;
  for (const polygon of mp)
    polygon.forEach((ring, i) => (total += (i === 0 ? 1 : -1) * sphericalArea([flat(ring)], radius)));
  return total;
}

const flat = (ring: Ring) => Float64Array.from(ring.flat());

/** Returns the units repaired; `units[i]` undefined is a unit left as it was (no area to repair). */
export function repairUnits(input: (MultiPolygon | undefined)[], options: RepairOptions): Repaired {
  const eps = options.snapM / ((options.radiusM * Math.PI) / 180); // degrees
  const present: number[] = [];
  let units: MultiPolygon[] = [];
  let madeValid = 0;
  input.forEach((mp, i) => {
    if (!mp) return;
    const valid = makeValid(mp);
    if (!valid) return;
    if (valid !== mp) madeValid++;
    present.push(i);
    units.push(valid === mp ? structuredClone(mp) : valid);
  });
  const snapped = snapVertices(units, eps);
  let noded = nodeVertices(units, eps);
  units = cleanUnits(units);
  const found = defects(units, options);
  const overlaps = resolveOverlaps(units, found.pairs, eps);
  const gaps = found.holes ? fillGaps(units, eps, options) : 0;
  const settled = settle(units, eps);
  noded += settled.noded;
  units = settled.units;
  const out: (MultiPolygon | undefined)[] = input.map(() => undefined);
  present.forEach((i, k) => (out[i] = units[k]!.length > 0 ? units[k] : undefined));
  return { units: out, madeValid, snapped, noded, overlaps, gaps };
}

/**
 * Returns `units` snapped and noded after the overlay, which adds crossing
 * points to one side only, and how many vertices noding added. Snapping and
 * noding can break a unit: two of its vertices made one (a ring touching
 * itself), or a neighbour's vertex added to a segment that runs back along
 * the unit's own edge (a zero-width spike, as us-atlas's Chesterfield has
 * beside Colonial Heights). Each unit left invalid is made valid again and
 * the level snapped again, for a few rounds; what is still invalid then is
 * reported by the caller (the geometry rule on the copy).
 */
function settle(units: MultiPolygon[], eps: number): { units: MultiPolygon[]; noded: number } {
  let noded = 0;
  for (let round = 0; ; round++) {
    snapVertices(units, eps);
    noded += nodeVertices(units, eps);
    units = cleanUnits(units);
    const broken = units.flatMap((mp, k) => (mp.length > 0 && !isValidUnit(mp) ? [k] : []));
    if (broken.length === 0 || round === SETTLE_ROUNDS) return { units, noded };
    for (const k of broken) units[k] = makeValid(units[k]!) ?? units[k]!;
  }
}

/**
 * Returns what the coverage rule (validate's) finds in the snapped units:
 * the pairs of units over an overlap or along edges that do not match (a
 * sliver may be an overlap), each once, and whether it finds a hole (a gap,
 * or a sliver that may be one). So only those pairs are overlaid, and the
 * level's union is made only when there is a hole to fill.
 */
function defects(
  units: MultiPolygon[],
  options: RepairOptions,
): { pairs: [number, number][]; holes: boolean } {
  const shapes = units.map((mp) => shapeOf({ type: 'MultiPolygon', coordinates: mp }));
  const { radiusM, gapWidthM } = options;
  const findings = checkCoverage(shapes, { radiusM, gapWidthM, edgeWidthM: EDGE_WIDTH_M });
  const pairs = new Map<string, [number, number]>();
  let holes = false;
  for (const f of findings) {
    if (f.kind === 'gap' || (f.kind === 'edge' && f.areaM2 > 0)) holes = true;
    if (f.kind === 'gap') continue;
    for (const i of f.units) for (const j of f.units) if (i < j) pairs.set(`${i},${j}`, [i, j]);
  }
  return { pairs: [...pairs.values()].sort((p, q) => p[0] - q[0] || p[1] - q[1]), holes };
}

/** Returns the length of the part of `rings`' edges that lies along a segment of `unit` (within `eps`), in degrees. */
function borderAlong(rings: Ring[], grid: SegmentGrid, unit: number, eps: number): number {
  let total = 0;
  for (const ring of rings)
    for (let i = 0; i + 1 < ring.length; i++) {
      const [a, b] = [ring[i]!, ring[i + 1]!];
      const mid: Pair = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
      const on = grid.near(mid, eps).some((s) => {
        const seg = grid.segments[s]!;
        return seg.unit === unit && toSegment(mid, seg.a, seg.b).d <= eps;
      });
      if (on) total += Math.hypot(b[0] - a[0], b[1] - a[1]);
    }
  return total;
}

/**
 * Gives each overlap of two units to the one that shares the longer border
 * with it: the overlap's edges along unit A's outline border B's remainder,
 * and the other way round. A unit the overlap would empty (it lies wholly
 * inside the other: an enclave) keeps it instead, so no unit vanishes.
 * Returns how many overlaps it resolved.
 */
function resolveOverlaps(units: MultiPolygon[], pairs: [number, number][], eps: number): number {
  let resolved = 0;
  for (const [i, j] of pairs) {
    const piece = polygonClipping.intersection(units[i]!, units[j]!);
    if (piece.length === 0 || areaM2(piece, 1) === 0) continue;
    const grid = new SegmentGrid([units[i]!, units[j]!], eps);
    const rings = piece.flat();
    // Along i's outline the overlap borders j's remainder: that much border is j's.
    const withJ = borderAlong(rings, grid, 0, eps);
    const withI = borderAlong(rings, grid, 1, eps);
    let loser = withI >= withJ ? j : i;
    let rest = polygonClipping.difference(units[loser]!, piece);
    if (rest.length === 0) {
      loser = loser === i ? j : i;
      rest = polygonClipping.difference(units[loser]!, piece);
      if (rest.length === 0) continue; // one unit twice: left for the coverage rule to report
    }
    units[loser] = rest;
    resolved += piece.length;
  }
  return resolved;
}

/** Fills each hole of the units' union at most `gapWidthM` wide with the unit that borders it longest; returns how many. */
function fillGaps(units: MultiPolygon[], eps: number, { radiusM, gapWidthM }: RepairOptions): number {
  if (units.length === 0) return 0;
  const union = polygonClipping.union(units[0]!, ...units.slice(1));
  const holes = union.flatMap((polygon) => polygon.slice(1));
  let filled = 0;
  const grid = new SegmentGrid(units, eps);
  for (const hole of holes) {
    if (inscribedCircle([flat(hole)], radiusM, 0.5, gapWidthM * 2).widthM > gapWidthM) continue;
    let best = -1;
    let longest = 0;
    for (let u = 0; u < units.length; u++) {
      const length = borderAlong([hole], grid, u, eps);
      if (length > longest) [best, longest] = [u, length];
    }
    if (best < 0) continue;
    units[best] = polygonClipping.union(units[best]!, [hole]);
    filled++;
  }
  return filled;
}
