// Reads a GeoJSON level whole, for the stages that need every geometry in
// memory at once (preview's shared borders, split's overlaps).
import { readFile } from 'node:fs/promises';
import { outsideProblem, resolveInData } from './data-root.ts';
import { UserError } from './errors.ts';
import { problem } from './problem.ts';

/**
 * The largest file read whole: V8's longest string is 2^29 - 24 UTF-16 units,
 * and a UTF-8 file never decodes to more units than it has bytes, so any file
 * up to this size fits (512 MiB less 24 bytes).
 */
export const MAX_WHOLE_FILE_BYTES = 2 ** 29 - 24;

/** A GeoJSON feature as read whole by preview and split (which need the geometry in memory). */
export interface GeoFeature {
  type: 'Feature';
  id?: string | number;
  properties: Record<string, unknown> | null;
  geometry: { type: string; coordinates?: unknown } | null;
}

/**
 * Returns the features of a GeoJSON FeatureCollection file (`path` relative to
 * `root`, e.g. "data/earth/CHL/CHL_ADM1.geojson"); a UserError names a bad
 * file, one that leads outside data/, or one too large to read whole.
 */
export async function readFeatures(root: string, path: string): Promise<GeoFeature[]> {
  const found = await resolveInData(root, path);
  if (found.kind === 'missing') throw new UserError(problem(path, 'cannot read: no such file'));
  if (found.kind === 'outside') {
    const { message, paths } = outsideProblem(root, path, found.real);
    throw new UserError(problem(path, message, { paths }));
  }
  if (found.kind !== 'file') throw new UserError(problem(path, 'cannot read: not a file'));
  if (found.size > MAX_WHOLE_FILE_BYTES) {
    throw new UserError(
      problem(
        path,
        `is ${found.size} bytes; preview and split read a level whole, which works up to ${MAX_WHOLE_FILE_BYTES} bytes (512 MiB, V8's string limit): split the source into smaller files first`,
        { rule: 'too-large' },
      ),
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(await readFile(found.real)));
  } catch (error) {
    throw new UserError(problem(path, `cannot read as JSON: ${(error as Error).message.split('\n')[0]}`));
  }
  const collection = value as { type?: unknown; features?: unknown };
  if (collection?.type !== 'FeatureCollection' || !Array.isArray(collection.features)) {
    throw new UserError(problem(path, 'not a GeoJSON FeatureCollection'));
  }
  return collection.features as GeoFeature[];
}
