// The front page's world map: every country's outline in one Equal Earth
// picture, one path per manifest (its id the URL of its page, its tooltip
// its English name), drawn at build time like a country page's map so the
// index shows it without script. Each country is drawn from its ADM0 level,
// else its first drawable level (map-planes.ts's order), from that level's
// preview or small file (maps.ts). The tiles stage cuts the same countries,
// in the same order and plane, from their full files
// (build/tiles/world-tiles.ts). Cached in <root>/.cache/geoshelf/world.json
// by the drawn files' stamps.
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Dataset, Manifest } from '../../src/shared/manifest.ts';
import { cacheDir } from '../core/files.ts';
import { readFeatureBytes } from '../geojson/features.ts';
import type { LoadedManifest } from '../manifest/validate.ts';
import { loadCache, saveCache } from '../publish/build-cache.ts';
import { splitAtAntimeridian } from './antimeridian.ts';
import { OuterRings, planeOf, polygonsOf, type Plane } from './map-plane.ts';
import { renderMapSvg } from './map-svg.ts';
import { drawnSource } from './maps.ts';
import { countryPage } from './pages/paths.ts';

/** Bumped when the world picture is drawn differently, so a cached one is redrawn. */
const VERSION = 2; // 2: labels inside the largest polygon (data-at), data-box only for several polygons
const ORDER = ['ADM0', 'ADM1', 'ADM2', 'ADM3', 'ADM4', 'ADM5', 'QUAD'];
export const WORLD_TITLE = 'Map of every country and territory in the catalogue';

/** One country of the world map: the dataset it is drawn from and its id. */
export interface WorldCountry {
  manifest: Manifest;
  dataset: Dataset; // e.g. the ADM0 level
  drawn: string; // the file the picture is drawn from, e.g. "data/earth/CHL/preview/CHL_ADM0.preview.geojson"
  id: string; // the page's URL as the index links it, e.g. "/earth/CHL/"
}

export interface WorldMap {
  svg: string; // from renderMapSvg(), one path per country with data-u = its id
  plane: Plane; // Equal Earth, framed on every country
  ids: string[]; // the id of each country drawn, in order: tile feature i is ids[i]
  countries: WorldCountry[]; // the countries drawn, in the same order
}

/** Returns the country each manifest adds to the world map (its ADM0 level, else its first drawable one), in catalogue order. */
export function worldCountries(base: string, loaded: LoadedManifest[]): WorldCountry[] {
  const out: WorldCountry[] = [];
  for (const { manifest } of loaded) {
    const sorted = [...manifest.datasets].sort((a, b) => ORDER.indexOf(a.level) - ORDER.indexOf(b.level));
    const dataset = sorted.find((d) => drawnSource(d) !== undefined);
    if (dataset) {
      out.push({ manifest, dataset, drawn: drawnSource(dataset)!, id: `${base}${countryPage(manifest)}` });
    }
  }
  return out;
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

interface WorldCache {
  key?: string;
  map?: Omit<WorldMap, 'countries'>;
}

/** Returns the world map of `loaded`, or undefined when no country can be drawn. */
export async function worldMap(
  root: string,
  base: string,
  loaded: LoadedManifest[],
): Promise<WorldMap | undefined> {
  const all = worldCountries(base, loaded);
  const hash = createHash('sha256').update(JSON.stringify([VERSION, WORLD_TITLE]));
  // Stat'ed all at once, hashed in order: one after the other, 250 countries waited 50 ms.
  const infos = await Promise.all(all.map((c) => stat(join(root, c.drawn)).catch(() => undefined)));
  all.forEach((c, i) => {
    const info = infos[i];
    hash.update(JSON.stringify([c.id, c.manifest.name.en, c.drawn, info?.size, info?.mtimeMs]));
  });
  const key = hash.digest('hex');
  const cache = await loadCache<WorldCache>(
    join(cacheDir(root), 'world.json'),
    {},
    (c) => typeof c === 'object',
  );
  if (cache.data.key === key && cache.data.map) {
    // The key covers every country's id and file, so each cached id is one of `all`.
    const byId = new Map(all.map((c) => [c.id, c]));
    return { ...cache.data.map, countries: cache.data.map.ids.map((id) => byId.get(id)!) };
  }
  const features: { geometry: unknown; properties: { name: string } }[] = [];
  const countries: WorldCountry[] = [];
  const outer = new OuterRings();
  for (const c of all) {
    const polygons = await filePolygons(join(root, c.drawn));
    if (polygons.length === 0) continue;
    const geometry = { type: 'MultiPolygon', coordinates: polygons };
    outer.add(geometry);
    features.push({ geometry, properties: { name: c.manifest.name.en } });
    countries.push(c);
  }
  const plane = planeOf(outer, true);
  const ids = countries.map((c) => c.id);
  const drawn = plane && renderMapSvg({ features }, WORLD_TITLE, ids, plane);
  if (!plane || !drawn) return undefined;
  cache.data = { key, map: { svg: drawn.svg, plane, ids } };
  await saveCache(cache);
  return { svg: drawn.svg, plane, ids, countries };
}
