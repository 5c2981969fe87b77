// The front page's world map: every country's outline in one Equal Earth
// picture, one path per manifest (its id the URL of its page, its tooltip
// its English name), drawn at build time like a country page's map so the
// index shows it without script. Each country is drawn from its ADM0 level,
// else its first drawable level (map-planes.ts's order), from that level's
// preview or small file (build/geo/map-sources.ts). The tiles stage cuts the same countries,
// in the same order and plane, from their full files
// (build/tiles/world-tiles.ts). Cached in <root>/.cache/geoshelf/world.json
// by the drawn files' stamps (build/core/cache.ts).
//
// Another body's map (the Moon's, Mars's) is made the same way from that
// body's manifests only, in plate carrée, one path per unit rather than per
// manifest (a quadrangle scheme tiles the globe: each chart is a place to
// open), its id the unit's permalink; cached in world-{body}.json.
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
import {
  filePolygons,
  fileUnits,
  worldCountries,
  type WorldCountry,
  type WorldFrame,
} from '../geo/world-frame.ts';
import type { Body } from '../core/shared/manifest.ts';
import { BODY_NAMES } from './pages/bodies.ts';

export const WORLD_TITLE = 'Map of every country and territory in the catalogue';

/** Returns the title of a body's map, e.g. "Map of every unit on Mars in the catalogue". */
export function bodyTitle(body: Body): string {
  return `Map of every unit on ${BODY_NAMES[body]} in the catalogue`;
}

/** Returns each unit's permalink anchor id of a manifest's level, in feature order (the atlas's ids). */
export type UnitAnchors = (manifestFile: string, level: string) => string[] | undefined;
/** The world picture and what the tiles stage needs to cut the same countries. */
export interface WorldMap extends WorldFrame {
  svg: string; // from renderMapSvg(), one path per country with data-u = its id
}

interface WorldCache {
  key?: string;
  map?: Omit<WorldMap, 'countries'>;
}

/**
 * Returns the map of `body` (the world's for Earth) from its manifests in
 * `loaded`, or undefined when none can be drawn. A body other than Earth
 * names its units by `anchors` (one path per unit), else by the manifest.
 */
export async function worldMap(
  root: string,
  base: string,
  loaded: LoadedManifest[],
  body: Body = 'earth',
  anchors?: UnitAnchors,
): Promise<WorldMap | undefined> {
  const mine = loaded.filter((l) => l.manifest.body === body);
  const all = worldCountries(
    base,
    mine.map((l) => l.manifest),
  );
  const files = new Map(mine.map((l) => [l.manifest, l.file]));
  const unitsOf = (c: WorldCountry) =>
    body === 'earth' ? undefined : anchors?.(files.get(c.manifest)!, c.dataset.level);
  const title = body === 'earth' ? WORLD_TITLE : bodyTitle(body);
  const hash = createHash('sha256').update(JSON.stringify(body === 'earth' ? [WORLD_TITLE] : [title]));
  // Stat'ed all at once, hashed in order: one after the other, 250 countries waited 50 ms.
  const infos = await Promise.all(all.map((c) => stat(join(root, c.drawn)).catch(() => undefined)));
  all.forEach((c, i) => {
    const info = infos[i];
    hash.update(JSON.stringify([c.id, c.manifest.name.en, c.drawn, info?.size, info?.mtimeMs]));
    const units = unitsOf(c);
    if (units) hash.update(JSON.stringify(units));
  });
  const key = hash.digest('hex');
  const cacheName = body === 'earth' ? 'world.json' : `world-${body}.json`;
  const cache = await readCacheFile(join(cacheDir(root), cacheName), {}, isWorldCache);
  if (cache.data.key === key && cache.data.map) {
    // The key covers every country's id and file: the countries drawn are those the ids name, in order.
    const drawnPages = new Set(cache.data.map.ids.map((id) => id.split('#')[0]));
    return { ...cache.data.map, countries: all.filter((c) => drawnPages.has(c.id)) };
  }
  const features: { geometry: unknown; properties: unknown }[] = [];
  const countries: WorldCountry[] = [];
  const ids: string[] = [];
  const outer = new OuterRings();
  for (const c of all) {
    const units = unitsOf(c);
    if (units) {
      for (const [i, unit] of (await fileUnits(join(root, c.drawn))).entries()) {
        if (units[i] === undefined || unit.polygons.length === 0) continue;
        const geometry = { type: 'MultiPolygon', coordinates: unit.polygons };
        outer.add(geometry);
        features.push({ geometry, properties: unit.properties });
        ids.push(`${c.id}#unit-${units[i]}`);
      }
      countries.push(c);
      continue;
    }
    const polygons = await filePolygons(join(root, c.drawn));
    if (polygons.length === 0) continue;
    const geometry = { type: 'MultiPolygon', coordinates: polygons };
    outer.add(geometry);
    features.push({ geometry, properties: { name: c.manifest.name.en } });
    countries.push(c);
    ids.push(c.id);
  }
  const plane = planeOf(outer, body === 'earth' ? 'equal-earth' : 'plate-carree');
  const drawn = plane && renderMapSvg({ features }, title, ids, plane);
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
