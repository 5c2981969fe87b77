import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { BIN, cli } from '../support/cli.ts';
import { describe, expect, it } from 'vitest';
import { GeoJSONError } from '../../build/geojson/errors.ts';
import { measureGeoJSON } from '../../build/measure/measure.ts';

import { falseFixtures } from '../support/geojson-fixtures.ts';

const FIXTURES = new URL('../fixtures/measure/', import.meta.url).pathname;
const run = promisify(execFile);

// Each file in test/fixtures/measure/false/ has beside it (NAME.geojson.expected.txt)
// the exact message expected, "PATH: byte OFFSET: reason". Offsets point at the
// offending byte: the token, or the '{' of the object that lacks a member.
const INVALID = falseFixtures();

describe('malformed GeoJSON → GeoJSONError "PATH: byte OFFSET: reason"', () => {
  it.each(INVALID)('%s → %s', async (name, reason) => {
    const path = `${FIXTURES}false/${name}.geojson`;
    // The same error whether the bad token is inside one read or cut by the end of one,
    // and when the file is scanned in segments shared with a worker thread.
    for (const options of [
      {},
      { chunkSize: 5 },
      { chunkSize: 16 },
      { parallelMinBytes: 0, segmentBytes: 40 },
    ]) {
      const error = await measureGeoJSON(path, options).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GeoJSONError);
      expect((error as GeoJSONError).message).toBe(`${path}: ${reason}`);
      const offset = Number(/^byte (\d+)/.exec(reason)![1]);
      expect(error).toMatchObject({ path, offset, reason: reason.replace(/^byte \d+: /, '') });
    }
  });

  it('a folder → UserError "PATH: cannot read: EISDIR"', async () => {
    await expect(measureGeoJSON(`${FIXTURES}true`)).rejects.toThrow(`${FIXTURES}true: cannot read: EISDIR`);
  });

  it('a missing file → UserError "PATH: cannot read: no such file"', async () => {
    await expect(measureGeoJSON(`${FIXTURES}nope.geojson`)).rejects.toThrow(
      `${FIXTURES}nope.geojson: cannot read: no such file`,
    );
  });
});

// Choices where the issue is silent, each pinned by a valid fixture.
describe('valid edge cases', () => {
  const measure = (name: string) => measureGeoJSON(`${FIXTURES}true/${name}.geojson`);

  it('a UTF-8 byte order mark is skipped (but counted in bytes and sha256)', async () => {
    const stats = await measure('bom');
    expect(stats).toMatchObject({ bytes: readFileSync(`${FIXTURES}true/bom.geojson`).length, features: 1 });
  });

  it('features: [] is measurable: 0 features, bbox of infinities like @turf/bbox, no types, no properties', async () => {
    expect(await measure('empty-features')).toMatchObject({
      features: 0,
      bbox: [Infinity, Infinity, -Infinity, -Infinity],
      geometry_types: {},
      properties: [],
    });
  });

  it('extra members (name, crs, bbox, unknown ones) are skipped, in any order', async () => {
    expect(await measure('extra-members')).toMatchObject({ features: 1, bbox: [0, 0, 1, 1] });
  });

  it('null properties add no names', async () => {
    expect(await measure('null-properties')).toMatchObject({ features: 2, properties: ['name'] });
  });

  it('members in any order; geometry "bbox" and feature "id" ignored; nested property values skipped', async () => {
    expect(await measure('member-order')).toMatchObject({
      bbox: [-1.5, -6.25, 5, 4],
      geometry_types: { MultiPolygon: 1 },
      properties: ['a', 'b'],
    });
  });

  it('property names are decoded and sorted by codepoint (U+FFFF before U+1F600)', async () => {
    expect((await measure('escaped-names')).properties).toEqual(['"q"', 'café', 'naïve', '\uffff', '😀']);
  });

  it('JSON whitespace anywhere, exponents and negative zero', async () => {
    const stats = await measure('whitespace');
    expect(stats.bbox).toEqual([1e-7, -0, 150, 3]);
    expect(Object.is(stats.bbox[1], -0)).toBe(true); // the first of equal values wins, as in @turf/bbox
  });

  it('a third number (z) is checked but not in the bbox', async () => {
    expect((await measure('z-coordinates')).bbox).toEqual([0, 0, 1, 1]);
  });

  it('a property name twice in one feature counts once (duplicate GeoJSON members are errors)', async () => {
    expect((await measure('duplicate-property-names')).properties).toEqual(['a', 'b']);
  });
});

describe('geoshelf measure FILE…', () => {
  it('prints one JSON line per file with path first; a bad file goes to stderr, the rest still print, exit 1', async () => {
    const good = `${FIXTURES}true/member-order.geojson`;
    const bad = `${FIXTURES}false/null-geometry.geojson`;
    const empty = `${FIXTURES}true/empty-features.geojson`;
    const error = await run('node', [BIN, 'measure', good, bad, empty]).catch(
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    expect(error).toMatchObject({ code: 1 });
    const { stdout, stderr } = error as { stdout: string; stderr: string };
    expect(stderr).toBe(`${bad}: byte 214: features[1].geometry is null\n`);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(
      `{"path":${JSON.stringify(good)},"bytes":224,"sha256":"538c138cbedb29efd9edb83629c9117a7dd0dc0684fb976190eff7914ff3ce23","features":1,"bbox":[-1.5,-6.25,5,4],"geometry_types":{"MultiPolygon":1},"properties":["a","b"]}`,
    );
    expect(JSON.parse(lines[1])).toMatchObject({ path: empty, features: 0, bbox: null });
  });

  it('all files good → exit 0', async () => {
    const { code, stdout } = await cli('measure', `${FIXTURES}true/bom.geojson`);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ features: 1, properties: ['name'] });
  });

  it('no file → a one-line usage error, exit 2', async () => {
    expect(await cli('measure')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'geoshelf measure: give at least one GeoJSON file (see --help)\n',
    });
  });
});
