// Turf-style fixtures: test/fixtures/geometry/true/*.geojson are valid;
// each false/*.geojson holds one feature with one defect, and its properties
// give the exact problem expected ("POINTER: message") and its severity.
// GEOS must agree on the verdict and, for OGC rules, on the kind (GEOS does
// not check coordinate ranges: to it that fixture is valid).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkGeometryFile } from '../../build/geometry/check-file.ts';
import { GEOMETRY_PROBLEM_KINDS } from '../../build/geometry/kinds.ts';
import { COORDINATE_OUT_OF_RANGE } from '../../build/geometry/range.ts';
import { geosVerdicts, skipOracle } from './oracle.ts';

const ROOT = new URL('../fixtures/geometry/', import.meta.url).pathname;
const list = (verdict: string) =>
  readdirSync(join(ROOT, verdict))
    .filter((name) => name.endsWith('.geojson'))
    .map((name) => join(ROOT, verdict, name));
const valid = list('true');
const invalid = list('false');

describe('geometry fixtures', () => {
  it.each(valid.map((path) => [path.slice(ROOT.length), path]))('%s is valid', async (_, path) => {
    expect((await checkGeometryFile(path)).issues).toEqual([]);
  });

  it.each(invalid.map((path) => [path.slice(ROOT.length), path]))(
    '%s gives its expected problem',
    async (_, path) => {
      const { properties } = (
        JSON.parse(readFileSync(path, 'utf8')) as { features: { properties: Record<string, string> }[] }
      ).features[0]!;
      const { issues } = await checkGeometryFile(path);
      expect(issues.map((issue) => `${issue.pointer}: ${issue.message}`)).toEqual([properties.expected]);
      expect(issues[0]!.structural ? 'error' : 'warning').toBe(properties.severity);
    },
  );

  it.skipIf(skipOracle)(
    'GEOS agrees: true/ are valid, false/ invalid with the same kind (OGC rules)',
    async () => {
      const files = [...valid, ...invalid];
      const verdicts = geosVerdicts(files);
      for (const [i, path] of files.entries()) {
        const [issue] = (await checkGeometryFile(path)).issues.filter(
          (found) => found.kind !== COORDINATE_OUT_OF_RANGE,
        );
        const geos = verdicts[i]![0]!;
        if (issue?.structural) continue; // RFC 7946: shapely closes open rings, refuses short ones
        expect([path, geos?.[0]]).toEqual([path, issue === undefined]);
        if (issue)
          expect([path, geos![1].toLowerCase()]).toEqual([path, expect.stringContaining(issue.kind)]);
      }
    },
  );

  it('every kind of problem (build/geometry/kinds.ts) has a fixture', async () => {
    const kinds = new Set<string>();
    for (const path of invalid)
      for (const issue of (await checkGeometryFile(path)).issues) kinds.add(issue.kind);
    expect([...kinds].sort()).toEqual([...GEOMETRY_PROBLEM_KINDS].sort());
  });
});
