// The manifest schema (spec 2.2) through checkManifest: one case per rule,
// each with the exact problem expected (pointer and message).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LICENSES, type Manifest } from '../../build/core/shared/manifest.ts';
import { checkManifest, SCHEMA_PATH } from '../../build/manifest/schema.ts';

// Tests change raw manifest JSON anywhere, as a user's editor would.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const VALID = new URL('../fixtures/manifests/true/data/earth/CHL/manifest.json', import.meta.url);

/** Returns a fresh copy of the valid fixture manifest (ADM0 with preview, ADM1, ADM2 split in parts). */
function valid(): Manifest & Record<string, unknown> {
  return JSON.parse(readFileSync(VALID, 'utf8')) as Manifest & Record<string, unknown>;
}

/** Returns the problems of `valid()` after `change`, as "POINTER: message" lines. */
function problemsAfter(change: (m: Json) => void): string[] {
  const manifest = valid();
  change(manifest);
  const result = checkManifest(manifest);
  return result.ok ? [] : result.problems.map((p) => `${p.pointer}: ${p.message}`);
}

describe('manifest schema v1', () => {
  it('is draft 2020-12 with an $id, a title and descriptions', () => {
    const schema = JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as Record<string, unknown>;
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toBe('urn:geoshelf:schema:manifest:v1');
    expect(schema.title).toMatch(/manifest/);
    expect(schema.description).toBeTruthy();
  });

  it('lists the same licence identifiers as the Manifest type (plus "mixed" for source.license)', () => {
    const schema = JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as Json;
    expect(schema.$defs.license.enum).toEqual([...LICENSES]);
    expect(schema.$defs.source.properties.license.enum).toEqual([...LICENSES, 'mixed']);
  });

  it('accepts the valid fixture and returns it typed', () => {
    const result = checkManifest(valid());
    expect(result.ok && result.manifest.datasets.map((d) => d.level)).toEqual(['ADM0', 'ADM1', 'ADM2']);
  });

  it('a manifest that is not an object → one problem at the root', () => {
    expect(checkManifest([])).toEqual({
      ok: false,
      problems: [{ pointer: '', message: 'must be an object, got an array' }],
    });
  });

  it('required fields missing → one problem each, at the missing property', () => {
    expect(problemsAfter((m) => (delete m.crs, delete m.datasets[0].license))).toEqual([
      '/crs: required property is missing',
      '/datasets/0/license: required property is missing',
    ]);
  });

  it('closed objects: an unknown property is rejected at every level', () => {
    expect(
      problemsAfter((m) => {
        m.$schema = 'x';
        m.name.fr = 'Chili';
        m.crs.wkt = '';
        m.source.email = '';
        m.datasets[0].sha1 = '';
        m.datasets[0].simplification.passes = 2;
        m.datasets[0].geometry_types.Point = 0;
        m.datasets[2].parts[0].name = '';
      }),
    ).toEqual([
      '/$schema: unknown property (not allowed here)',
      '/name/fr: unknown property (not allowed here)',
      '/crs/wkt: unknown property (not allowed here)',
      '/source/email: unknown property (not allowed here)',
      '/datasets/0/sha1: unknown property (not allowed here)',
      '/datasets/0/geometry_types/Point: unknown property (not allowed here)',
      '/datasets/0/simplification/passes: unknown property (not allowed here)',
      '/datasets/2/parts/0/name: unknown property (not allowed here)',
    ]);
  });

  it('schema_version must be the integer 1', () => {
    expect(problemsAfter((m) => (m.schema_version = 2))).toEqual(['/schema_version: must be 1, got 2']);
  });

  it('enums: body, status, licences, simplification method', () => {
    expect(
      problemsAfter((m) => {
        m.body = 'venus';
        m.status = 'draft';
        m.datasets[0].license = 'MIT';
        m.datasets[0].simplification.method = 'topojson';
      }),
    ).toEqual([
      '/body: must be one of "earth", "moon", "mars", got "venus"',
      '/status: must be one of "ok", "review", "deprecated", got "draft"',
      '/datasets/0/license: must be one of "CC0-1.0", "CC-BY-2.5", "CC-BY-3.0", "CC-BY-3.0-IGO", "CC-BY-4.0", "DL-DE-BY-2.0", "Etalab-2.0", "ODC-By-1.0", "OGL-Canada-2.0", "OGL-UK-3.0", "public-domain", got "MIT"',
      '/datasets/0/simplification/method: must be one of "visvalingam", "douglas-peucker", "none", got "topojson"',
    ]);
  });

  it('patterns: iso_a3, iso_a2, retrieved, level, path, preview, sha256', () => {
    expect(
      problemsAfter((m) => {
        m.iso_a3 = 'chl';
        m.iso_a2 = 'CHL';
        m.source.retrieved = '2026-1-5';
        m.datasets[0].level = 'ADM6';
        m.datasets[0].path = 'CHL_ADM0.geojson';
        m.datasets[0].preview = 'data/earth/CHL/CHL_ADM0.preview.geojson';
        m.datasets[0].sha256 = 'ABC';
      }),
    ).toEqual([
      '/iso_a3: must be 3 capital letters (ISO 3166-1 alpha-3), got "chl"',
      '/iso_a2: must be 2 capital letters (ISO 3166-1 alpha-2), got "CHL"',
      '/source/retrieved: must be a date YYYY-MM-DD, got "2026-1-5"',
      '/datasets/0/level: must be ADM0 … ADM5 or QUAD, got "ADM6"',
      '/datasets/0/path: must be a path like data/{body}/{ISO3}/….geojson, got "CHL_ADM0.geojson"',
      '/datasets/0/sha256: must be 64 lowercase hexadecimal characters, got "ABC"',
      '/datasets/0/preview: must be a path like data/{body}/{ISO3}/preview/{ISO3}_{LEVEL}.preview.geojson, got "data/earth/CHL/CHL_ADM0.preview.geojson"',
    ]);
  });

  it('notes must be a single line', () => {
    expect(problemsAfter((m) => (m.notes = 'one\rtwo'))).toEqual([
      '/notes: must be a single line (no line break), got "one\\rtwo"',
    ]);
    expect(problemsAfter((m) => (m.notes = 'one line, even with “quotes” — fine'))).toEqual([]);
  });

  it('non-empty strings: m49_region, name.en, name.es, source.name, src_provider, part code', () => {
    expect(
      problemsAfter((m) => {
        m.m49_region = '';
        m.name.en = '';
        m.name.es = '';
        m.source.name = '';
        m.datasets[0].src_provider = '';
        m.datasets[2].parts[0].code = '';
      }),
    ).toEqual([
      '/m49_region: must not be empty',
      '/name/en: must not be empty',
      '/name/es: must not be empty',
      '/source/name: must not be empty',
      '/datasets/0/src_provider: must not be empty',
      '/datasets/2/parts/0/code: must not be empty',
    ]);
  });

  it('numeric bounds: bytes ≥ 1, features ≥ 1, preview_bytes 1…2097152, tolerance_m ≥ 0, type counts ≥ 0, unassigned ≥ 1', () => {
    expect(problemsAfter((m) => (m.datasets[0].preview_bytes = 2097152))).toEqual([]);
    expect(
      problemsAfter((m) => {
        m.datasets[0].bytes = 0;
        m.datasets[0].features = 0;
        m.datasets[0].preview_bytes = 2097153;
        m.datasets[0].simplification.tolerance_m = -1;
        m.datasets[0].geometry_types.MultiPolygon = -1;
        m.datasets[2].unassigned = 0;
      }),
    ).toEqual([
      '/datasets/0/bytes: must be at least 1, got 0',
      '/datasets/0/features: must be at least 1, got 0',
      '/datasets/0/geometry_types/MultiPolygon: must be at least 0, got -1',
      '/datasets/0/preview_bytes: must be at most 2097152, got 2097153',
      '/datasets/0/simplification/tolerance_m: must be at least 0, got -1',
      '/datasets/2/unassigned: must be at least 1, got 0',
    ]);
  });

  it('types: integers, numbers, src_year string or integer', () => {
    expect(problemsAfter((m) => (m.datasets[1].src_year = 2024))).toEqual([]);
    expect(
      problemsAfter((m) => {
        m.crs.epsg = '4326';
        m.datasets[0].features = 1.5;
        m.datasets[0].bbox = [-71, -26, '-67', -17];
        m.datasets[1].src_year = 2024.5;
      }),
    ).toEqual([
      '/crs/epsg: must be an integer, got a string',
      '/datasets/0/features: must be an integer, got a number',
      '/datasets/0/bbox/2: must be a number, got a string',
      '/datasets/1/src_year: must be a string or an integer, got a number',
    ]);
  });

  it('bbox has exactly 4 numbers', () => {
    expect(problemsAfter((m) => (m.datasets[0].bbox = [1, 2, 3, 4, 5]))).toEqual([
      '/datasets/0/bbox: must have exactly 4 numbers [west, south, east, north], got [1,2,3,4,5]',
    ]);
  });

  it('unique items: properties and licenses', () => {
    expect(
      problemsAfter((m) => {
        m.datasets[0].properties = ['shapeISO', 'shapeName', 'shapeISO'];
        m.source.licenses = ['CC-BY-4.0', 'public-domain', 'CC-BY-4.0'];
      }),
    ).toEqual([
      '/source/licenses: items 0 and 2 are equal ("CC-BY-4.0"); items must be unique',
      '/datasets/0/properties: items 0 and 2 are equal ("shapeISO"); items must be unique',
    ]);
  });

  it('source.url must be a URI', () => {
    expect(problemsAfter((m) => (m.source.url = 'geoboundaries.org'))).toEqual([
      '/source/url: must be a URI, got "geoboundaries.org"',
    ]);
  });

  it('license "mixed" requires licenses (at least 1); a single licence allows no licenses', () => {
    expect(problemsAfter((m) => delete m.source.licenses)).toEqual([
      '/source/licenses: required property is missing when license is "mixed"',
    ]);
    expect(problemsAfter((m) => (m.source.licenses = []))).toEqual([
      '/source/licenses: must have at least 1 item(s)',
    ]);
    expect(problemsAfter((m) => (m.source.license = 'CC-BY-4.0'))).toEqual([
      '/source/licenses: only allowed when license is "mixed" (a single licence covers every dataset)',
    ]);
  });

  it('parts requires split_by, split_by requires parts; split_by is ADM1; parts has at least 1 item', () => {
    expect(problemsAfter((m) => delete m.datasets[2].split_by)).toEqual([
      '/datasets/2/split_by: required property is missing (required when "parts" is present)',
    ]);
    expect(problemsAfter((m) => delete m.datasets[2].parts)).toEqual([
      '/datasets/2/parts: required property is missing (required when "split_by" is present)',
    ]);
    expect(problemsAfter((m) => (m.datasets[2].split_by = 'ADM2'))).toEqual([
      '/datasets/2/split_by: must be "ADM1", got "ADM2"',
    ]);
    expect(problemsAfter((m) => (m.datasets[2].parts = []))).toEqual([
      '/datasets/2/parts: must have at least 1 item(s)',
    ]);
  });

  it('a part requires code, path, bytes, sha256, features, bbox, geometry_types, properties', () => {
    expect(
      problemsAfter((m) => {
        const part = m.datasets[2].parts[1];
        for (const key of Object.keys(part)) delete part[key];
      }),
    ).toEqual(
      ['code', 'path', 'bytes', 'sha256', 'features', 'bbox', 'geometry_types', 'properties'].map(
        (key) => `/datasets/2/parts/1/${key}: required property is missing`,
      ),
    );
  });
});
