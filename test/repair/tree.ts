// The tree repair's tests start from: the sample's CHL with an overlap, a
// gap and a nudged edge injected into ADM1 (test/coverage/inject.ts).
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { injectDefects, type Collection } from '../coverage/inject.ts';
import { cli } from '../support/cli.ts';

const SAMPLE = new URL('../../data/earth/CHL/', import.meta.url).pathname;
export const ADM1 = 'data/earth/CHL/CHL_ADM1.geojson';

/** Returns a tree holding the sample's CHL with the defects injected into ADM1 (its manifest updated), and which units they involve. */
export async function defectiveTree(
  tmp: string,
): Promise<{ root: string } & Omit<ReturnType<typeof injectDefects>, 'fc'>> {
  const root = mkdtempSync(join(tmp, 'tree-'));
  mkdirSync(join(root, 'data/earth'), { recursive: true });
  cpSync(SAMPLE, join(root, 'data/earth/CHL'), { recursive: true });
  const { fc, ...injected } = injectDefects(JSON.parse(readFileSync(join(root, ADM1), 'utf8')) as Collection);
  writeFileSync(join(root, ADM1), JSON.stringify(fc));
  const updated = await cli('manifest', '--root', root, 'CHL');
  expect(updated.code, updated.stderr).toBe(0);
  return { root, ...injected };
}
