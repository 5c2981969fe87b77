// Shared by the publishing tests: temp copies of the fixture tree, the CLI, and
// reading a GeoJSON file's rings.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** The fixture tree: country XTA, 3 ADM1 regions with wiggly shared borders, 13 ADM2 districts. */
export const FIXTURE = new URL('../fixtures/publishing/', import.meta.url).pathname;
const BIN = new URL('../../bin/geoshelf.js', import.meta.url).pathname;
const TMP = '/tmp/geoshelf-publishing-tests';

/** Returns a fresh temp folder holding a copy of `from`'s data/. */
export function tempCopy(from = FIXTURE): string {
  mkdirSync(TMP, { recursive: true });
  const root = mkdtempSync(join(TMP, 'tree-'));
  cpSync(join(from, 'data'), join(root, 'data'), { recursive: true });
  return root;
}

/** Runs `geoshelf ARGS…` and returns its exit code, stdout and stderr. */
export async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)('node', [BIN, ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
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
