// A small data tree on any body: one country (or region) with one level,
// its manifest's numbers measured, in the CRS the test names. For tests of
// what depends on the body and its CRS (formats, coverage figures).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ManifestCrs } from '../../build/core/shared/crs.ts';
import type { Body } from '../../build/core/shared/manifest.ts';
import { measureGeoJSON } from '../../build/measure/measure.ts';

export interface BodyCountry {
  body: Body;
  iso: string; // e.g. "LAC"
  level: string; // e.g. "QUAD"
  crs: ManifestCrs;
}

/** Writes data/{body}/{iso}/ under `root`: the level's GeoJSON of `features` and a manifest listing it. */
export async function writeCountry(root: string, c: BodyCountry, features: unknown[]): Promise<string> {
  const folder = `data/${c.body}/${c.iso}`;
  const path = `${folder}/${c.iso}_${c.level}.geojson`;
  mkdirSync(join(root, folder), { recursive: true });
  writeFileSync(join(root, path), JSON.stringify({ type: 'FeatureCollection', features }));
  const {
    bytes,
    sha256,
    features: count,
    bbox,
    geometry_types,
    properties,
  } = await measureGeoJSON(join(root, path));
  const manifest = {
    schema_version: 1,
    body: c.body,
    iso_a3: c.iso,
    name: { en: `Test ${c.iso}` },
    crs: { authority: c.crs.authority, code: c.crs.code, epsg: c.crs.epsg },
    status: 'ok',
    source: { name: 'test', url: 'https://example.org/', license: 'CC0-1.0', retrieved: '2026-11-27' },
    datasets: [
      {
        level: c.level,
        path,
        ...{ bytes, sha256, features: count, bbox, geometry_types, properties },
        license: 'CC0-1.0',
      },
    ],
  };
  writeFileSync(join(root, folder, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  return path;
}

/** Returns a feature: the latitude/longitude box [west, south, east, north] with a code and a name. */
export function boxFeature(box: [number, number, number, number], code: string): unknown {
  const [w, s, e, n] = box;
  return {
    type: 'Feature',
    properties: { shapeISO: code, shapeName: `Box ${code}` },
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [w, s],
          [e, s],
          [e, n],
          [w, n],
          [w, s],
        ],
      ],
    },
  };
}
