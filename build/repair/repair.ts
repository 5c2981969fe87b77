// Repairs a level's units into a coverage (issue 29 §4), in the order a GIS
// analyst cleans one in QGIS or PostGIS: snap near-coincident vertices and
// node T-junctions (build/repair/snap.ts); give each overlap to the unit
// that shares the longer border with it and cut it from the other; fill each
// hole of the level's union narrower than the gap width with the unit that
// shares the longest border with it; then snap and node again, since the
// overlay (polygon-clipping) adds crossing points to one side only.
import polygonClipping, { type MultiPolygon, type Pair, type Ring } from 'polygon-clipping';
import { inscribedCircle, sphericalArea } from '../coverage/measure.ts';
import { cleanUnits, nodeVertices, SegmentGrid, snapVertices, toSegment } from './snap.ts';

/** Default snapping distance, in metres: vertices of neighbours closer than this are made one. */
export const SNAP_M = 1;

export interface RepairOptions {
  radiusM: number; // the body's mean radius
  gapWidthM: number; // holes of the union at most this wide are filled
  snapM: number; // vertices (and vertices and segments) of neighbours closer than this are joined
}

/** What repairing did: the units (undefined for a unit without area, left as it was) and counts. */
export interface Repaired {
  units: (MultiPolygon | undefined)[];
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

/** Returns the units repaired; `units[i]` undefined is a unit without area (kept out of the overlay). */
export function repairUnits(input: (MultiPolygon | undefined)[], options: RepairOptions): Repaired {
  const eps = options.snapM / ((options.radiusM * Math.PI) / 180); // degrees
  const present = input.flatMap((mp, i) => (mp ? [i] : []));
  let units = present.map((i) => structuredClone(input[i]!));
  const snapped = snapVertices(units, eps);
  let noded = nodeVertices(units, eps);
  units = cleanUnits(units);
  const overlaps = resolveOverlaps(units, eps);
  const gaps = fillGaps(units, eps, options);
  // The overlay's new crossing points are in one unit only: join them to the neighbour's.
  snapVertices(units, eps);
  noded += nodeVertices(units, eps);
  units = cleanUnits(units);
  const out: (MultiPolygon | undefined)[] = input.map(() => undefined);
  present.forEach((i, k) => (out[i] = units[k]!.length > 0 ? units[k] : undefined));
  return { units: out, snapped, noded, overlaps, gaps };
}

/** Returns the bounding box of a multipolygon: [west, south, east, north]. */
function box(mp: MultiPolygon): [number, number, number, number] {
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const polygon of mp)
    for (const [x, y] of polygon[0] ?? [])
      [w, s, e, n] = [Math.min(w, x), Math.min(s, y), Math.max(e, x), Math.max(n, y)];
  return [w, s, e, n];
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
 * and the other way round. Returns how many overlaps it resolved.
 */
function resolveOverlaps(units: MultiPolygon[], eps: number): number {
  let resolved = 0;
  for (let i = 0; i < units.length; i++)
    for (let j = i + 1; j < units.length; j++) {
      const [a, b] = [box(units[i]!), box(units[j]!)];
      if (a[0] > b[2] || b[0] > a[2] || a[1] > b[3] || b[1] > a[3]) continue;
      const piece = polygonClipping.intersection(units[i]!, units[j]!);
      if (piece.length === 0 || areaM2(piece, 1) === 0) continue;
      const grid = new SegmentGrid([units[i]!, units[j]!]);
      const rings = piece.flat();
      // Along i's outline the overlap borders j's remainder: that much border is j's.
      const withJ = borderAlong(rings, grid, 0, eps);
      const withI = borderAlong(rings, grid, 1, eps);
      const loser = withI >= withJ ? j : i;
      units[loser] = polygonClipping.difference(units[loser]!, piece);
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
  const grid = new SegmentGrid(units);
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
