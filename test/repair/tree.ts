// The trees repair's tests start from: the sample's CHL with an overlap, a
// gap and a nudged edge injected into ADM1 (test/coverage/inject.ts); and
// the sample's USA ADM2 published only as some of its state parts.
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Manifest } from '../../build/core/shared/manifest.ts';
import { injectDefects, type Collection } from '../coverage/inject.ts';
import { cli } from '../support/cli.ts';

const DATA = new URL('../../data/earth/', import.meta.url).pathname;
export const ADM1 = 'data/earth/CHL/CHL_ADM1.geojson';

/** Returns a tree holding the sample's CHL with the defects injected into ADM1 (its manifest updated), and which units they involve. */
export async function defectiveTree(
  tmp: string,
): Promise<{ root: string } & Omit<ReturnType<typeof injectDefects>, 'fc'>> {
  const root = mkdtempSync(join(tmp, 'tree-'));
  mkdirSync(join(root, 'data/earth'), { recursive: true });
  cpSync(join(DATA, 'CHL'), join(root, 'data/earth/CHL'), { recursive: true });
  const { fc, ...injected } = injectDefects(JSON.parse(readFileSync(join(root, ADM1), 'utf8')) as Collection);
  writeFileSync(join(root, ADM1), JSON.stringify(fc));
  const updated = await cli('manifest', '--root', root, 'CHL');
  expect(updated.code, updated.stderr).toBe(0);
  return { root, ...injected };
}

/**
 * Returns a tree whose USA manifest has one level, ADM2, published only as
 * the sample's parts `codes` (e.g. ["US-CA", "US-NV"]), in that order, with
 * no whole file (its manifest updated).
 */
export async function partsTree(tmp: string, codes: string[]): Promise<{ root: string; parts: string[] }> {
  const root = mkdtempSync(join(tmp, 'parts-'));
  mkdirSync(join(root, 'data/earth/USA/ADM2'), { recursive: true });
  const manifest = JSON.parse(readFileSync(join(DATA, 'USA/manifest.json'), 'utf8')) as Manifest;
  const adm2 = manifest.datasets.find((d) => d.level === 'ADM2')!;
  // No whole file (nor its preview): the parts are the level.
  for (const key of ['path', 'bytes', 'sha256', 'preview', 'preview_bytes'] as const) delete adm2[key];
  adm2.parts = codes.map((code) => adm2.parts!.find((p) => p.code === code)!);
  for (const part of adm2.parts) copyFileSync(join(DATA, '../..', part.path), join(root, part.path));
  manifest.datasets = [adm2];
  writeFileSync(join(root, 'data/earth/USA/manifest.json'), JSON.stringify(manifest, null, 2));
  const updated = await cli('manifest', '--root', root, 'USA');
  expect(updated.code, updated.stderr).toBe(0);
  return { root, parts: adm2.parts.map((p) => p.path) };
}
