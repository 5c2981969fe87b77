// The front page's world map: every country's outline in one Equal Earth
// picture, one path per manifest (its id the URL of its page, its tooltip
// its English name), drawn at build time like a country page's map so the
// index shows it without script. Each country is drawn from its ADM0 level,
// else its first drawable level (map-planes.ts's order), from that level's
// preview or small file (build/geo/map-sources.ts). The tiles stage cuts the same countries,
// in the same order and plane, from their full files
// (build/tiles/world-tiles.ts). Cached in <root>/.cache/geoshelf/world.json
// by the drawn files' stamps (build/core/cache.ts).
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { readCacheFile, saveCacheFile } from '../core/cache.ts';
import { cacheDir } from '../core/files.ts';
import { isObject } from '../core/json-value.ts';
import type { LoadedManifest } from '../manifest/validate.ts';
import { OuterRings, planeOf } from '../geo/map-plane.ts';
import { isPlane } from './map-planes.ts';
import { renderMapSvg } from './map-svg.ts';
import { filePolygons, worldCountries, type WorldCountry, type WorldFrame } from '../geo/world-frame.ts';

export const WORLD_TITLE = 'Map of every country and territory in the catalogue';

/** The world picture and what the tiles stage needs to cut the same countries. */
export interface WorldMap extends WorldFrame {
  svg: string; // from renderMapSvg(), one path per country with data-u = its id
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
  const all = worldCountries(
    base,
    loaded.map((l) => l.manifest),
  );
  const hash = createHash('sha256').update(JSON.stringify([WORLD_TITLE]));
  // Stat'ed all at once, hashed in order: one after the other, 250 countries waited 50 ms.
  const infos = await Promise.all(all.map((c) => stat(join(root, c.drawn)).catch(() => undefined)));
  all.forEach((c, i) => {
    const info = infos[i];
    hash.update(JSON.stringify([c.id, c.manifest.name.en, c.drawn, info?.size, info?.mtimeMs]));
  });
  const key = hash.digest('hex');
  const cache = await readCacheFile(join(cacheDir(root), 'world.json'), {}, isWorldCache);
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
  await saveCacheFile(cache);
  return { svg: drawn.svg, plane, ids, countries };
}

function isWorldCache(value: unknown): value is WorldCache {
  if (!isObject(value) || (value.key !== undefined && typeof value.key !== 'string')) return false;
  const map = value.map;
  return (
    map === undefined ||
    (isObject(map) &&
      typeof map.svg === 'string' &&
      isPlane(map.plane) &&
      Array.isArray(map.ids) &&
      map.ids.every((id) => typeof id === 'string'))
  );
}
