// The coverage check of one level (issue 29 §1): its units should not
// overlap, should leave no narrow gaps, and neighbours' edges should match
// vertex for vertex, as GEOS's CoverageValidator asks. The unmatched
// segments (edges.ts) cut the plane into faces of constant depth
// (arrangement.ts); each face that is not covered exactly once is a defect:
//   - depth ≥ 2: an overlap of the units over it;
//   - depth 0, bounded: a hole in the level's union, a gap when it is at most
//     `gapWidthM` wide and the level above covers it (parentHoles: a hole
//     the parent level has too, e.g. a lake or an enclave, is no gap);
//   - either, at most `edgeWidthM` wide: neighbours' edges that do not match
//     (a vertex moved, a sliver), as are stretches where units' segments
//     overlap without any area between them (a vertex one side lacks).
// Findings are grouped per kind and set of units: one finding each.
import { BoxTree } from '../geometry/box-tree.ts';
import { intersectionArea } from '../identity/overlap.ts';
import { shapeOfFlat, type Shape } from '../identity/shape.ts';
import { arrange, type Face, type Segments } from './arrangement.ts';
import { coverageEdges } from './edges.ts';
import { inscribedCircle, ringsLengthM, sphericalArea } from './measure.ts';

type CoverageKind = 'overlap' | 'gap' | 'edge';

/** One defect of a level's coverage. */
export interface CoverageFinding {
  kind: CoverageKind;
  units: number[]; // indexes of the units involved, ascending
  areaM2: number; // on the body's sphere; 0 for an edge without area between the units
  point: [number, number]; // lon, lat: inside the largest piece (on the edge, for one without area)
  widthM: number; // the widest piece's width (the largest circle inside it)
  lengthM?: number; // edges only: how long the units' edges run without matching
}

/** What a level's check found, counted (issue 29 §5: the figures a release publishes). */
export interface CoverageCounts {
  overlaps: number;
  overlapAreaM2: number;
  gaps: number;
  gapAreaM2: number;
  edges: number;
}

/** What checkCoverage is told about the level and its body. */
export interface CoverageOptions {
  radiusM: number; // the body's radius (BODY_RADIUS_M), e.g. 6,371,008.8 for the Earth
  gapWidthM: number; // holes of the union at most this wide are gaps (validate --gap-width)
  edgeWidthM: number; // pieces at most this wide are edges that do not match (EDGE_WIDTH_M)
}

/** Default width of a gap, in metres: validate --gap-width (docs/geometry.md says why). */
export const GAP_WIDTH_M = 100;

/** Pieces at most this wide, in metres, are neighbours' edges that do not match rather than overlaps or gaps. */
export const EDGE_WIDTH_M = 1;

/** Returns the coverage defects of one level's units (shapes as build/identity/shape.ts winds them). */
export function checkCoverage(shapes: (Shape | undefined)[], options: CoverageOptions): CoverageFinding[] {
  const { faces, silent } = arrange(unmatched(shapes));
  const found = new Findings();
  const units = new UnitIndex(shapes);
  for (const face of faces) {
    if (face.depth === 1 || face.depth < 0) continue; // < 0: a unit wound against itself (the geometry rule's)
    const areaM2 = sphericalArea(face.rings, options.radiusM);
    const limit = face.depth === 0 ? Math.max(options.gapWidthM, options.edgeWidthM) : options.edgeWidthM;
    const { point, widthM } = inscribedCircle(face.rings, options.radiusM, limit / 8, limit);
    if (widthM <= options.edgeWidthM) {
      // A sliver: its two long sides are the edges that do not match.
      const lengthM = ringsLengthM(face.rings, options.radiusM) / 2;
      found.add('edge', face.units, { areaM2, point, widthM, lengthM });
    } else if (face.depth >= 2) {
      // One unit over itself (its own parts overlap, or it crosses itself) is the geometry rule's.
      const over = units.overlapping(face);
      if (over.length >= 2) found.add('overlap', over, { areaM2, point, widthM });
    } else if (widthM <= options.gapWidthM) {
      found.add('gap', face.units, { areaM2, point, widthM });
    }
  }
  for (const edge of silent) {
    const lengthM = ringsLengthM([Float64Array.of(edge.x1, edge.y1, edge.x2, edge.y2)], options.radiusM);
    found.add('edge', edge.units, { areaM2: 0, point: [(edge.x1 + edge.x2) / 2, (edge.y1 + edge.y2) / 2], widthM: 0, lengthM });
  }
  return found.list();
}

/** Returns the segments of `shapes` that no neighbour's matches, in order: ring by ring, unit by unit. */
function unmatched(shapes: (Shape | undefined)[]): Segments {
  const { first, start, twin } = coverageEdges(shapes);
  let m = 0;
  for (let s = 0; s < twin.length; s++) if (twin[s]! < 0) m++;
  const segments: Segments = { xy: new Float64Array(4 * m), unit: new Int32Array(m) };
  for (let u = 0, k = 0; u < shapes.length; u++) {
    if (first[u + 1]! > first[u]!) k = copyUnmatched(shapes[u]!.xy, start, twin, first[u]!, first[u + 1]!, segments, u, k);
  }
  return segments;
}

/** Copies unit u's unmatched segments (numbered from … to − 1) into `segments` from its k-th; returns the next k. */
function copyUnmatched(
  xy: Float64Array,
  start: Int32Array,
  twin: Int32Array,
  from: number,
  to: number,
  segments: Segments,
  u: number,
  k: number,
): number {
  const out = segments.xy;
  for (let s = from; s < to; s++) {
    if (twin[s]! >= 0) continue;
    const i = 2 * start[s]!;
    out[4 * k] = xy[i]!;
    out[4 * k + 1] = xy[i + 1]!;
    out[4 * k + 2] = xy[i + 2]!;
    out[4 * k + 3] = xy[i + 3]!;
    segments.unit[k++] = u;
  }
  return k;
}

/**
 * Returns `findings` without the gaps that are holes of the level above too
 * (its units `parents` do not cover the gap's point): a lake, an enclave.
 */
export function parentHoles(findings: CoverageFinding[], parents: (Shape | undefined)[]): CoverageFinding[] {
  const index = new UnitIndex(parents);
  return findings.filter((f) => f.kind !== 'gap' || index.covers(f.point[0], f.point[1]));
}

/** Returns the counts and areas of `findings`. */
export function countFindings(findings: CoverageFinding[]): CoverageCounts {
  const counts: CoverageCounts = { overlaps: 0, overlapAreaM2: 0, gaps: 0, gapAreaM2: 0, edges: 0 };
  for (const f of findings) {
    if (f.kind === 'overlap') {
      counts.overlaps++;
      counts.overlapAreaM2 += f.areaM2;
    } else if (f.kind === 'gap') {
      counts.gaps++;
      counts.gapAreaM2 += f.areaM2;
    } else counts.edges++;
  }
  return counts;
}

/** Findings grouped by kind and units: areas and lengths add up, the largest piece gives the point. */
class Findings {
  private readonly byKey = new Map<string, CoverageFinding & { largest: number }>();

  add(kind: CoverageKind, units: number[], piece: Omit<CoverageFinding, 'kind' | 'units'>): void {
    const key = `${kind}:${units.join(',')}`;
    const known = this.byKey.get(key);
    const size = piece.areaM2 || (piece.lengthM ?? 0);
    if (!known) {
      this.byKey.set(key, { kind, units, ...piece, largest: size });
      return;
    }
    known.areaM2 += piece.areaM2;
    if (piece.lengthM !== undefined) known.lengthM = (known.lengthM ?? 0) + piece.lengthM;
    known.widthM = Math.max(known.widthM, piece.widthM);
    if (size > known.largest) {
      known.largest = size;
      known.point = piece.point;
    }
  }

  /** Returns the findings in the order of their first unit, then kind. */
  list(): CoverageFinding[] {
    const order: Record<CoverageKind, number> = { overlap: 0, gap: 1, edge: 2 };
    return [...this.byKey.values()]
      .map(({ largest: _, ...f }) => f)
      .sort(
        (a, b) =>
          (a.units[0] ?? -1) - (b.units[0] ?? -1) ||
          order[a.kind] - order[b.kind] ||
          a.units.join().localeCompare(b.units.join()),
      );
  }
}

/** The units of a level by their boxes: which cover a point, which overlap a face. */
class UnitIndex {
  private readonly tree: BoxTree;
  private readonly ids: number[]; // tree item → unit (units without a shape are left out)

  constructor(private readonly shapes: (Shape | undefined)[]) {
    this.ids = shapes.flatMap((s, i) => (s ? [i] : []));
    const boxes = new Float64Array(4 * this.ids.length);
    this.ids.forEach((u, k) => boxes.set(shapes[u]!.box, 4 * k));
    this.tree = new BoxTree(boxes);
  }

  /** Returns the units whose interiors meet the face's (exact areas; touching units share none). */
  overlapping(face: Face): number[] {
    const shape = faceShape(face);
    if (!shape) return [];
    const [w, s, e, n] = shape.box;
    const count = this.tree.query(w, s, e, n);
    const found = Array.from(this.tree.found.subarray(0, count), (k) => this.ids[k]!);
    const share = found.filter((i) => intersectionArea(shape, this.shapes[i]!) > shape.area * 1e-9);
    return share.sort((a, b) => a - b);
  }

  /** Returns whether (x, y) lies in some unit (even-odd over each unit's rings). */
  covers(x: number, y: number): boolean {
    const count = this.tree.query(x, y, x, y);
    for (let f = 0; f < count; f++) if (inside(this.shapes[this.ids[this.tree.found[f]!]!]!, x, y)) return true;
    return false;
  }
}

/** Returns the face as a shape for the overlap kernel. */
function faceShape(face: Face): Shape | undefined {
  const total = face.rings.reduce((n, r) => n + r.length, 0);
  const xy = new Float64Array(total);
  const ringEnds = new Int32Array(face.rings.length);
  let k = 0;
  face.rings.forEach((r, i) => {
    xy.set(r, k);
    k += r.length;
    ringEnds[i] = k / 2;
  });
  return shapeOfFlat({ xy, ringEnds, rings: face.rings.length, polygonEnds: Int32Array.of(face.rings.length), polygons: 1 });
}

function inside(shape: Shape, x: number, y: number): boolean {
  const { xy, ringStart } = shape;
  let c = false;
  for (let r = 0; r + 1 < ringStart.length; r++) {
    for (let i = ringStart[r]!; i + 1 < ringStart[r + 1]!; i++) {
      const ax = xy[2 * i]!;
      const ay = xy[2 * i + 1]!;
      const bx = xy[2 * i + 2]!;
      const by = xy[2 * i + 3]!;
      if (ay > y !== by > y && x < ((bx - ax) * (y - ay)) / (by - ay) + ax) c = !c;
    }
  }
  return c;
}
