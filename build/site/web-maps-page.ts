// The reader's page on the Web Mercator archives, web-maps/index.html: what
// the archives and styles are, and how to add them to one's own MapLibre GL
// JS or Leaflet map (docs/catalogue.md#web-map-tiles says the same at length).
// Its snippets show one level of the catalogue being built (webMapExample()),
// with that level's own files, deepest zoom and view, so they work as copied.
import { countryPage } from '../core/dist-paths.ts';
import type { BBox } from '../core/shared/manifest.ts';
import type { LoadedManifest } from '../manifest/validate.ts';
import { levelDisplayBbox } from './api-units.ts';
import type { CountryAtlas, WebMap } from './atlas.ts';
import { escapeHtml } from '../core/escape-html.ts';
import { markup } from './pages/html.ts';
import { renderPage, type PageContext } from './pages/layout.ts';

/** The reader's page's path inside dist/. */
export const WEB_MAPS_PAGE = 'web-maps/index.html';

/** The level the snippets show, when the catalogue has it: the sample's, which docs/ names too. */
const PREFERRED = { iso: 'CHL', level: 'ADM1' };
/** The snippets' map, in CSS px: its height as the snippets set it, and a width to fit the level in. */
const VIEW = { width: 600, height: 400 };
/** The deepest zoom a view starts at (a level of one tiny unit); maps draw it from the archive's deepest. */
const MAX_VIEW_ZOOM = 16;
/** Web Mercator's latitude limit (EPSG:3857), in degrees. */
const MAX_LAT = 85.0511;

/** The level the snippets show: its files, its country's page and the view that fits it. */
export interface WebMapExample extends WebMap {
  source: string; // its source id in the level's style, e.g. "CHL_ADM1"
  country: string; // e.g. "Chile"
  page: string; // its country's page inside dist, e.g. "earth/CHL/"
  center: [lon: number, lat: number]; // the middle of its bounds, in degrees
  zoom: number; // the deepest MapLibre zoom (512 px tiles) showing its bounds in VIEW; Leaflet's is one more
}

/**
 * Returns the level the web-maps page's snippets show: CHL's ADM1 when it has
 * a Web Mercator archive, else the first Earth country's first level that
 * has one, or undefined when none has (the page is then not written). Its
 * view comes from the level's display bounds (across the antimeridian when
 * its units are), else from its manifest bbox.
 */
export function webMapExample(
  loaded: LoadedManifest[],
  atlas: Map<string, CountryAtlas>,
): WebMapExample | undefined {
  const levels = loaded.flatMap(({ file, manifest: m }) => {
    const a = atlas.get(file);
    if (m.body !== 'earth' || !a?.webMaps) return [];
    return m.datasets.flatMap((d) => {
      const web = a.webMaps?.[d.level];
      return web ? [{ m, d, a, web }] : [];
    });
  });
  const chosen =
    levels.find(({ m, d }) => m.iso_a3 === PREFERRED.iso && d.level === PREFERRED.level) ?? levels[0];
  if (!chosen) return undefined;
  const { m, d, a, web } = chosen;
  return {
    ...web,
    source: `${m.iso_a3}_${d.level}`,
    country: m.name.en,
    page: countryPage(m),
    ...viewOf(levelDisplayBbox(a, d.level) ?? d.bbox),
  };
}

/** Returns Web Mercator's y (radians) of a latitude, clamped to the projection's limit. */
function mercatorY(lat: number): number {
  const phi = (Math.max(-MAX_LAT, Math.min(MAX_LAT, lat)) * Math.PI) / 180;
  return Math.log(Math.tan(Math.PI / 4 + phi / 2));
}

/**
 * Returns the centre and MapLibre zoom showing `bbox` (west > east across the
 * antimeridian) whole in VIEW, the centre rounded to 0.1°, e.g. Chile's
 * sample ADM1 (Easter Island included) → [-87.9, -39.3], 2. The zoom may pass
 * the archive's deepest: maps draw deeper zooms from that one.
 */
function viewOf([west, south, east, north]: BBox): Pick<WebMapExample, 'center' | 'zoom'> {
  const width = (east < west ? east + 360 : east) - west; // degrees
  const height = mercatorY(north) - mercatorY(south); // radians
  const midY = (mercatorY(north) + mercatorY(south)) / 2;
  let lon = west + width / 2;
  if (lon > 180) lon -= 360;
  const lat = (Math.atan(Math.sinh(midY)) * 180) / Math.PI;
  // At zoom z the world is 512 · 2^z px wide (and 2π radians of y tall).
  const fits = Math.min(
    Math.log2((VIEW.width * 360) / (512 * Math.max(width, 1e-9))),
    Math.log2((VIEW.height * 2 * Math.PI) / (512 * Math.max(height, 1e-9))),
  );
  const round = (v: number) => Math.round(v * 10) / 10 || 0; // || 0: no "-0"
  return { center: [round(lon), round(lat)], zoom: Math.max(0, Math.min(MAX_VIEW_ZOOM, Math.floor(fits))) };
}

/**
 * Returns `text` as a single-quoted JavaScript string, its quotes,
 * backslashes and line ends escaped, and "</script" as "<\/script" (which
 * would end the snippet's script): a manifest's name is untrusted, e.g. "Côte d'Ivoire".
 */
function jsString(text: string): string {
  const escaped = text
    .replace(/[\\'\n\r\u2028\u2029]/g, (c) =>
      c === "'" || c === '\\' ? `\\${c}` : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    )
    .replace(/<\/(script)/gi, '<\\/$1');
  return `'${escaped}'`;
}

/** Returns the snippets for `e`, with `site` the catalogue's URL (absolute), e.g. "https://example.org/". */
function snippets(site: string, e: WebMapExample): { maplibre: string; addSource: string; leaflet: string } {
  const [lon, lat] = e.center;
  const id = e.source.toLowerCase().replaceAll('_', '-'); // e.g. "chl-adm1"
  const maplibre = `<link rel="stylesheet" href="https://unpkg.com/maplibre-gl@6/dist/maplibre-gl.css">
<script src="https://unpkg.com/pmtiles@4/dist/pmtiles.js"></script>
<div id="map" style="height: ${VIEW.height}px"></div>
<script type="module">
  import * as maplibregl from 'https://unpkg.com/maplibre-gl@6/dist/maplibre-gl.mjs';
  // metadata: true, so that MapLibre reads the archive's attribution (and layers) too.
  const protocol = new pmtiles.Protocol({ metadata: true });
  maplibregl.addProtocol('pmtiles', protocol.tile);
  const styleUrl = ${jsString(site + e.style)};
  const style = await (await fetch(styleUrl)).json();
  // The style names its archive relative to itself: make that absolute.
  for (const source of Object.values(style.sources))
    source.url = 'pmtiles://' + new URL(source.url.slice('pmtiles://'.length), styleUrl);
  const map = new maplibregl.Map({ container: 'map', style, center: [${lon}, ${lat}], zoom: ${e.zoom} });
</script>`;
  const addSource = `// In a map of your own, once its style has loaded (map.on('load', …)),
// with the pmtiles protocol added as above:
map.addSource('${e.source}', {
  type: 'vector',
  url: ${jsString(`pmtiles://${site}${e.archive}`)},
});
map.addLayer({
  id: '${id}-fill',
  type: 'fill',
  source: '${e.source}',
  'source-layer': 'units',
  paint: { 'fill-color': '#c9d8e4', 'fill-opacity': 0.7 },
});
map.addLayer({
  id: '${id}-borders',
  type: 'line',
  source: '${e.source}',
  'source-layer': 'units',
  paint: { 'line-color': '#3a5068', 'line-width': 1 },
});
map.on('click', '${id}-fill', (e) => console.log(e.features[0].properties.name));`;
  const leaflet = `<link rel="stylesheet" href="https://unpkg.com/leaflet@1.9/dist/leaflet.css">
<script src="https://unpkg.com/leaflet@1.9/dist/leaflet.js"></script>
<script src="https://unpkg.com/protomaps-leaflet@5/dist/protomaps-leaflet.js"></script>
<div id="map" style="height: ${VIEW.height}px"></div>
<script>
  const map = L.map('map').setView([${lat}, ${lon}], ${e.zoom + 1});
  protomapsL.leafletLayer({
    url: ${jsString(site + e.archive)},
    maxDataZoom: ${e.maxzoom}, // the archive's deepest zoom: its style's "geoshelf:maxzoom"
    attribution: ${jsString(`<a href="${escapeHtml(site + e.page)}">${escapeHtml(e.country)}: sources and licence</a>`)},
    paintRules: [
      { dataLayer: 'units', symbolizer: new protomapsL.PolygonSymbolizer({ fill: '#c9d8e4', opacity: 0.7 }) },
      { dataLayer: 'units', symbolizer: new protomapsL.LineSymbolizer({ color: '#3a5068', width: 1 }) },
    ],
    labelRules: [],
  }).addTo(map);
</script>`;
  return { maplibre, addSource, leaflet };
}

/** Returns the reader's page; `site` is the catalogue's absolute URL when known (--site-url), else undefined. */
export function renderWebMapsPage(
  context: PageContext,
  site: string | undefined,
  example: WebMapExample,
): string {
  const { base } = context;
  const shown = site ?? `https://your-host.example${base}`;
  const s = snippets(shown, example);
  const file = (path: string) => path.slice(path.lastIndexOf('/') + 1); // e.g. "CHL_ADM1.mercator.pmtiles"
  const main = markup`<h1>Boundaries in your own web map</h1>
<p class="lead">Every level of every Earth country, and the world's countries, as a <a href="https://github.com/protomaps/PMTiles">PMTiles</a> archive of vector tiles in Web Mercator (EPSG:3857, the z/x/y tiles of MapLibre GL JS, Leaflet and OpenLayers), with a MapLibre style. One file each, read with HTTP Range requests: no tile server.</p>
<h2>The files</h2>
<dl class="meta">
<dt><code>{body}/{ISO3}/{ISO3}_{LEVEL}.mercator.pmtiles</code>, e.g. <code>${example.archive}</code></dt>
<dd>One layer, <code>units</code>: a polygon feature per unit with the properties <code>unit_id</code> (its release ID, after a release), <code>code</code> and <code>name</code>. Shared borders are the same line in both units at every zoom. Zooms 0 to the level's own maximum (the archive's header and <code>vector_layers</code> say which; at most 12); maps draw deeper zooms from it.</dd>
<dt><code>{body}/{ISO3}/{ISO3}_{LEVEL}.style.json</code>, e.g. <code>${example.style}</code>, linked as "Web map style" beside each level's downloads on its country's page</dt>
<dd>A MapLibre style (version 8): a background, a fill and a line layer over the archive. No fonts, no sprite.</dd>
<dt><code>map-world.mercator.pmtiles</code>, <code>map-world.style.json</code>, at the site's root</dt>
<dd>The front page's world: one feature per country, <code>code</code> its ISO 3166-1 alpha-3 code.</dd>
</dl>
<p>Web Mercator is a projection of the Earth: the Moon's and Mars's catalogues have none of these files. Latitudes beyond ±85.0511° (Antarctica's interior) are drawn at that latitude.</p>
<p>The examples show one level of this catalogue, <code>${example.source}</code>; any other works the same way with its own files and deepest zoom.</p>
<h2>MapLibre GL JS</h2>
<p>MapLibre GL JS 6 is an ES module: import it in a module script. Register the <code>pmtiles</code> protocol (with <code>metadata: true</code>, so that the map reads the archive's attribution and credits it), then load a published style. Its source names the archive relative to the style (<code>pmtiles://${file(example.archive)}</code>, the two files side by side, so a style serves unchanged under any host or release folder): resolve it against the style's URL first.</p>
<pre><code>${s.maplibre}</code></pre>
<p>Or add the archive to a map and style of your own:</p>
<pre><code>${s.addSource}</code></pre>
<h2>Leaflet</h2>
<p>With <a href="https://github.com/protomaps/protomaps-leaflet">protomaps-leaflet</a>, which draws PMTiles vector tiles on a Leaflet map. Give it the archive's deepest zoom as <code>maxDataZoom</code> (the level's style names it, as <code>metadata["geoshelf:maxzoom"]</code>): it draws deeper zooms from that one, while without it it asks for zooms up to 15, which the archive lacks, and draws nothing there. And name the data's source in <code>attribution</code>: without it the layer credits Protomaps and OpenStreetMap, which made none of it.</p>
<pre><code>${s.leaflet}</code></pre>
<h2>Serving the files from another host</h2>
<p>Whatever serves the archives must answer HTTP Range requests (any static host does) and, for a map on another site, send CORS headers (<code>Access-Control-Allow-Origin</code>, and <code>Access-Control-Expose-Headers: ETag, Content-Range</code>).</p>`;
  return renderPage(context, {
    title: 'Boundaries in your own web map',
    description:
      'Vector tiles of every level in Web Mercator (PMTiles), with MapLibre styles: how to add them to a MapLibre GL JS or Leaflet map.',
    main,
  });
}
