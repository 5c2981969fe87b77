import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FileStats, Manifest } from '../../build/core/shared/manifest.ts';
import { measureGeoJSON } from '../../build/measure/measure.ts';
import { corpusPresent, WORLD_GEOJSON } from '../support/corpus.ts';

const ROOT = WORLD_GEOJSON;

/** Every data file and part a corpus manifest describes and the corpus holds, with the stats it states. */
function describedFiles(): [path: string, stated: FileStats][] {
  const files: [string, FileStats][] = [];
  const pick = (s: FileStats): FileStats => ({
    bytes: s.bytes,
    sha256: s.sha256,
    features: s.features,
    bbox: s.bbox,
    geometry_types: s.geometry_types,
    properties: s.properties,
  });
  for (const iso3 of readdirSync(join(ROOT, 'data/earth'))) {
    const manifest = JSON.parse(
      readFileSync(join(ROOT, 'data/earth', iso3, 'manifest.json'), 'utf8'),
    ) as Manifest;
    for (const dataset of manifest.datasets) {
      if (dataset.path && dataset.bytes !== undefined) files.push([dataset.path, pick(dataset as FileStats)]);
      for (const part of dataset.parts ?? []) files.push([part.path, pick(part)]);
    }
  }
  return files.filter(([path]) => existsSync(join(ROOT, path)));
}

describe.skipIf(!corpusPresent(ROOT))(
  'real corpus (../shared/corpus/world-geojson; skipped where absent): measure reproduces the manifests',
  () => {
    const files = existsSync(ROOT) ? describedFiles() : [];

    it('holds the files SOURCE.md lists (10 data files, 2 ARG parts)', () => {
      expect(files).toHaveLength(12);
    });

    it.each(files)(
      '%s: bytes, sha256, features, bbox, geometry_types, properties equal the manifest',
      async (path, stated) => {
        const stats = await measureGeoJSON(join(ROOT, path));
        expect(stats).toEqual(stated);
        // Same keys in the same order, so a manifest rewritten from these stats is byte-identical.
        expect(JSON.stringify(stats)).toBe(JSON.stringify(stated));
      },
    );

    it('every preview is measurable too', async () => {
      for (const iso3 of readdirSync(join(ROOT, 'data/earth'))) {
        const dir = join(ROOT, 'data/earth', iso3, 'preview');
        for (const name of readdirSync(dir)) {
          expect((await measureGeoJSON(join(dir, name))).features).toBeGreaterThan(0);
        }
      }
    });
  },
);
