// Topology-aware line simplification for previews: cuts the shared arcs of a
// FeatureCollection once (build/simplify/arcs.ts, on exact coordinates), gives
// every arc vertex a weight in metres once (Visvalingam by the coverage
// simplifier of build/simplify/, or Douglas-Peucker), and then renders the
// GeoJSON text for any threshold cheaply, so a byte budget can be met by
// bisection.
import { UserError } from '../core/errors.ts';
import { problem } from '../core/problem.ts';
import type { GeoFeature } from '../geojson/level-features.ts';
import { coverageArcs, type CoverageArcs } from '../simplify/arcs.ts';
import { arcOf, CoverageSimplifier } from '../simplify/tpvw.ts';

export type Method = 'visvalingam' | 'douglas-peucker';

/** Most decimals a preview coordinate gets (6 ≈ 0.1 m, the corpus data's precision). */
const MAX_DECIMALS = 6;
/** Most decimals tried to keep a tiny ring from rounding to nothing. */
const RESCUE_DECIMALS = 9;

/** A ring as arc references: i is arc i forwards, ~i is arc i backwards (TopoJSON's convention). */
type Ring = Int32Array;

interface PreparedFeature {
  head: string; // e.g. '{"type":"Feature","id":"ARG:ADM1:AR-C","properties":{"shapeName":"…"}'
  type: 'Polygon' | 'MultiPolygon' | null;
  polygons: Ring[][]; // one entry for a Polygon
}

/** Every arc's vertices in flat arrays (fast to scan per try): arc i is start[i] … start[i+1]-1. */
interface FlatArcs {
  x: Float64Array;
  y: Float64Array;
  w: Float64Array; // weight in metres; Infinity = always kept
  start: Int32Array;
}

/** A level's features and shared arcs, not yet weighed: enough to render it whole. */
export interface Outline {
  features: PreparedFeature[];
  arcs: Omit<FlatArcs, 'w'> & { w?: Float64Array };
  coverage: CoverageArcs;
}

/** A level ready to render at any threshold; built once per input by `prepare`. */
export interface Prepared extends Outline {
  method: Method;
  arcs: FlatArcs;
  /** Ascending distinct finite weights of removable vertices: the candidate thresholds. */
  thresholds: Float64Array;
  /** keptAbove[k] = removable vertices whose weight exceeds thresholds[k-1] (k = 0: all of them). */
  keptAbove: Int32Array;
  /** Vertices never removed: arc endpoints and those that keep each ring a triangle. */
  fixedVertices: number;
  perDegree: number; // metres per degree on the body the weights are in (METRES_PER_DEGREE)
}

/**
 * Returns `features` ready to render: their shared borders as arcs (exact
 * coordinate matches), each vertex weighted by `method` in metres of a body
 * of `perDegree` metres per degree (METRES_PER_DEGREE), every ring
 * guaranteed at least three vertices, and each feature's properties reduced
 * by `keepProperty`. Throws a UserError naming the feature for a geometry
 * other than Polygon/MultiPolygon.
 */
export function prepare(
  source: string,
  features: GeoFeature[],
  method: Method,
  keepProperty: (key: string) => boolean,
  perDegree: number,
): Prepared {
  return weigh(outline(source, features, keepProperty), method, perDegree);
}

/**
 * Throws the UserError naming feature `i` of `source` when its geometry is
 * neither Polygon nor MultiPolygon (a feature without one is kept as it is).
 */
export function checkPolygonal(source: string, feature: GeoFeature, i: number): void {
  const type = feature.geometry?.type;
  if (type !== undefined && type !== 'Polygon' && type !== 'MultiPolygon') {
    throw new UserError(
      problem(source, `feature ${i}: geometry type ${type}, expected Polygon or MultiPolygon`),
    );
  }
}

/**
 * Returns the outline of `features` (see prepare): their shared borders as
 * arcs and each feature's head. Throws a UserError naming the feature for a
 * geometry other than Polygon/MultiPolygon.
 */
function outline(source: string, features: GeoFeature[], keepProperty: (key: string) => boolean): Outline {
  features.forEach((feature, i) => checkPolygonal(source, feature, i));
  return outlineOf(coverageArcs([features]), keepProperty);
}

/**
 * Returns the outline of one level's arcs (its features checked by
 * checkPolygonal, e.g. as they were read one at a time into a
 * CoverageArcsBuilder): each feature's head and its rings as arc references.
 */
export function outlineOf(coverage: CoverageArcs, keepProperty: (key: string) => boolean): Outline {
  const prepared = coverage.levels[0].map(
    ({ feature, kind, firstRing, polygons: counts }): PreparedFeature => {
      let r = firstRing;
      const polygons = counts.map((rings) => Array.from({ length: rings }, () => ringOf(coverage, r++)));
      return { head: featureHead(feature, keepProperty), type: kind, polygons };
    },
  );
  return { features: prepared, arcs: { x: coverage.x, y: coverage.y, start: coverage.arcStart }, coverage };
}

/**
 * Returns `outline` with each vertex weighted by `method` in metres of a
 * body of `perDegree` metres per degree. Visvalingam's weights come from the coverage simplifier
 * (build/simplify/tpvw.ts), so that below any threshold no border crosses
 * another and every ring keeps three vertices.
 */
export function weigh(outline: Outline, method: Method, perDegree: number): Prepared {
  const { coverage } = outline;
  const radiusM = (perDegree * 180) / Math.PI; // the sphere on which a degree is perDegree long
  const w =
    method === 'visvalingam'
      ? new CoverageSimplifier(coverage, radiusM).rank()
      : douglasPeucker(coverage, perDegree);
  if (method === 'douglas-peucker') {
    // Douglas-Peucker's weights do not keep every ring a triangle by themselves.
    for (let r = 0; r + 1 < coverage.ringArcStart.length; r++)
      keepTriangle(coverage.arcStart, w, ringOf(coverage, r));
  }
  return { ...outline, method, arcs: { ...outline.arcs, w }, ...thresholdTable(w), perDegree };
}

/** Returns ring r's arc references. */
function ringOf({ ringArcs, ringArcStart }: CoverageArcs, r: number): Ring {
  return ringArcs.subarray(ringArcStart[r], ringArcStart[r + 1]);
}

/** Returns the feature's JSON up to its geometry, with only the kept properties. */
function featureHead(feature: GeoFeature, keepProperty: (key: string) => boolean): string {
  const properties = Object.fromEntries(
    Object.entries(feature.properties ?? {}).filter(([key]) => keepProperty(key)),
  );
  const id = feature.id === undefined ? '' : `,"id":${JSON.stringify(feature.id)}`;
  return `{"type":"Feature"${id},"properties":${JSON.stringify(properties)}`;
}

/**
 * Douglas-Peucker weights: a vertex's weight is its distance in metres from
 * the chord that split it off, capped by its parent's weight, so a threshold
 * t keeps exactly the vertices Douglas-Peucker with tolerance t keeps.
 */
function douglasPeucker({ x, y, arcStart }: CoverageArcs, perDegree: number): Float64Array {
  const w = new Float64Array(x.length);
  const stack: number[] = []; // triples (first, last, cap)
  for (let a = 0; a + 1 < arcStart.length; a++) {
    const first = arcStart[a];
    const last = arcStart[a + 1] - 1;
    w[first] = w[last] = Infinity;
    stack.push(first, last, Infinity);
    while (stack.length > 0) {
      const cap = stack.pop()!;
      const j = stack.pop()!;
      const i = stack.pop()!;
      if (j - i < 2) continue;
      let best = -1;
      let k = i + 1;
      for (let m = i + 1; m < j; m++) {
        const d = distanceToChord(x, y, m, i, j, perDegree);
        if (d > best) [best, k] = [d, m];
      }
      const weight = Math.min(best, cap);
      w[k] = weight;
      stack.push(i, k, weight, k, j, weight);
    }
  }
  return w;
}

/** Distance in metres from vertex p to segment a–b, on a local equirectangular projection of `perDegree` metres per degree. */
function distanceToChord(
  x: Float64Array,
  y: Float64Array,
  p: number,
  a: number,
  b: number,
  perDegree: number,
): number {
  const kx = Math.cos((((y[a] + y[b]) / 2) * Math.PI) / 180);
  const ax = x[a] * kx;
  const bx = x[b] * kx;
  const px = x[p] * kx;
  const dx = bx - ax;
  const dy = y[b] - y[a];
  const length2 = dx * dx + dy * dy;
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (y[p] - y[a]) * dy) / length2));
  return Math.hypot(px - ax - t * dx, y[p] - y[a] - t * dy) * perDegree;
}

/** Marks the heaviest removable vertices of `ring` as kept until it has three vertices that always stay. */
function keepTriangle(arcStart: Int32Array, w: Float64Array, ring: Ring): void {
  if (ring.length >= 3) return; // three arcs: three endpoints always stay
  const interior: number[] = [];
  for (const ref of ring) {
    const a = arcOf(ref);
    for (let i = arcStart[a] + 1; i < arcStart[a + 1] - 1; i++) interior.push(i);
  }
  let fixed = ring.length + interior.filter((i) => w[i] === Infinity).length;
  if (fixed >= 3) return;
  interior.sort((a, b) => w[b] - w[a]);
  for (const i of interior) {
    if (fixed >= 3) break;
    if (w[i] !== Infinity) {
      w[i] = Infinity;
      fixed++;
    }
  }
}

function thresholdTable(w: Float64Array): Pick<Prepared, 'thresholds' | 'keptAbove' | 'fixedVertices'> {
  let n = 0;
  const finite = new Float64Array(w.length);
  for (let i = 0; i < w.length; i++) if (w[i] !== Infinity) finite[n++] = w[i]!;
  const sorted = finite.subarray(0, n).sort();
  const thresholds = new Float64Array(n);
  const keptAbove = new Int32Array(n + 1);
  keptAbove[0] = n;
  let m = 0;
  for (let i = 0; i < n; i++) {
    if (i + 1 < n && sorted[i + 1] === sorted[i]) continue;
    thresholds[m] = sorted[i]!;
    keptAbove[++m] = n - i - 1;
  }
  return {
    thresholds: thresholds.slice(0, m),
    keptAbove: keptAbove.slice(0, m + 1),
    fixedVertices: w.length - n,
  };
}

/**
 * Returns the decimals whose rounding step (`perDegree` × 10^-d, ≈ 111 km ×
 * 10^-d on the Earth) is at most `toleranceM`, within [0, 6].
 */
export function decimalsFor(toleranceM: number, perDegree: number): number {
  if (toleranceM <= 0) return MAX_DECIMALS;
  return Math.max(0, Math.min(MAX_DECIMALS, Math.ceil(Math.log10(perDegree / toleranceM))));
}

/** One rendering of a prepared level. */
export interface Rendering {
  text: string;
  bytes: number;
  vertices: number; // positions written, closing ones included
}

/**
 * Returns the preview text keeping the vertices whose weight exceeds
 * `threshold` (-1 keeps all, and needs no weights), coordinates rounded to `decimals`. Consecutive
 * positions that round together are merged; a ring that would fall below
 * four positions gets more decimals on all its arcs (so neighbours still meet).
 */
export function render(prepared: Outline, threshold: number, decimals: number): Rendering {
  const { arcs } = prepared;
  const arcDecimals = new Uint8Array(arcs.start.length - 1).fill(decimals);
  const cache = new Map<number, RenderedArc>();
  const arcText = (index: number): string[] => {
    let out = cache.get(index);
    if (!out) {
      out = renderArc(arcs, index, threshold, arcDecimals[index]!);
      cache.set(index, out);
    }
    return out.texts;
  };
  const ringText = (ring: Ring): string[] => {
    const positions: string[] = [];
    for (const ref of ring) {
      const part = ref < 0 ? arcText(~ref).slice().reverse() : arcText(ref);
      for (let i = positions.length === 0 ? 0 : 1; i < part.length; i++) positions.push(part[i]!);
    }
    return positions;
  };
  const rings = prepared.features.flatMap((feature) => feature.polygons.flat());
  // First settle the decimals of every arc, then write: a shared arc is written alike on both sides.
  for (const ring of rings) {
    const arcIndexes = ring.map((ref) => (ref < 0 ? ~ref : ref));
    while (ringText(ring).length < 4 && arcIndexes.every((i) => arcDecimals[i]! < RESCUE_DECIMALS)) {
      for (const i of arcIndexes) {
        arcDecimals[i]!++;
        cache.delete(i);
      }
    }
  }

  let vertices = 0;
  const lines = prepared.features.map((feature) => {
    if (!feature.type) return `${feature.head},"geometry":null}`;
    const polygons = feature.polygons.map((polygon) =>
      polygon.map((ring) => {
        const positions = ringText(ring);
        vertices += positions.length;
        return `[[${positions.join('],[')}]]`;
      }),
    );
    const coordinates =
      feature.type === 'Polygon'
        ? `[${polygons[0]!.join(',')}]`
        : `[${polygons.map((p) => `[${p.join(',')}]`).join(',')}]`;
    return `${feature.head},"geometry":{"type":"${feature.type}","coordinates":${coordinates}}}`;
  });
  const bbox = [Infinity, Infinity, -Infinity, -Infinity];
  for (const { box } of cache.values()) {
    bbox[0] = Math.min(bbox[0]!, box[0]!);
    bbox[1] = Math.min(bbox[1]!, box[1]!);
    bbox[2] = Math.max(bbox[2]!, box[2]!);
    bbox[3] = Math.max(bbox[3]!, box[3]!);
  }
  const head = bbox[0] === Infinity ? '' : `"bbox":[${bbox.join(',')}],`;
  const text = `{"type":"FeatureCollection",${head}"features":[\n${lines.join(',\n')}\n]}`;
  return { text, bytes: Buffer.byteLength(text), vertices };
}

interface RenderedArc {
  texts: string[]; // e.g. ["-58.53,-34.65", "-58.55,-34.64"]
  box: number[]; // [west, south, east, north] of the rounded positions
}

/** Returns the arc's kept positions as "x,y" texts, merging neighbours that round alike, and their bbox. */
function renderArc(arcs: Outline['arcs'], index: number, threshold: number, decimals: number): RenderedArc {
  const bbox = [Infinity, Infinity, -Infinity, -Infinity];
  const scale = 10 ** decimals;
  const out: string[] = [];
  const first = arcs.start[index]!;
  const last = arcs.start[index + 1]! - 1;
  const { x: xs, y: ys, w } = arcs;
  for (let i = first; i <= last; i++) {
    if (w && !(w[i]! > threshold) && i !== first && i !== last) continue;
    const x = Math.round(xs[i]! * scale) / scale + 0; // + 0 turns -0 into 0
    const y = Math.round(ys[i]! * scale) / scale + 0;
    const text = `${x},${y}`;
    if (out[out.length - 1] === text) continue;
    out.push(text);
    if (x < bbox[0]!) bbox[0] = x;
    if (y < bbox[1]!) bbox[1] = y;
    if (x > bbox[2]!) bbox[2] = x;
    if (y > bbox[3]!) bbox[3] = y;
  }
  return { texts: out, box: bbox };
}
