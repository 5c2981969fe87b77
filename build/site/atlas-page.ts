// The atlas parts of a country page: the data attributes the map's script
// reads (one SVG per drawn level) and the unit names of split parts (the
// units list is units-list.ts).
import type { Manifest } from '../core/shared/manifest.ts';
import { markup, type Html } from './pages/html.ts';
import { countryPage, fileUrl } from '../core/dist-paths.ts';
import type { CountryAtlas } from './atlas.ts';

/** Returns the path inside dist/ of a level's map, e.g. "earth/USA/map-ADM2.svg". */
export function mapFile(m: Manifest, level: string): string {
  return `${countryPage(m)}map-${level}.svg`;
}

/** Returns the levels drawn as a separate SVG file (all but the one inlined in the page). */
export function separateMaps(atlas: CountryAtlas): { level: string; svg: string }[] {
  return atlas.levels
    .filter((l) => l.map && l.level !== atlas.mapLevel)
    .map((l) => ({ level: l.level, svg: l.map!.svg }));
}

/**
 * Returns the map figure's attributes: data-maps = {level: URL of its SVG, or
 * "" for the inline one}, e.g. {"ADM1":"","ADM2":"/earth/USA/map-ADM2.svg"},
 * data-level, the level drawn inline, and data-tiles = {level: TilesInfo},
 * where the script finds each level's full-detail tiles.
 */
export function atlasMapAttributes(base: string, m: Manifest, atlas: CountryAtlas): Html {
  const maps: Record<string, string> = {};
  for (const l of atlas.levels) {
    if (l.map) maps[l.level] = l.level === atlas.mapLevel ? '' : fileUrl(base, mapFile(m, l.level));
  }
  const tiles = atlas.tiles && Object.keys(atlas.tiles).length > 0 ? JSON.stringify(atlas.tiles) : undefined;
  return markup` data-maps="${JSON.stringify(maps)}" data-level="${atlas.mapLevel ?? ''}"${tiles ? markup` data-tiles="${tiles}"` : markup``}`;
}

/** Returns the ADM1 unit names by code, e.g. "US-AK" → "Alaska", for naming split parts. */
export function partNames(atlas: CountryAtlas): Map<string, string> {
  const adm1 = atlas.levels.find((l) => l.level === 'ADM1');
  return new Map((adm1?.units ?? []).filter((u) => u.code && u.name).map((u) => [u.code, u.name]));
}
