// The verdict on one feature's geometry: first RFC 7946's structure of
// linear rings (closed, at least 4 positions), then the OGC rules in the
// order GEOS's IsValidOp checks them, so the first problem reported is the
// one GEOS (PostGIS ST_IsValid, shapely is_valid) reports.
import { analyseIntersections } from './intersections.ts';
import type { GeometryProblemKind } from './kinds.ts';
import { Nesting } from './nesting.ts';
import type { XY } from './orientation.ts';
import type { FlatGeometry } from './flat-geometry.ts';
import { collectRings, type Ring, type Rings } from './rings.ts';

/** What is wrong with a geometry, found at `path` below its "coordinates" (e.g. [3, 0]: polygon 3, shell). */
export interface GeometryIssue {
  structural: boolean; // RFC 7946 structure (always an error), else an OGC validity rule
  kind: GeometryProblemKind; // GEOS's words, e.g. "ring self-intersection"; or "ring not closed", "ring too short"
  path: number[];
  message: string; // e.g. "ring self-intersection at or near [-47.3019, -16.0392]"
}

/**
 * Returns the first problem of a Polygon's or MultiPolygon's coordinates
 * (positions as arrays of numbers, as JSON.parse gives), or undefined when the
 * geometry is valid; other types have no area rules and are valid.
 */
export function checkGeometry(type: string, coordinates: unknown): GeometryIssue | undefined {
  if (type !== 'Polygon' && type !== 'MultiPolygon') return undefined;
  return checkFlat(flatten(type, coordinates as number[][][] | number[][][][]));
}

/** Returns whether a flat geometry is a Polygon or MultiPolygon nested as its type says (else the measurer reports it). */
export function isPolygonal(f: FlatGeometry): boolean {
  return (f.type === 'Polygon' || f.type === 'MultiPolygon') && f.multi === (f.type === 'MultiPolygon');
}

/** Returns the first problem of a flat Polygon or MultiPolygon (./flat-geometry.ts), or undefined. */
export function checkFlat(f: FlatGeometry): GeometryIssue | undefined {
  if (!isPolygonal(f)) return undefined;
  const pathOf: PathOf = (p, ...rest) => (f.multi ? [p, ...rest] : rest);
  return checkStructure(f, pathOf) ?? checkPoints(f, pathOf) ?? checkTopology(collectRings(f), pathOf);
}

/** Returns nested coordinates as a FlatGeometry. */
export function flatten(type: string, coordinates: number[][][] | number[][][][]): FlatGeometry {
  const multi = type === 'MultiPolygon';
  const polygons = (multi ? coordinates : [coordinates]) as number[][][][];
  const xy: number[] = [];
  const ringEnds: number[] = [];
  const polygonEnds: number[] = [];
  for (const polygon of polygons) {
    for (const ring of polygon) {
      for (const position of ring) xy.push(position[0]!, position[1]!);
      ringEnds.push(xy.length / 2);
    }
    polygonEnds.push(ringEnds.length);
  }
  return {
    type,
    multi,
    xy: Float64Array.from(xy),
    positions: xy.length / 2,
    ringEnds: Int32Array.from(ringEnds),
    rings: ringEnds.length,
    polygonEnds: Int32Array.from(polygonEnds),
    polygons: polygonEnds.length,
  };
}

type PathOf = (p: number, ...rest: number[]) => number[];

/** Returns e.g. "[-47.3019, -16.0392]": coordinates rounded to 4 decimals (about 11 m in degrees). */
function showPoint(at: readonly number[]): string {
  return `[${at
    .slice(0, 2)
    .map((v) => String(Number.isFinite(v) ? Number(v.toFixed(4)) : v))
    .join(', ')}]`;
}

/** An OGC validity problem, worded as GEOS words it, with where. */
function issue(kind: GeometryProblemKind, path: number[], at: readonly number[]): GeometryIssue {
  return { structural: false, kind, path, message: `${kind} at or near ${showPoint(at)}` };
}

/** Calls `each(p, r, from, to)` for every ring: polygon p, ring r in it, positions [from, to). */
function forRings(
  f: FlatGeometry,
  each: (p: number, r: number, from: number, to: number) => GeometryIssue | undefined,
) {
  let ring = 0;
  for (let p = 0; p < f.polygons; p++) {
    for (let r = 0; ring < f.polygonEnds[p]!; ring++, r++) {
      const found = each(p, r, ring === 0 ? 0 : f.ringEnds[ring - 1]!, f.ringEnds[ring]!);
      if (found) return found;
    }
  }
  return undefined;
}

/** RFC 7946 3.1.6: each linear ring is closed and has at least 4 positions. */
function checkStructure(f: FlatGeometry, pathOf: PathOf): GeometryIssue | undefined {
  const xy = f.xy;
  return forRings(f, (p, r, from, to) => {
    const count = to - from;
    const last = to - 1;
    if (xy[2 * from] !== xy[2 * last] || xy[2 * from + 1] !== xy[2 * last + 1]) {
      const first = [xy[2 * from]!, xy[2 * from + 1]!];
      return {
        structural: true,
        kind: 'ring not closed',
        path: pathOf(p, r),
        message: `ring is not closed: it starts at ${showPoint(first)} and ends at ${showPoint([xy[2 * last]!, xy[2 * last + 1]!])}`,
      };
    }
    if (count < 4) {
      return {
        structural: true,
        kind: 'ring too short',
        path: pathOf(p, r),
        message: `ring has ${count} position${count === 1 ? '' : 's'}, a linear ring needs at least 4`,
      };
    }
    return undefined;
  });
}

/** GEOS's first checks, polygon by polygon: finite coordinates, then 4 distinct consecutive points per ring. */
function checkPoints(f: FlatGeometry, pathOf: PathOf): GeometryIssue | undefined {
  const xy = f.xy;
  let ring = 0;
  for (let p = 0; p < f.polygons; p++) {
    const first = ring;
    const end = f.polygonEnds[p]!;
    for (let r = 0; ring < end; ring++, r++) {
      const from = ring === 0 ? 0 : f.ringEnds[ring - 1]!;
      for (let k = from; k < f.ringEnds[ring]!; k++) {
        if (!Number.isFinite(xy[2 * k]!) || !Number.isFinite(xy[2 * k + 1]!)) {
          return issue('invalid coordinate', pathOf(p, r, k - from), [xy[2 * k]!, xy[2 * k + 1]!]);
        }
      }
    }
    for (let rr = first, r = 0; rr < end; rr++, r++) {
      const from = rr === 0 ? 0 : f.ringEnds[rr - 1]!;
      const to = f.ringEnds[rr]!;
      let distinct = 1;
      for (let k = from + 1; k < to && distinct < 4; k++) {
        if (xy[2 * k] !== xy[2 * k - 2] || xy[2 * k + 1] !== xy[2 * k - 1]) distinct++;
      }
      if (distinct < 4)
        return issue('too few points in geometry component', pathOf(p, r), [
          xy[2 * from]!,
          xy[2 * from + 1]!,
        ]);
    }
  }
  return undefined;
}

/** The rules that relate segments and rings: intersections, holes, shells, connected interior. */
function checkTopology(g: Rings, pathOf: PathOf): GeometryIssue | undefined {
  const found = analyseIntersections(g);
  const at = (ring: Ring): XY => [g.xs[ring.start]!, g.ys[ring.start]!];
  if (found.invalid) {
    const { kind, ring } = found.invalid;
    return issue(kind, pathOf(ring.source, ring.index), found.invalid.at);
  }
  const nesting = new Nesting(g);
  const outside = nesting.findHoleOutsideShell();
  if (outside) return issue('hole lies outside shell', pathOf(outside.source, outside.index), at(outside));
  const nested = nesting.findNestedHole();
  if (nested) return issue('holes are nested', pathOf(nested.source, nested.index), at(nested));
  const shell = nesting.findNestedShell();
  if (shell) return issue('nested shells', pathOf(shell.shell.source, 0), shell.at);
  const disconnected = found.touches.doubleTouch ?? found.touches.findHoleCycle();
  if (disconnected)
    return issue(
      'interior is disconnected',
      pathOf(g.polygons[disconnected.polygon]![0]!.source),
      disconnected.at,
    );
  return undefined;
}
