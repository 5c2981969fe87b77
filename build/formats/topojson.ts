// Writes a level as TopoJSON with topojson-server: borders shared by two
// features are stored once (arcs), positions are quantised and
// delta-encoded. TopoJSON needs the whole level in memory (arcs are found
// across all features), so levels over TOPOJSON_MAX_BYTES are refused with
// a clear message instead of exhausting memory; the other formats stream.
import { rename, rm, stat, writeFile } from 'node:fs/promises';
import { topology } from 'topojson-server';
import { UserError } from '../core/errors.ts';
import { tempPathBeside } from '../core/atomic-write.ts';
import type { GeoFeature } from '../core/read-features.ts';
import { streamFeatures } from './feature-stream.ts';

/** Largest source level converted to TopoJSON (memory grows about 6× the GeoJSON). */
export const TOPOJSON_MAX_BYTES = 128 * 1024 * 1024;

/** Grid step, in degrees, on the longer side of the level's bbox: 1e-6° ≈ 0.11 m, the sample data's own precision. */
export const TOPOJSON_STEP_DEGREES = 1e-6;

export interface TopoJsonResult {
  quantization: number; // grid points across the bbox on each axis, e.g. 43032920
  scale: [number, number]; // the transform's step in degrees: every position is within half a step of the source
  translate: [number, number]; // the grid's origin, [west, south]
}

/** Returns the quantisation giving a step of at most TOPOJSON_STEP_DEGREES over `bbox`. */
export function quantizationFor(bbox: number[]): number {
  const extent = Math.max(bbox[2] - bbox[0], bbox[3] - bbox[1]);
  return Math.max(2, Math.ceil(extent / TOPOJSON_STEP_DEGREES) + 1);
}

/**
 * Writes `source` (a GeoJSON level) to `out` as TopoJSON with one object
 * named `layer` (a GeometryCollection keeping each feature's id and
 * properties), through a temporary file renamed into place. A UserError
 * refuses levels over TOPOJSON_MAX_BYTES.
 */
export async function writeTopoJson(source: string, out: string, layer: string): Promise<TopoJsonResult> {
  const { size } = await stat(source);
  if (size > TOPOJSON_MAX_BYTES) {
    throw new UserError(
      `${source}: ${size} bytes is over the TopoJSON limit of ${TOPOJSON_MAX_BYTES} bytes (TopoJSON is built in memory); ` +
        'the other formats are written',
    );
  }
  const features: GeoFeature[] = [];
  const bbox = [Infinity, Infinity, -Infinity, -Infinity];
  for await (const { feature } of streamFeatures(source)) features.push(feature);
  for (const f of features) extend(bbox, f.geometry?.coordinates);
  const quantization = quantizationFor(bbox);
  const collection = { type: 'FeatureCollection', features } as unknown as GeoJSON.FeatureCollection;
  const topo = topology({ [layer]: collection }, quantization);
  const scale = (topo.transform?.scale ?? [0, 0]) as [number, number];
  const translate = (topo.transform?.translate ?? [0, 0]) as [number, number];
  const temp = tempPathBeside(out);
  try {
    await writeFile(temp, JSON.stringify(topo));
    await rename(temp, out);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return { quantization, scale, translate };
}

/** Extends `bbox` by every position in nested coordinate arrays. */
function extend(bbox: number[], coordinates: unknown): void {
  if (!Array.isArray(coordinates)) return;
  if (typeof coordinates[0] === 'number') {
    const [x, y] = coordinates as number[];
    if (x < bbox[0]) bbox[0] = x;
    if (y < bbox[1]) bbox[1] = y;
    if (x > bbox[2]) bbox[2] = x;
    if (y > bbox[3]) bbox[3] = y;
    return;
  }
  for (const c of coordinates) extend(bbox, c);
}
