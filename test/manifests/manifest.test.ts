// geoshelf manifest: derived fields recomputed from the files, every other
// field and the key order kept, --check lists changes, nothing schema-invalid
// is ever written, and a right manifest is left byte-identical.
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../../src/cli/command.ts';
import { manifestText, updateDerivedFields, writeManifest } from '../../build/manifest/update.ts';
import { loadManifests, type LoadedManifest } from '../../build/manifest/load.ts';
import type { Manifest } from '../../build/core/shared/manifest.ts';
import { MeasurementCache } from '../../build/measure/cache.ts';
import { cli, FIXTURES, lines, tempCopy } from './helpers.ts';

// Tests change raw manifest JSON anywhere, as a user's editor would.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const CHL = 'data/earth/CHL/manifest.json';
const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

function copy(tree: string): string {
  const root = tempCopy(join(FIXTURES, tree));
  roots.push(root);
  return root;
}

async function load(root: string, file = CHL): Promise<LoadedManifest> {
  const { manifests, problems } = loadManifests(root, [file]);
  expect(problems).toEqual([]);
  return manifests[0]!;
}

function edit(root: string, change: (m: Json) => void, file = CHL): string {
  const manifest = JSON.parse(readFileSync(join(root, file), 'utf8')) as Json;
  change(manifest);
  const text = `${JSON.stringify(manifest, null, 2)}\n`;
  writeFileSync(join(root, file), text);
  return text;
}

describe('updateDerivedFields', () => {
  it('recomputes bytes, sha256, features, bbox, geometry_types and properties; keeps the key order', async () => {
    const root = join(FIXTURES, 'false', 'stats');
    const loaded = await load(root);
    const { manifest, changes } = await updateDerivedFields(root, loaded, new MeasurementCache());
    expect(changes).toEqual(
      ['bytes', 'sha256', 'features', 'bbox', 'geometry_types', 'properties'].map((k) => `/datasets/0/${k}`),
    );
    const right = (await load(join(FIXTURES, 'true'))).manifest.datasets[1]!;
    const { bytes, sha256, features, bbox, geometry_types, properties } = manifest.datasets[0]!;
    expect({ bytes, sha256, features, bbox, geometry_types, properties }).toEqual({
      bytes: right.bytes,
      sha256: right.sha256,
      features: 3,
      bbox: [-71.2, -26.05, -67, -17.5],
      geometry_types: { MultiPolygon: 1, Polygon: 2 },
      properties: ['shapeISO', 'shapeName', 'shapeType'],
    });
    expect(Object.keys(manifest)).toEqual(Object.keys(loaded.manifest));
    expect(Object.keys(manifest.datasets[0]!)).toEqual(Object.keys(loaded.manifest.datasets[0]!));
    expect(loaded.manifest.datasets[0]!.features).toBe(4); // the input is not modified
  });

  it('an absent bytes/sha256 is added after path, an absent preview_bytes after preview', async () => {
    const root = copy('true');
    const original = JSON.parse(readFileSync(join(root, CHL), 'utf8')) as Manifest;
    edit(root, (m) => {
      delete m.datasets[1].bytes;
      delete m.datasets[1].sha256;
      delete m.datasets[1].preview_bytes;
    });
    const { manifest, changes } = await updateDerivedFields(root, await load(root), new MeasurementCache());
    expect(changes).toEqual(['/datasets/1/bytes', '/datasets/1/sha256', '/datasets/1/preview_bytes']);
    expect(manifestText(manifest)).toBe(manifestText(original));
  });

  it('equal values keep their form: properties in another order, a 0 geometry type count', async () => {
    const root = copy('true');
    edit(root, (m) => {
      m.datasets[0].properties.reverse();
      m.datasets[0].geometry_types.Polygon = 0;
    });
    expect((await updateDerivedFields(root, await load(root), new MeasurementCache())).changes).toEqual([]);
  });

  it('a parts-only level gets its stats from its parts together, unassigned from {LEVEL}/unassigned.geojson', async () => {
    const root = copy('true');
    edit(root, (m) => {
      m.datasets[2].features = 9;
      m.datasets[2].bbox = [0, 0, 1, 1];
      m.datasets[2].geometry_types = { Polygon: 5 };
      m.datasets[2].properties = ['shapeName'];
      m.datasets[2].unassigned = 3;
    });
    const { manifest, changes } = await updateDerivedFields(root, await load(root), new MeasurementCache());
    expect(changes).toEqual(
      ['features', 'bbox', 'geometry_types', 'properties', 'unassigned'].map((k) => `/datasets/2/${k}`),
    );
    const right = (await load(join(FIXTURES, 'true'))).manifest;
    expect(manifest).toEqual(right);
  });

  it('a missing file is an error naming it; no number is invented', async () => {
    const root = join(FIXTURES, 'false', 'file-missing');
    const error = await updateDerivedFields(root, await load(root), new MeasurementCache()).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message.split('\n')).toEqual([
      `${CHL}: /datasets/1/path: file data/earth/CHL/CHL_ADM1.geojson does not exist`,
      `${CHL}: /datasets/1/preview: file data/earth/CHL/preview/CHL_ADM1.preview.geojson does not exist`,
    ]);
  });

  it('a path outside the manifest folder is refused, not measured', async () => {
    const root = join(FIXTURES, 'false', 'path-outside');
    const error = await updateDerivedFields(root, await load(root), new MeasurementCache()).catch(
      (e: Error) => e,
    );
    expect((error as Error).message.split('\n')[0]).toBe(
      `${CHL}: /datasets/0/path: file data/earth/CHL/../PER/PER_ADM0.geojson is not inside the manifest's folder data/earth/CHL/`,
    );
  });
});

describe('writeManifest', () => {
  it('writes 2-space JSON with a final newline, byte-identical for an unchanged manifest', async () => {
    const root = copy('true');
    const loaded = await load(root);
    await writeManifest(root, CHL, loaded.manifest);
    expect(readFileSync(join(root, CHL), 'utf8')).toBe(loaded.text);
  });

  it('refuses a manifest that fails the schema, with the problems, and leaves the file as it was', async () => {
    const root = copy('true');
    const loaded = await load(root);
    const bad = structuredClone(loaded.manifest) as Json;
    bad.datasets[0].level = 'ADM9';
    bad.datasets[0].features = 0;
    const error = await writeManifest(root, CHL, bad).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message.split('\n')).toEqual([
      `${CHL}: /datasets/0/level: not written, it would fail the schema: must be ADM0 … ADM5 or QUAD, got "ADM9"`,
      `${CHL}: /datasets/0/features: not written, it would fail the schema: must be at least 1, got 0`,
    ]);
    expect(readFileSync(join(root, CHL), 'utf8')).toBe(loaded.text);
  });
});

describe('geoshelf manifest (CLI)', () => {
  it('--check lists "FILE: POINTER: old → new" for each field that would change, exits 1, writes nothing', async () => {
    const root = copy('false/stats');
    const before = readFileSync(join(root, CHL), 'utf8');
    const right = (await load(join(FIXTURES, 'true'))).manifest.datasets[1]!;
    const result = await cli('manifest', '--root', root, '--check', '--no-cache');
    expect(result.code).toBe(1);
    expect(lines(result.stdout)).toEqual([
      `${join(root, CHL)}: /datasets/0/bytes: ${right.bytes! + 1} → ${right.bytes}`,
      `${join(root, CHL)}: /datasets/0/sha256: "${'0'.repeat(64)}" → "${right.sha256}"`,
      `${join(root, CHL)}: /datasets/0/features: 4 → 3`,
      `${join(root, CHL)}: /datasets/0/bbox: [-70.72,-26.05,-67,-17.4] → [-71.2,-26.05,-67,-17.5]`,
      `${join(root, CHL)}: /datasets/0/geometry_types: {"Polygon":3} → {"MultiPolygon":1,"Polygon":2}`,
      `${join(root, CHL)}: /datasets/0/properties: ["shapeISO","shapeName"] → ["shapeISO","shapeName","shapeType"]`,
    ]);
    expect(readFileSync(join(root, CHL), 'utf8')).toBe(before);
  });

  it('rewrites the changed fields only; validate then passes and --check is clean', async () => {
    const root = copy('false/stats');
    const before = readFileSync(join(root, CHL), 'utf8');
    const result = await cli('manifest', '--root', root, '--no-cache');
    expect(result.code).toBe(0);
    expect(lines(result.stdout)).toEqual([
      `${join(root, CHL)}: updated /datasets/0/bytes, /datasets/0/sha256, /datasets/0/features, /datasets/0/bbox, /datasets/0/geometry_types, /datasets/0/properties`,
    ]);
    const after = readFileSync(join(root, CHL), 'utf8');
    const right = (await load(join(FIXTURES, 'true'))).manifest.datasets[1]!;
    // Same text but for the six values.
    const expected = JSON.parse(before) as Json;
    Object.assign(expected.datasets[0], {
      bytes: right.bytes,
      sha256: right.sha256,
      features: 3,
      bbox: [-71.2, -26.05, -67, -17.5],
      geometry_types: { MultiPolygon: 1, Polygon: 2 },
      properties: ['shapeISO', 'shapeName', 'shapeType'],
    });
    expect(after).toBe(`${JSON.stringify(expected, null, 2)}\n`);
    expect((await cli('validate', '--root', root, '--no-cache')).code).toBe(0);
    expect((await cli('manifest', '--root', root, '--check', '--no-cache')).code).toBe(0);
  });

  it('leaves manifests whose values are right byte-identical and untouched', async () => {
    const root = copy('true');
    const mtime = statSync(join(root, CHL)).mtimeMs;
    const before = readFileSync(join(root, CHL));
    const result = await cli('manifest', '--root', root, '--no-cache');
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '2 manifests: 0 updated, 0 with errors\n' });
    expect(readFileSync(join(root, CHL)).equals(before)).toBe(true);
    expect(statSync(join(root, CHL)).mtimeMs).toBe(mtime);
  });

  it('ISO3 arguments (any letter case) select manifests; an unknown code is a one-line error', async () => {
    const root = copy('false/license');
    edit(root, (m) => (m.datasets[0].features = 2), 'data/earth/URY/manifest.json');
    edit(root, (m) => (m.datasets[0].features = 2));
    const result = await cli('manifest', '--root', root, '--check', '--no-cache', 'URY');
    expect(lines(result.stdout)).toEqual([
      `${join(root, 'data/earth/URY/manifest.json')}: /datasets/0/features: 2 → 1`,
    ]);
    // any letter case: folders are capitals, so "ury" can only mean URY
    const lower = await cli('manifest', '--root', root, '--check', '--no-cache', 'ury');
    expect(lines(lower.stdout)).toEqual(lines(result.stdout));
    const unknown = await cli('manifest', '--root', root, 'PER');
    expect(unknown).toMatchObject({
      code: 1,
      stderr: 'geoshelf manifest: PER: no data/*/PER/manifest.json\n',
    });
  });

  it('a manifest that fails the schema is refused with its problems and left alone', async () => {
    const root = copy('true');
    const text = edit(root, (m) => {
      m.datasets[0].level = 'ADM9';
      m.datasets[0].features = 7;
    });
    const result = await cli('manifest', '--root', root, '--no-cache');
    expect(result.code).toBe(1);
    expect(lines(result.stderr)).toEqual([
      `${join(root, CHL)}: /datasets/0/level: must be ADM0 … ADM5 or QUAD, got "ADM9"`,
      '2 manifests: 0 updated, 1 with errors',
    ]);
    expect(readFileSync(join(root, CHL), 'utf8')).toBe(text);
  });

  it('a missing data file is an error naming it from the current folder; exit 1, the manifest left alone', async () => {
    const root = copy('false/file-missing');
    const before = readFileSync(join(root, CHL), 'utf8');
    const result = await cli('manifest', '--root', root, '--no-cache');
    expect(result.code).toBe(1);
    expect(lines(result.stderr)).toEqual([
      `${join(root, CHL)}: /datasets/1/path: file ${root}/data/earth/CHL/CHL_ADM1.geojson does not exist`,
      `${join(root, CHL)}: /datasets/1/preview: file ${root}/data/earth/CHL/preview/CHL_ADM1.preview.geojson does not exist`,
      '1 manifest: 0 updated, 1 with errors',
    ]);
    expect(readFileSync(join(root, CHL), 'utf8')).toBe(before);
  });
});

describe('geoshelf manifest (CLI): results that would fail the schema', () => {
  it('a preview grown past 2 MiB is not written: preview_bytes would break the limit', async () => {
    const root = copy('true');
    const preview = join(root, 'data/earth/CHL/preview/CHL_ADM0.preview.geojson');
    const text = readFileSync(preview, 'utf8');
    writeFileSync(preview, text + ' '.repeat(2 * 1024 * 1024 + 1 - Buffer.byteLength(text)));
    const before = readFileSync(join(root, CHL), 'utf8');
    const result = await cli('manifest', '--root', root, '--no-cache');
    expect(result.code).toBe(1);
    expect(lines(result.stderr)).toEqual([
      `${join(root, CHL)}: /datasets/0/preview_bytes: not written, it would fail the schema: must be at most 2097152, got 2097153`,
      '2 manifests: 0 updated, 1 with errors',
    ]);
    expect(readFileSync(join(root, CHL), 'utf8')).toBe(before);
  });
});
