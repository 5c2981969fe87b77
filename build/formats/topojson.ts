// Writes a level as TopoJSON: borders shared by two features stored once
// (arcs), positions quantised to a grid and delta-encoded. Arcs are found
// across the whole level, so the quantised positions are held in memory (in
// typed arrays, about 25 bytes per position: topology.ts); levels over
// TOPOJSON_MAX_BYTES are refused with a clear message. The file is written
// as a stream. TopoJSON here is 2D: a z is dropped (GDAL reads no geometry
// from positions of three numbers; formats.ts warns). A level no grid can
// hold (quantizationFor) is written unquantised, with exact positions.
import { open, rename, rm, stat } from 'node:fs/promises';
import { UserError } from '../core/errors.ts';
import { tempPathBeside } from '../core/atomic-write.ts';
import type { GeoFeature } from '../geojson/level-features.ts';
import { shapeOf } from './geometry.ts';
import { pump, scanSource, type FeatureSink, type SourceScan } from './source-scan.ts';
import {
  buildTopology,
  ExactRings,
  IntList,
  QuantisedRings,
  type Grid,
  type Topology,
} from '../geo/topology.ts';

/**
 * Largest source level converted to TopoJSON. The topology takes about 25
 * bytes a position, about the GeoJSON's own size (a 100 MB level: ~4.3 M
 * positions): 512 MiB of GeoJSON needs ~0.55 GB.
 */
export const TOPOJSON_MAX_BYTES = 512 * 1024 * 1024;

/** Grid step, in degrees, on the longer side of the level's bbox: 1e-6° ≈ 0.11 m, the sample data's own precision. */
const TOPOJSON_STEP_DEGREES = 1e-6;

/** The grid of a quantised TopoJSON. */
export interface TopoJsonGrid {
  quantization: number; // grid points across the bbox on each axis, e.g. 43032920
  scale: [number, number]; // the transform's step in degrees: every position is within half a step of the source
  translate: [number, number]; // the grid's origin, [west, south]
}

/** A TopoJSON file's grid, or `exact` when it is not quantised (positions are the source's doubles). */
export type TopoJsonResult = TopoJsonGrid | { exact: true };

/** Most grid points on an axis: quantised positions are 32-bit integers (topology.ts). */
const MAX_QUANTIZATION = 2 ** 31;

/**
 * Returns the quantisation giving a step of at most TOPOJSON_STEP_DEGREES
 * over `bbox`; undefined when no grid can keep every position within half a
 * step: an extent over ~2,147° (more grid points than 32-bit integers hold),
 * or steps lost in rounding (an extent of subnormal numbers, a step below
 * 2^-44 of the axis's largest coordinate). Such a level is written unquantised.
 */
export function quantizationFor(bbox: number[]): number | undefined {
  const [x0, y0, x1, y1] = bbox;
  const extent = Math.max(x1 - x0, y1 - y0);
  if (!Number.isFinite(extent)) return undefined;
  const quantization = Math.max(2, Math.ceil(extent / TOPOJSON_STEP_DEGREES) + 1);
  if (quantization > MAX_QUANTIZATION) return undefined;
  const { kx, ky } = gridFor(bbox, quantization);
  const axes = [
    [kx, Math.max(Math.abs(x0), Math.abs(x1))],
    [ky, Math.max(Math.abs(y0), Math.abs(y1))],
  ];
  // Decoding (q × step + origin) rounds by about an ulp of the axis's largest coordinate.
  for (const [k, magnitude] of axes) {
    if (!Number.isFinite(k) || !(1 / k >= magnitude * 2 ** -44)) return undefined;
  }
  return quantization;
}

/** Returns the grid of `quantization` points over `bbox`, as topojson-server lays it: origin at the south-west corner. */
function gridFor(bbox: number[], quantization: number): Grid {
  const [x0, y0, x1, y1] = bbox;
  return {
    x0,
    y0,
    kx: x1 - x0 ? (quantization - 1) / (x1 - x0) : 1,
    ky: y1 - y0 ? (quantization - 1) / (y1 - y0) : 1,
  };
}

/** Integral numbers JSON.stringify prints as integers that overflow a 64-bit integer, e.g. 123456789012345680000. */
const longInteger = (v: unknown) => typeof v === 'number' && Math.abs(v) >= 2 ** 63 && Math.abs(v) < 1e21;

/**
 * Returns the JSON text of a value, as JSON.stringify gives it except for
 * integral numbers from 2^63 to 1e21: JSON.stringify prints them as 20- or
 * 21-digit integers, which GDAL's JSON reader clips to 64 bits, so they are
 * written with an exponent (1.2345678901234568e+20: the same double).
 */
export function jsonText(value: unknown): string {
  const text = JSON.stringify(value);
  if (!/\d{19}/.test(text)) return text; // nearly always: no such number
  const write = (v: unknown): string => {
    if (longInteger(v)) return (v as number).toExponential();
    if (Array.isArray(v)) return `[${v.map((item) => write(item ?? null)).join(',')}]`;
    if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v).filter(([, item]) => item !== undefined);
      return `{${entries.map(([k, item]) => `${JSON.stringify(k)}:${write(item)}`).join(',')}}`;
    }
    return JSON.stringify(v);
  };
  return write(value);
}

/** A file written through a 1 MiB buffer of text. */
type TextWriter = Awaited<ReturnType<typeof textWriter>>;

/** Opens `path` for writing through a 1 MiB buffer of text. */
async function textWriter(path: string) {
  const file = await open(path, 'w');
  let parts: string[] = [];
  let pending = 0;
  const flush = async () => {
    const data = Buffer.from(parts.join(''));
    parts = [];
    pending = 0;
    await file.write(data);
  };
  return {
    async write(text: string) {
      parts.push(text);
      pending += text.length;
      if (pending >= 1 << 20) await flush();
    },
    async close() {
      await flush();
      await file.close();
    },
    abort: () => file.close(),
  };
}

/** Returns the size of `source`; a UserError when it is over TOPOJSON_MAX_BYTES. */
async function checkSize(source: string): Promise<number> {
  const { size } = await stat(source);
  if (size > TOPOJSON_MAX_BYTES) {
    throw new UserError(
      `${source}: ${size} bytes is over the TopoJSON limit of ${TOPOJSON_MAX_BYTES} bytes (TopoJSON is built in memory)`,
    );
  }
  return size;
}

/**
 * Opens a TopoJSON file to be written to `out` from `source` (a GeoJSON
 * level), with one object named `layer` (a GeometryCollection keeping each
 * feature's id and properties). add() quantises each feature into typed
 * arrays; finish() builds the topology and writes the file through a
 * temporary file renamed into place. A UserError refuses levels over
 * TOPOJSON_MAX_BYTES.
 */
export async function openTopoJson(
  source: string,
  out: string,
  layer: string,
  info: SourceScan,
): Promise<FeatureSink<TopoJsonResult>> {
  const size = await checkSize(source);
  const quantization = quantizationFor(info.bbox);
  const grid = quantization === undefined ? undefined : gridFor(info.bbox, quantization);
  const maxPoints = Math.ceil(size / 6) + 16;
  const rings = grid ? new QuantisedRings(grid, maxPoints) : new ExactRings(maxPoints);
  const features: Features = { heads: [], shapes: new IntList() };
  return {
    add: (feature) => addFeature(features, rings, feature),
    finish: async () => {
      const points = rings instanceof ExactRings ? rings.ranked() : rings;
      const topo = buildTopology(points);
      const result: TopoJsonResult = grid
        ? { quantization: quantization!, scale: [1 / grid.kx, 1 / grid.ky], translate: [grid.x0, grid.y0] }
        : { exact: true };
      await writeThroughTemp(out, async (w) => {
        await writeObject(w, layer, result, features, topo);
        await writeArcs(w, topo, points);
      });
      return result;
    },
    abort: async () => {},
  };
}

/** What the file keeps of each feature besides its rings, in source order. */
interface Features {
  heads: string[]; // per feature: `"id":…,"properties":…`
  shapes: IntList; // per feature: multi (0/1), polygons, then rings per polygon
}

/** The points of a level's rings: quantised, or ranks of the exact doubles (`xValues`, `yValues`). */
type Points = QuantisedRings | ReturnType<ExactRings['ranked']>;

/** Adds one feature: its rings to `rings`, its shape and its id and properties to `features`. */
function addFeature(features: Features, rings: QuantisedRings | ExactRings, feature: GeoFeature): void {
  const { shapes, heads } = features;
  const shape = shapeOf(feature);
  shapes.push(shape.multi ? 1 : 0);
  shapes.push(shape.polygons.length);
  for (const polygon of shape.polygons) {
    shapes.push(polygon.length);
    for (const ring of polygon) rings.addRing(ring);
  }
  const id = feature.id === undefined ? '' : `"id":${jsonText(feature.id)},`;
  heads.push(`${id}"properties":${jsonText(feature.properties ?? {})}`);
}

/** Writes `out` through `write` into a temporary file beside it, renamed into place; removed on failure. */
async function writeThroughTemp(out: string, write: (w: TextWriter) => Promise<void>): Promise<void> {
  const temp = tempPathBeside(out);
  const w = await textWriter(temp);
  try {
    await write(w);
    await w.close();
    await rename(temp, out);
  } catch (error) {
    await w.abort().catch(() => {});
    await rm(temp, { force: true });
    throw error;
  }
}

/** Writes the Topology's start (its transform when quantised) and the layer's geometries, by arc references. */
async function writeObject(
  w: TextWriter,
  layer: string,
  result: TopoJsonResult,
  { heads, shapes }: Features,
  topo: Topology,
): Promise<void> {
  const transform =
    'scale' in result
      ? `"transform":${JSON.stringify({ scale: result.scale, translate: result.translate })},`
      : '';
  await w.write(`{"type":"Topology",${transform}"objects":{${JSON.stringify(layer)}:`);
  await w.write('{"type":"GeometryCollection","geometries":[');
  let s = 0;
  let ring = 0;
  const ringRefs = () => {
    const from = topo.ringArcStart.data[ring];
    const to = topo.ringArcStart.data[++ring];
    return `[${Array.from(topo.ringArcs.data.subarray(from, to)).join(',')}]`;
  };
  for (let f = 0; f < heads.length; f++) {
    const multi = shapes.data[s++] === 1;
    const polygons: string[] = [];
    for (let p = shapes.data[s++]; p > 0; p--) {
      const refs: string[] = [];
      for (let r = shapes.data[s++]; r > 0; r--) refs.push(ringRefs());
      polygons.push(`[${refs.join(',')}]`);
    }
    const arcs = multi ? `[${polygons.join(',')}]` : polygons[0];
    await w.write(
      `${f ? ',' : ''}{"type":"${multi ? 'MultiPolygon' : 'Polygon'}","arcs":${arcs},${heads[f]}}`,
    );
  }
  await w.write(']}},');
}

/** Writes the Topology's arcs and its end: delta-encoded grid points, or the exact doubles when unquantised. */
async function writeArcs(w: TextWriter, topo: Topology, points: Points): Promise<void> {
  await w.write('"arcs":[');
  const xs = points.x.data;
  const ys = points.y.data;
  for (let a = 0; a < topo.arcs; a++) {
    const n = topo.arcLength(a);
    let text = a ? ',[' : '[';
    if ('xValues' in points) {
      // Unquantised: absolute positions, the source's doubles in their shortest text.
      const { xValues, yValues } = points;
      for (let k = 0; k < n; k++) {
        const p = topo.arcPoint(a, k);
        text += `${k ? ',' : ''}[${xValues[xs[p]]},${yValues[ys[p]]}]`;
      }
    } else {
      let p = topo.arcPoint(a, 0);
      let px = xs[p];
      let py = ys[p];
      text += `[${px},${py}]`;
      for (let k = 1; k < n; k++) {
        p = topo.arcPoint(a, k);
        text += `,[${xs[p] - px},${ys[p] - py}]`;
        px = xs[p];
        py = ys[p];
      }
    }
    await w.write(`${text}]`);
  }
  await w.write(']}\n');
}

/** Writes `source` to `out` as TopoJSON (see openTopoJson). */
export async function writeTopoJson(
  source: string,
  out: string,
  layer: string,
  scan?: SourceScan,
): Promise<TopoJsonResult> {
  await checkSize(source); // before the scan: a refused level is not read at all
  const info = scan ?? (await scanSource(source));
  const [result] = await pump(source, info, [await openTopoJson(source, out, layer, info)]);
  return result as TopoJsonResult;
}
