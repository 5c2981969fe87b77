// Shared by the preview and split tests: temp copies of the XTA fixture tree
// (test/fixtures/xta/), the CLI, and reading a GeoJSON file's rings.
import { readFileSync } from 'node:fs';
import { copyDataTree } from './cli.ts';

/** The fixture tree: country XTA, 3 ADM1 regions with wiggly shared borders, 13 ADM2 districts. */
export const FIXTURE = new URL('../fixtures/xta/', import.meta.url).pathname;
export { cli } from './cli.ts';

const TMP = '/tmp/geoshelf-xta-tests';

/** Returns a fresh temp folder holding a copy of `from`'s data/. */
export function tempCopy(from = FIXTURE): string {
  return copyDataTree(from, TMP);
}

export interface TestFeature {
  id?: string;
  properties: Record<string, unknown>;
  geometry: { type: 'Polygon' | 'MultiPolygon'; coordinates: number[][][] | number[][][][] };
}

/** Returns the features of a GeoJSON text. */
export function featuresOf(text: string): TestFeature[] {
  return (JSON.parse(text) as { features: TestFeature[] }).features;
}

/** Returns the features of a GeoJSON file. */
export function readFeatures(path: string): TestFeature[] {
  return featuresOf(readFileSync(path, 'utf8'));
}

/** Returns a feature's polygons (a Polygon as one polygon). */
export function polygonsOf(feature: TestFeature): number[][][][] {
  const g = feature.geometry;
  return g.type === 'Polygon' ? [g.coordinates as number[][][]] : (g.coordinates as number[][][][]);
}
