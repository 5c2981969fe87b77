import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from './errors.ts';

/** A GeoJSON feature as read whole by preview and split (which need the geometry in memory). */
export interface GeoFeature {
  type: 'Feature';
  id?: string | number;
  properties: Record<string, unknown> | null;
  geometry: { type: string; coordinates?: unknown } | null;
}

/**
 * Returns the features of a GeoJSON FeatureCollection file (`path` relative to
 * `root`, e.g. "data/earth/CHL/CHL_ADM1.geojson"); a UserError names a bad file.
 */
export async function readFeatures(root: string, path: string): Promise<GeoFeature[]> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(join(root, path), 'utf8'));
  } catch (error) {
    throw new UserError(`${path}: cannot read as JSON: ${(error as Error).message.split('\n')[0]}`);
  }
  const collection = value as { type?: unknown; features?: unknown };
  if (collection?.type !== 'FeatureCollection' || !Array.isArray(collection.features)) {
    throw new UserError(`${path}: not a GeoJSON FeatureCollection`);
  }
  return collection.features as GeoFeature[];
}
