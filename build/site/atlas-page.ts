// The atlas parts of a country page: the data attributes the map's script
// reads (one SVG per drawn level), the units section (filled by the script
// from the country's JSON document), and the unit names of split parts.
import type { Manifest } from '../../src/shared/manifest.ts';
import { formatInt, markup, type Html } from './pages/html.ts';
import { countryApi, countryPage, fileUrl } from './pages/paths.ts';
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

/**
 * Returns the units section: counts per level now; the script renders each
 * level's list (sortable, filterable, one permalink #unit-ID per unit) from
 * the country's JSON document, which scales to levels of 50,000 units where
 * HTML rows would not. Without script it says where the list is.
 */
export function unitsSection(base: string, m: Manifest, atlas: CountryAtlas): Html {
  const levels = atlas.levels.filter((l) => l.level !== 'ADM0' && l.units.length > 0);
  if (levels.length === 0) return markup``;
  const api = `${base}${countryApi(m)}`;
  const counts = levels.map(
    (l, i) =>
      markup`${i ? ', ' : ''}${l.level}: ${formatInt(l.units.length)} ${l.units.length === 1 ? 'unit' : 'units'}`,
  );
  return markup`<section id="units" class="units" aria-labelledby="units-h" data-api="${api}">
<h2 id="units-h">Units</h2>
<p>${counts}. Each has a permalink on this page (e.g. <code>#unit-${levels[0].units[0].id}</code>).</p>
<p class="needs-js">Listing and filtering the units needs JavaScript; the same list is in the <a href="${api}">JSON document</a> of ${m.name.en}, under <code>units</code>.</p>
</section>
`;
}
