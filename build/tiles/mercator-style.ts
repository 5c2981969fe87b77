// The published MapLibre styles (style spec v8) of the Web Mercator archives
// (mercator.ts): one per country level, "<body>/<ISO3>/<ISO3>_<LEVEL>.style.json",
// and the world's, "map-world.style.json". A fill and a line layer over one
// vector source read with the `pmtiles` protocol; no glyphs, no sprite, so
// the style needs no other server. The source's URL names the archive
// relative to the style itself ("pmtiles://CHL_ADM1.mercator.pmtiles", the
// two files side by side), so the same bytes serve under any base, host or
// release folder; a map resolves it against the style's URL before loading
// it (docs/catalogue.md#web-map-tiles shows how).
import { escapeHtml } from '../core/escape-html.ts';
import type { LoadedManifest } from '../manifest/validate.ts';
import type { MercatorTiles } from './country-tiles.ts';
import { LAYER } from './mvt.ts';

/** The world's Web Mercator archive and style, inside dist/. */
export const WORLD_MERCATOR = 'map-world.mercator.pmtiles';
const WORLD_STYLE = 'map-world.style.json';

/** Returns the path inside dist/ of an archive's style: "earth/CHL/CHL_ADM1.mercator.pmtiles" → "earth/CHL/CHL_ADM1.style.json". */
export function styleFile(archive: string): string {
  return archive === WORLD_MERCATOR ? WORLD_STYLE : archive.replace(/\.mercator\.pmtiles$/, '.style.json');
}

/** What a style names: its title, e.g. "Chile ADM1", its source's id, e.g. "CHL_ADM1", and the archive's maximum zoom. */
interface StyleOf {
  title: string;
  source: string;
  archive: string; // inside dist/
  maxzoom: number;
  attribution?: string; // the data's source, as the manifest names it (text)
}

/**
 * Returns the styles of every Web Mercator archive (`levels`: by manifest
 * file, then level; `world`: the world's maximum zoom, when it has one), by
 * path inside dist/.
 */
export function mercatorStyles(
  loaded: LoadedManifest[],
  levels: Map<string, Record<string, MercatorTiles>>,
  world: number | undefined,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const { file, manifest: m } of loaded) {
    for (const [level, t] of Object.entries(levels.get(file) ?? {})) {
      const of = {
        title: `${m.name.en} ${level}`,
        source: `${m.iso_a3}_${level}`,
        archive: t.path,
        maxzoom: t.maxzoom,
        attribution: m.source.name,
      };
      out.set(styleFile(t.path), mercatorStyle(of));
    }
  }
  if (world !== undefined) {
    const of = { title: 'World', source: 'world', archive: WORLD_MERCATOR, maxzoom: world };
    out.set(styleFile(WORLD_MERCATOR), mercatorStyle(of));
  }
  return out;
}

/** Returns the style of one archive, as published (pretty JSON with a final newline). */
function mercatorStyle(of: StyleOf): string {
  const file = of.archive.slice(of.archive.lastIndexOf('/') + 1); // e.g. "CHL_ADM1.mercator.pmtiles"
  const url = `pmtiles://${encodeURIComponent(file)}`;
  const layer = { source: of.source, 'source-layer': LAYER };
  const style = {
    version: 8,
    name: of.title,
    metadata: { 'geoshelf:maxzoom': of.maxzoom },
    // A map credits its sources' attribution, which it shows as HTML: the data's text, escaped.
    sources: {
      [of.source]: {
        type: 'vector',
        url,
        ...(of.attribution ? { attribution: escapeHtml(of.attribution) } : {}),
      },
    },
    layers: [
      { id: 'background', type: 'background', paint: { 'background-color': '#f4f1ea' } },
      {
        id: `${of.source}-fill`,
        type: 'fill',
        ...layer,
        paint: { 'fill-color': '#c9d8e4', 'fill-opacity': 0.7 },
      },
      {
        id: `${of.source}-line`,
        type: 'line',
        ...layer,
        layout: { 'line-join': 'round' },
        paint: {
          'line-color': '#3a5068',
          'line-width': ['interpolate', ['linear'], ['zoom'], 2, 0.5, 10, 1.5],
        },
      },
    ],
  };
  return `${JSON.stringify(style, null, 2)}\n`;
}
