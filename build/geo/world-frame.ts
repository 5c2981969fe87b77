// The world map's countries and plane, shared by the front page's picture
// (build/site/world-map.ts) and the world's tiles (build/tiles/world-tiles.ts):
// which country is drawn from which file, in which order, and every polygon
// of a file cut at the antimeridian.
import type { Dataset, Manifest } from '../core/shared/manifest.ts';
import { readFeatureBytes } from '../geojson/features.ts';
import { splitAtAntimeridian } from './antimeridian.ts';
import { polygonsOf, type Plane } from './map-plane.ts';
import { drawnSource } from './map-sources.ts';
import { countryPage } from '../core/dist-paths.ts';

const ORDER = ['ADM0', 'ADM1', 'ADM2', 'ADM3', 'ADM4', 'ADM5', 'QUAD'];

/** The countries of the world map and its plane: what the picture and the world's tiles share. */
export interface WorldFrame {
  plane: Plane; // Equal Earth, framed on every country (another body's: plate carrée)
  ids: string[]; // the id of each country drawn, in order: tile feature i is ids[i] (another body's: each unit's permalink)
  countries: WorldCountry[]; // the countries drawn, in the same order (another body's: each once)
}

/** One country of the world map: the dataset it is drawn from and its id. */
export interface WorldCountry {
  manifest: Manifest;
  dataset: Dataset; // e.g. the ADM0 level
  drawn: string; // the file the picture is drawn from, e.g. "data/earth/CHL/preview/CHL_ADM0.preview.geojson"
  id: string; // the page's URL as the index links it, e.g. "/earth/CHL/"
}

/** Returns the country each manifest adds to the world map (its ADM0 level, else its first drawable one), in catalogue order. */
export function worldCountries(base: string, manifests: Manifest[]): WorldCountry[] {
  const out: WorldCountry[] = [];
  for (const manifest of manifests) {
    const sorted = [...manifest.datasets].sort((a, b) => ORDER.indexOf(a.level) - ORDER.indexOf(b.level));
    const dataset = sorted.find((d) => drawnSource(d) !== undefined);
    if (dataset) {
      out.push({ manifest, dataset, drawn: drawnSource(dataset)!, id: `${base}${countryPage(manifest)}` });
    }
  }
  return out;
}

/**
 * Returns each feature of a GeoJSON file, in order, with its properties and
 * its polygons cut at the antimeridian (a body map's units); [] when unreadable.
 */
export async function fileUnits(path: string): Promise<{ properties: unknown; polygons: unknown[] }[]> {
  const out: { properties: unknown; polygons: unknown[] }[] = [];
  try {
    for await (const { bytes } of readFeatureBytes(path)) {
      const feature = JSON.parse(bytes.toString('utf8')) as { geometry?: unknown; properties?: unknown };
      out.push({
        properties: feature?.properties,
        polygons: polygonsOf(feature?.geometry).flatMap(splitAtAntimeridian),
      });
    }
    return out;
  } catch {
    return []; // the validator reports data files; an unreadable one is left off the map
  }
}

/**
 * Returns every polygon of a GeoJSON file's features (one feature parsed at
 * a time), cut at the antimeridian for the world's plane; [] when unreadable.
 */
export async function filePolygons(path: string): Promise<unknown[]> {
  const out: unknown[] = [];
  try {
    for await (const { bytes } of readFeatureBytes(path)) {
      const polygons = polygonsOf((JSON.parse(bytes.toString('utf8')) as { geometry?: unknown })?.geometry);
      out.push(...polygons.flatMap(splitAtAntimeridian));
    }
    return out;
  } catch {
    return []; // the validator reports data files; an unreadable one is left off the map
  }
}
