// The shared corpus beside the repository (../shared/corpus/): real data the
// tests read but never copy. Where it is absent, its tests skip with a message
// locally, and fail in CI (`CI` set), which must have it: a skip there would
// hide that the real data was never checked.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** World-GeoJSON: published manifests and GeoJSON (the folder holding data/). */
export const WORLD_GEOJSON = fileURLToPath(new URL('../../../shared/corpus/world-geojson/', import.meta.url));
/** UBI-COPEC: the original locations service's database and real locations. */
export const UBI_COPEC = fileURLToPath(new URL('../../../shared/corpus/ubi-copec/', import.meta.url));

/**
 * Returns whether `path` (in the corpus) is there for the tests that need it:
 * false (with a warning) when absent locally; throws in CI, so those tests fail.
 */
export function corpusPresent(path: string): boolean {
  if (existsSync(path)) return true;
  if (process.env.CI) throw new Error(`${path} is missing: CI needs the shared corpus beside the repository`);
  console.warn(`skipping tests that read ${path}: the shared corpus is not checked out`);
  return false;
}
