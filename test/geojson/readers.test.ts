// Every user of the one GeoJSON reader (build/geojson/) reads the measurer's
// fixtures alike: the measurer, the geometry checks (check-file), the format
// writers' source scan, and the feature-bytes reader (the atlas's). A false/
// fixture gets the same "PATH: byte OFFSET: reason" from each; a true/ one
// the same features, extent and property names. A user that disagrees fails.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { FileStats } from '../../build/core/shared/manifest.ts';
import { scanSource } from '../../build/formats/source-scan.ts';
import { GeoJSONError } from '../../build/geojson/errors.ts';
import { readFeatureBytes } from '../../build/geojson/features.ts';
import { checkGeometryFile } from '../../build/geometry/check-file.ts';
import { measureAndCheckGeoJSON, measureGeoJSON } from '../../build/measure/measure.ts';
import { FIXTURES, falseFixtures, trueFixtures } from '../support/geojson-fixtures.ts';

// Reads beside the default: tokens and features cut by a chunk's end everywhere.
const CHUNKS = [undefined, 7, 64];

/** Each user of the reader, run on one file with one chunk size, as a summary to compare. */
const USERS: Record<string, (path: string, chunkSize?: number) => Promise<unknown>> = {
  measure: async (path, chunkSize) => summary(await measureGeoJSON(path, { chunkSize })),
  'measure with geometry checks': async (path, chunkSize) =>
    summary((await measureAndCheckGeoJSON(path, { chunkSize })).stats),
  'geometry check-file': async (path, chunkSize) => {
    const { checked } = await checkGeometryFile(path, { chunkSize });
    return { features: checked };
  },
  'geometry check-file, shared with its worker': async (path, chunkSize) => {
    const { checked } = await checkGeometryFile(path, { chunkSize, parallelMinBytes: 0 });
    return { features: checked };
  },
  'formats source scan': async (path, chunkSize) => {
    const scan = await scanSource(path, { chunkSize }).catch((error: Error) => {
      // The one difference, by design: formats have nothing to convert in an empty collection.
      if (error.message === `${path}: has no features to convert`) return undefined;
      throw error;
    });
    if (!scan) return { features: 0 };
    const types: Record<string, number> = {};
    if (scan.multiPolygons) types.MultiPolygon = scan.multiPolygons;
    if (scan.polygons) types.Polygon = scan.polygons;
    return {
      features: scan.count,
      bbox: scan.bbox,
      geometry_types: types,
      properties: scan.fields.map((f) => f.name).sort(),
    };
  },
  'feature bytes (atlas)': async (path, chunkSize) => {
    let features = 0;
    for await (const { index, bytes } of readFeatureBytes(path, { chunkSize })) {
      expect(index).toBe(features++);
      expect((JSON.parse(bytes.toString('utf8')) as { type: string }).type).toBe('Feature');
    }
    return { features };
  },
};

/** The fields every user can tell: the count always; the rest from those that know it. */
function summary(stats: FileStats) {
  return {
    features: stats.features,
    bbox: stats.bbox,
    geometry_types: stats.geometry_types,
    properties: [...stats.properties].sort(),
  };
}

describe("false/ fixtures: every reader user reports the measurer's problem", () => {
  describe.each(Object.keys(USERS))('%s', (user) => {
    it.each(falseFixtures())('%s → %s', async (name, reason) => {
      const path = `${FIXTURES}false/${name}.geojson`;
      for (const chunkSize of CHUNKS) {
        const error = await USERS[user]!(path, chunkSize).catch((e: unknown) => e);
        expect(error, `chunk ${chunkSize}`).toBeInstanceOf(GeoJSONError);
        expect((error as GeoJSONError).message, `chunk ${chunkSize}`).toBe(`${path}: ${reason}`);
      }
    });
  });
});

describe('true/ fixtures: every reader user reads the same features', () => {
  it.each(trueFixtures())('%s', async (name) => {
    const path = `${FIXTURES}true/${name}.geojson`;
    const measured = summary(await measureGeoJSON(path));
    const text = readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
    expect(measured.features).toBe((JSON.parse(text) as { features: unknown[] }).features.length);
    for (const [user, read] of Object.entries(USERS)) {
      for (const chunkSize of CHUNKS) {
        const got = (await read(path, chunkSize)) as Partial<typeof measured>;
        const want = Object.fromEntries(
          Object.keys(got).map((k) => [k, measured[k as keyof typeof measured]]),
        );
        expect(got, `${user}, chunk ${chunkSize}`).toEqual(want);
      }
    }
  });

  it('the feature bytes are the features JSON.parse reads, whatever the chunk size', async () => {
    for (const name of trueFixtures()) {
      const path = `${FIXTURES}true/${name}.geojson`;
      const text = readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
      const parsed = (JSON.parse(text) as { features: unknown[] }).features;
      for (const chunkSize of CHUNKS) {
        const read: unknown[] = [];
        for await (const { bytes } of readFeatureBytes(path, { chunkSize })) {
          read.push(JSON.parse(bytes.toString('utf8')));
        }
        expect(read, `${name}, chunk ${chunkSize}`).toEqual(parsed);
      }
    }
  });
});
