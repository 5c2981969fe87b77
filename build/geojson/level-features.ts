// A level's features parsed, for the stages that need every geometry in
// memory at once (preview's shared borders, split's overlaps, the maps'
// planes and the atlas's units), read by the one reader (features.ts): each
// feature is parsed on its own, so a level is limited by its features, not
// by V8's longest string, and a malformed file says where, as validate says
// it. The file is resolved through the data root: nothing outside data/ is
// ever read.
import { outsideProblem, resolveInData } from '../core/data-root.ts';
import { UserError } from '../core/errors.ts';
import { problem } from '../core/problem.ts';
import { GeoJSONError } from './errors.ts';
import { readFeatureBytes } from './features.ts';

/** A GeoJSON feature as parsed whole. */
export interface GeoFeature {
  type: 'Feature';
  id?: string | number;
  properties: Record<string, unknown> | null;
  geometry: { type: string; coordinates?: unknown } | null;
}

/**
 * Calls `each` with every feature of the FeatureCollection at `real` (an
 * absolute path), parsed on its own and not kept: memory does not grow with
 * the file, and what a feature leaves dies young. A malformed file throws
 * the reader's GeoJSONError (with the byte it fails at).
 */
async function eachFeatureAt(real: string, each: (feature: GeoFeature) => void): Promise<void> {
  for await (const { bytes } of readFeatureBytes(real))
    each(JSON.parse(bytes.toString('utf8')) as GeoFeature);
}

/** Returns the features of the FeatureCollection at `real`, as eachFeatureAt reads them. */
export async function parsedFeatures(real: string): Promise<GeoFeature[]> {
  const features: GeoFeature[] = [];
  await eachFeatureAt(real, (f) => features.push(f));
  return features;
}

/**
 * Calls `each` with every feature of a GeoJSON level file (`path` relative
 * to `root`, e.g. "data/earth/CHL/CHL_ADM1.geojson"), one at a time, none
 * kept; a UserError names a file that is missing, leads outside data/, or is
 * not a FeatureCollection (with the byte).
 */
export async function eachLevelFeature(
  root: string,
  path: string,
  each: (feature: GeoFeature) => void,
): Promise<void> {
  const found = await resolveInData(root, path);
  if (found.kind === 'missing') throw new UserError(problem(path, 'cannot read: no such file'));
  if (found.kind === 'outside') {
    const { message, paths } = outsideProblem(root, path, found.real);
    throw new UserError(problem(path, message, { paths }));
  }
  if (found.kind !== 'file') throw new UserError(problem(path, 'cannot read: not a file'));
  try {
    await eachFeatureAt(found.real, each);
  } catch (error) {
    if (error instanceof GeoJSONError) {
      throw new UserError(problem(path, error.reason, { byte: error.offset, rule: 'geojson' }));
    }
    throw error;
  }
}

/** Returns the features of a GeoJSON level file, as eachLevelFeature reads them (and fails). */
export async function readLevelFeatures(root: string, path: string): Promise<GeoFeature[]> {
  const features: GeoFeature[] = [];
  await eachLevelFeature(root, path, (f) => features.push(f));
  return features;
}
