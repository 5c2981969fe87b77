// The shared edges of a country's coverage: the rings of every level are cut
// into arcs together (build/geo/topology.ts, on the exact coordinates), so an
// edge two units share, or an ADM1 edge that is also an ADM2 edge, is one arc
// whatever level or unit uses it. The simplifier (tpvw.ts) changes each arc
// once, and every ring that refers to it follows.
import { buildTopology, DoubleList, IntList, type Junctions, type RingPoints } from '../geo/topology.ts';
import type { GeoFeature } from '../geojson/level-features.ts';

type Position = number[];

/** One feature's place among the rings: its polygons' ring counts, from ring `firstRing` on. */
export interface FeatureRings {
  feature: GeoFeature;
  kind: 'Polygon' | 'MultiPolygon' | null; // null: kept as it is (no geometry, or not polygonal)
  firstRing: number;
  polygons: number[]; // rings per polygon, e.g. [1, 3]
}

/** The arcs of a coverage: vertex i of arc a is (x[i], y[i]) for arcStart[a] ≤ i < arcStart[a + 1]. */
export interface CoverageArcs {
  x: Float64Array; // longitude
  y: Float64Array; // latitude
  arcStart: Int32Array;
  ringArcs: Int32Array; // arc references of every ring, back to back (~a: arc a backwards)
  ringArcStart: Int32Array; // ring r's references are ringArcs[ringArcStart[r] … ringArcStart[r + 1])
  levels: FeatureRings[][]; // per level given, its features in order
}

/** Returns the polygons of a Polygon or MultiPolygon geometry, or null for anything else. */
function polygonsOf(feature: GeoFeature): Position[][][] | null {
  const g = feature.geometry;
  if (!g || !Array.isArray(g.coordinates)) return null;
  if (g.type === 'Polygon') return [g.coordinates as Position[][]];
  if (g.type === 'MultiPolygon') return g.coordinates as Position[][][];
  return null;
}

/**
 * Rings as integer points for the topology: each distinct position (exact
 * doubles) gets an id, its x; y is 0. Repeats are dropped and rings stored
 * open, as the topology's own ring classes do. Ids need no sort (the
 * TopoJSON writer's ExactRings ranks its values to keep their order, which
 * only a quantised grid needs).
 */
class PositionIds implements RingPoints {
  readonly x: IntList;
  readonly y: IntList;
  readonly ringStart = new IntList();
  readonly lon: DoubleList;
  readonly lat: DoubleList;
  private table: Int32Array;
  private mask: number;

  constructor(maxPoints: number) {
    this.x = new IntList(maxPoints);
    this.y = new IntList(maxPoints);
    this.lon = new DoubleList(1024);
    this.lat = new DoubleList(1024);
    let size = 1024;
    while (size < maxPoints) size *= 2; // at most half full: distinct positions ≤ points, shared ones fewer
    this.table = new Int32Array(2 * size).fill(-1);
    this.mask = 2 * size - 1;
    this.ringStart.push(0);
  }

  /** Returns the table's first free slot for a position hashing to `lon`, `lat` (known not to be in it). */
  private slotOf(lon: number, lat: number): number {
    const h = Math.imul((lon * 1e7) | 0, 0x9e3779b1) ^ Math.imul((lat * 1e7) | 0, 0x85ebca77);
    let s = (h ^ (h >>> 16)) & this.mask;
    while (this.table[s] !== -1) s = (s + 1) & this.mask;
    return s;
  }

  /** Doubles the table, when the positions met fill half of it (more than the count given at first: CoverageArcsBuilder). */
  private grow(): void {
    this.table = new Int32Array(2 * (this.mask + 1)).fill(-1);
    this.mask = this.table.length - 1;
    for (let id = 0; id < this.lon.length; id++)
      this.table[this.slotOf(this.lon.data[id], this.lat.data[id])] = id;
  }

  get rings(): number {
    return this.ringStart.length - 1;
  }

  /** Returns the id of position (lon, lat), new when first met. */
  private id(lon: number, lat: number): number {
    const { table } = this;
    lon += 0; // -0 → 0: the same place
    lat += 0;
    // Equal positions hash alike; positions within 1e-7° of each other share a bucket, told apart below.
    const h = Math.imul((lon * 1e7) | 0, 0x9e3779b1) ^ Math.imul((lat * 1e7) | 0, 0x85ebca77);
    let s = (h ^ (h >>> 16)) & this.mask;
    for (;;) {
      const id = table[s];
      if (id === -1) break;
      if (this.lon.data[id] === lon && this.lat.data[id] === lat) return id;
      s = (s + 1) & this.mask;
    }
    const id = this.lon.length;
    this.lon.push(lon);
    this.lat.push(lat);
    table[s] = id;
    if (2 * this.lon.length > this.mask) this.grow();
    return id;
  }

  /** Adds one GeoJSON ring (closed): repeats dropped, stored open, at least 3 points. */
  addRing(ring: Position[]): void {
    const start = this.x.length;
    let last = -1;
    for (const p of ring) {
      const id = this.id(p[0], p[1]);
      if (id === last) continue;
      this.x.push(id);
      this.y.push(0);
      last = id;
    }
    let n = this.x.length - start;
    if (n > 1 && this.x.data[start] === last) {
      this.x.length--;
      this.y.length--;
      n--;
    }
    for (; n < 3; n++) {
      this.x.push(this.x.data[start]);
      this.y.push(0);
    }
    this.ringStart.push(this.x.length);
  }
}

/**
 * The junctions of rings whose points are position ids: a position met again
 * with other neighbours (in either order) is one, as in the topology's own
 * position table, found here with arrays indexed by id instead of hashing.
 */
function idJunctions(rings: PositionIds): Junctions {
  const ids = rings.x.data;
  const starts = rings.ringStart.data;
  const positions = rings.lon.length;
  const prev = new Int32Array(positions).fill(-1);
  const next = new Int32Array(positions);
  const junction = new Uint8Array(positions);
  for (let r = 0; r < rings.rings; r++) {
    const s = starts[r];
    const e = starts[r + 1];
    for (let i = s; i < e; i++) {
      const id = ids[i];
      const p = ids[i === s ? e - 1 : i - 1];
      const n = ids[i === e - 1 ? s : i + 1];
      if (prev[id] === -1) {
        prev[id] = p;
        next[id] = n;
      } else if (!((prev[id] === p && next[id] === n) || (prev[id] === n && next[id] === p)))
        junction[id] = 1;
    }
  }
  return { isJunction: (i) => junction[ids[i]] === 1 };
}

/**
 * Cuts the rings of features given one at a time, level by level (`level()`
 * starts the next), into arcs (`finish()`). With `keepGeometry` false a
 * polygonal feature is kept without its coordinates (its rings are in the
 * builder by then), so a caller reading features one by one never holds the
 * levels' parsed trees: a country's simplified copies (copies.ts) parsed
 * every level whole at once, 1.2 GB for 154 MB of GeoJSON (bench:formats).
 */
export class CoverageArcsBuilder {
  private rings: PositionIds;
  private ringCount = 0;
  private layout: FeatureRings[][] = [];

  constructor(
    positions = 16, // how many to expect; the table grows past it
    private keepGeometry = true,
  ) {
    this.rings = new PositionIds(Math.max(positions, 16));
  }

  /** Starts the next level. */
  level(): void {
    this.layout.push([]);
  }

  /** Adds the next feature of the current level. */
  add(feature: GeoFeature): void {
    const polygons = polygonsOf(feature);
    const firstRing = this.ringCount;
    const features = this.layout.at(-1)!;
    if (!polygons) {
      features.push({ feature, kind: null, firstRing, polygons: [] });
      return;
    }
    for (const polygon of polygons) for (const ring of polygon) this.rings.addRing(ring);
    this.ringCount += polygons.reduce((n, p) => n + p.length, 0);
    const kind = feature.geometry!.type as 'Polygon' | 'MultiPolygon';
    const kept = this.keepGeometry ? feature : { ...feature, geometry: { type: kind } };
    features.push({ feature: kept, kind, firstRing, polygons: polygons.map((p) => p.length) });
  }

  /** Returns the arcs of every ring added, cut where any two rings part, each feature's rings in order; the builder is empty after. */
  finish(): CoverageArcs {
    const { rings } = this;
    const topology = buildTopology(rings, idJunctions(rings));
    const arcStart = new Int32Array(topology.arcs + 1);
    for (let a = 0; a < topology.arcs; a++) arcStart[a + 1] = arcStart[a] + topology.arcLength(a);
    const n = arcStart[topology.arcs];
    const x = new Float64Array(n);
    const y = new Float64Array(n);
    const ids = rings.x.data;
    for (let a = 0, i = 0; a < topology.arcs; a++) {
      for (let k = 0, len = topology.arcLength(a); k < len; k++, i++) {
        const id = ids[topology.arcPoint(a, k)];
        x[i] = rings.lon.data[id];
        y[i] = rings.lat.data[id];
      }
    }
    const arcs = {
      x,
      y,
      arcStart,
      ringArcs: topology.ringArcs.data.slice(0, topology.ringArcs.length),
      ringArcStart: topology.ringArcStart.data.slice(0, topology.ringArcStart.length),
      levels: this.layout,
    };
    // Let go of the position table (~50 bytes a vertex): a caller that keeps the builder in scope while it
    // simplifies (copies.ts) held it to the end, a third of the copies' peak on bench:formats' country.
    this.rings = new PositionIds(16);
    this.ringCount = 0;
    this.layout = [];
    return arcs;
  }
}

/**
 * Returns the arcs of the rings of every feature of every level in `levels`
 * (e.g. [ADM0, ADM1, ADM2] of one country), cut where any two rings part,
 * with each feature's rings in order.
 */
export function coverageArcs(levels: GeoFeature[][]): CoverageArcs {
  let positions = 0;
  for (const features of levels)
    for (const f of features) for (const p of polygonsOf(f) ?? []) for (const r of p) positions += r.length;
  const builder = new CoverageArcsBuilder(positions);
  for (const features of levels) {
    builder.level();
    for (const feature of features) builder.add(feature);
  }
  return builder.finish();
}
