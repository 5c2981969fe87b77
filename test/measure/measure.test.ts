import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { BIN, cli } from '../support/cli.ts';
import { describe, expect, it } from 'vitest';
import { GeoJSONError } from '../../build/geojson/errors.ts';
import { measureGeoJSON } from '../../build/measure/measure.ts';

const FIXTURES = new URL('../fixtures/measure/', import.meta.url).pathname;
const run = promisify(execFile);

// Each file in test/fixtures/measure/invalid/ and the exact reason expected
// (the message is "PATH: " + this). Offsets point at the offending byte: the
// token, or the '{' of the object that lacks a member.
const INVALID: [name: string, reason: string][] = [
  ['control-character', `byte 82: invalid JSON: control character 0x09 in a string`],
  ['coordinate-ends-with-dot', 'byte 137: invalid JSON: malformed number'],
  ['coordinate-minus-alone', 'byte 137: invalid JSON: malformed number'],
  ['coordinate-with-leading-zero', `byte 140: invalid JSON: expected ',' or ']', found '1'`],
  ['coordinates-not-an-array', `byte 128: features[0].geometry.coordinates is not an array`],
  ['duplicate-features-key', `byte 42: the FeatureCollection has a duplicate "features" key`],
  ['duplicate-geometry-key', `byte 157: features[0] has a duplicate "geometry" key`],
  ['empty-file', `byte 0: unexpected end of file`],
  ['empty-position', `byte 137: features[0].geometry.coordinates: a position has fewer than 2 numbers`],
  ['empty-ring', `byte 130: features[0].geometry.coordinates: empty array`],
  ['feature-not-an-object', `byte 41: features[0] is not an object`],
  ['feature-wrong-type', `byte 49: features[0].type is "Featur", not "Feature"`],
  ['features-not-an-array', `byte 39: "features" is not an array`],
  [
    'geometry-collection',
    `byte 104: features[0].geometry.type "GeometryCollection" is not Polygon or MultiPolygon`,
  ],
  ['geometry-no-coordinates', `byte 96: features[0].geometry has no "coordinates"`],
  ['invalid-escape', `byte 77: invalid JSON: invalid escape '\\x' in a string`],
  ['invalid-json', `byte 40: invalid JSON: expected a value, found '}'`],
  ['invalid-literal', `byte 78: invalid JSON: expected a value, found 't'`],
  ['malformed-number', `byte 79: invalid JSON: malformed number`],
  ['missing-comma', `byte 139: invalid JSON: expected ',' or ']', found '0'`],
  [
    'multipolygon-too-shallow-type-last',
    `byte 111: features[0].geometry.coordinates: MultiPolygon positions must be nested 4 arrays deep, found 3`,
  ],
  ['no-features', `byte 0: not a FeatureCollection: no "features" member`],
  ['not-utf8', 'byte 83: not UTF-8: a GeoJSON file must be UTF-8 text (RFC 8259)'],
  ['utf8-surrogate', 'byte 80: not UTF-8: a GeoJSON file must be UTF-8 text (RFC 8259)'],
  ['utf8-cut-at-end', 'byte 82: not UTF-8: a GeoJSON file must be UTF-8 text (RFC 8259)'],
  ['no-geometry', `byte 159: features[1] has no "geometry"`],
  ['no-properties', `byte 41: features[0] has no "properties"`],
  ['no-type', `byte 0: not a FeatureCollection: no "type" member`],
  ['non-finite-coordinate', `byte 137: features[0].geometry.coordinates: non-finite coordinate 1e400`],
  ['non-finite-z', `byte 156: features[0].geometry.coordinates: non-finite coordinate -1E400`],
  ['not-a-feature-collection', `byte 8: not a FeatureCollection: "type" is "Feature"`],
  ['null-coordinate', `byte 139: features[0].geometry.coordinates: a coordinate is not a number`],
  ['null-geometry', `byte 214: features[1].geometry is null`],
  ['point', `byte 104: features[0].geometry.type "Point" is not Polygon or MultiPolygon`],
  [
    'polygon-too-deep',
    `byte 131: features[0].geometry.coordinates: Polygon positions must be nested 3 arrays deep, found an array 4 deep`,
  ],
  [
    'polygon-too-shallow',
    `byte 130: features[0].geometry.coordinates: Polygon positions must be nested 3 arrays deep, found a number 2 arrays deep`,
  ],
  [
    'position-with-one-number',
    `byte 138: features[0].geometry.coordinates: a position has fewer than 2 numbers`,
  ],
  ['properties-not-an-object', `byte 72: features[0].properties is not an object or null`],
  ['string-coordinate', `byte 137: features[0].geometry.coordinates: a coordinate is not a number`],
  ['too-deep-nesting', `byte 10076: nesting deeper than 10000 levels`],
  ['top-level-array', `byte 0: not a FeatureCollection: the top-level value is not an object`],
  ['trailing-content', `byte 161: unexpected 'x' after the FeatureCollection`],
  ['truncated', `byte 232: unexpected end of file`],
  ['uneven-nesting', `byte 139: features[0].geometry.coordinates: positions are nested unevenly`],
];

describe('malformed GeoJSON → GeoJSONError "PATH: byte OFFSET: reason"', () => {
  it('every fixture in invalid/ has a case here', async () => {
    const { readdirSync } = await import('node:fs');
    const files = readdirSync(`${FIXTURES}invalid`).map((f) => f.replace(/\.geojson$/, ''));
    expect(files.sort()).toEqual(INVALID.map(([name]) => name).sort());
  });

  it.each(INVALID)('%s → %s', async (name, reason) => {
    const path = `${FIXTURES}invalid/${name}.geojson`;
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
    await expect(measureGeoJSON(`${FIXTURES}valid`)).rejects.toThrow(`${FIXTURES}valid: cannot read: EISDIR`);
  });

  it('a missing file → UserError "PATH: cannot read: no such file"', async () => {
    await expect(measureGeoJSON(`${FIXTURES}nope.geojson`)).rejects.toThrow(
      `${FIXTURES}nope.geojson: cannot read: no such file`,
    );
  });
});

// Choices where the issue is silent, each pinned by a valid fixture.
describe('valid edge cases', () => {
  const measure = (name: string) => measureGeoJSON(`${FIXTURES}valid/${name}.geojson`);

  it('a UTF-8 byte order mark is skipped (but counted in bytes and sha256)', async () => {
    const stats = await measure('bom');
    expect(stats).toMatchObject({ bytes: readFileSync(`${FIXTURES}valid/bom.geojson`).length, features: 1 });
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
    const good = `${FIXTURES}valid/member-order.geojson`;
    const bad = `${FIXTURES}invalid/null-geometry.geojson`;
    const empty = `${FIXTURES}valid/empty-features.geojson`;
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
    const { code, stdout } = await cli('measure', `${FIXTURES}valid/bom.geojson`);
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
