// The reader's page on the Web Mercator archives, web-maps/index.html: what
// the archives and styles are, and how to add them to one's own MapLibre GL
// JS or Leaflet map (docs/catalogue.md#web-map-tiles says the same at length).
import { markup } from './pages/html.ts';
import { renderPage, type PageContext } from './pages/layout.ts';

/** The reader's page's path inside dist/. */
export const WEB_MAPS_PAGE = 'web-maps/index.html';

/** Returns the snippets, with `site` the catalogue's URL (absolute), e.g. "https://example.org/". */
function snippets(site: string): { maplibre: string; addSource: string; leaflet: string } {
  const maplibre = `<link rel="stylesheet" href="https://unpkg.com/maplibre-gl@5/dist/maplibre-gl.css">
<script src="https://unpkg.com/maplibre-gl@5/dist/maplibre-gl.js"></script>
<script src="https://unpkg.com/pmtiles@4/dist/pmtiles.js"></script>
<div id="map" style="height: 400px"></div>
<script>
  const protocol = new pmtiles.Protocol();
  maplibregl.addProtocol('pmtiles', protocol.tile);
  const styleUrl = '${site}earth/CHL/CHL_ADM1.style.json';
  fetch(styleUrl)
    .then((response) => response.json())
    .then((style) => {
      // The style names its archive relative to itself: make that absolute.
      for (const source of Object.values(style.sources))
        source.url = 'pmtiles://' + new URL(source.url.slice('pmtiles://'.length), styleUrl);
      new maplibregl.Map({ container: 'map', style, center: [-71, -35], zoom: 3 });
    });
</script>`;
  const addSource = `// In a map of your own (after maplibregl.addProtocol as above):
map.addSource('CHL_ADM1', {
  type: 'vector',
  url: 'pmtiles://${site}earth/CHL/CHL_ADM1.mercator.pmtiles',
});
map.addLayer({
  id: 'chl-adm1-borders',
  type: 'line',
  source: 'CHL_ADM1',
  'source-layer': 'units',
  paint: { 'line-color': '#3a5068', 'line-width': 1 },
});
map.on('click', 'chl-adm1-borders', (e) => console.log(e.features[0].properties.name));`;
  const leaflet = `<link rel="stylesheet" href="https://unpkg.com/leaflet@1.9/dist/leaflet.css">
<script src="https://unpkg.com/leaflet@1.9/dist/leaflet.js"></script>
<script src="https://unpkg.com/protomaps-leaflet@5/dist/protomaps-leaflet.js"></script>
<div id="map" style="height: 400px"></div>
<script>
  const map = L.map('map').setView([-35, -71], 3);
  protomapsL.leafletLayer({
    url: '${site}earth/CHL/CHL_ADM1.mercator.pmtiles',
    maxDataZoom: 7, // the archive's deepest zoom: its style's "geoshelf:maxzoom"
    attribution: '<a href="${site}earth/CHL/">Chile: sources and licence</a>',
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
export function renderWebMapsPage(context: PageContext, site: string | undefined): string {
  const { base } = context;
  const shown = site ?? `https://your-host.example${base}`;
  const s = snippets(shown);
  const main = markup`<h1>Boundaries in your own web map</h1>
<p class="lead">Every level of every Earth country, and the world's countries, as a <a href="https://github.com/protomaps/PMTiles">PMTiles</a> archive of vector tiles in Web Mercator (EPSG:3857, the z/x/y tiles of MapLibre GL JS, Leaflet and OpenLayers), with a MapLibre style. One file each, read with HTTP Range requests: no tile server.</p>
<h2>The files</h2>
<dl class="meta">
<dt><code>{body}/{ISO3}/{ISO3}_{LEVEL}.mercator.pmtiles</code>, e.g. <code>earth/CHL/CHL_ADM1.mercator.pmtiles</code></dt>
<dd>One layer, <code>units</code>: a polygon feature per unit with the properties <code>unit_id</code> (its release ID, after a release), <code>code</code> and <code>name</code>. Shared borders are the same line in both units at every zoom. Zooms 0 to the level's own maximum (the archive's header and <code>vector_layers</code> say which; at most 12); maps draw deeper zooms from it.</dd>
<dt><code>{body}/{ISO3}/{ISO3}_{LEVEL}.style.json</code>, e.g. <code>earth/CHL/CHL_ADM1.style.json</code>, linked as "Web map style" beside each level's downloads on its country's page</dt>
<dd>A MapLibre style (version 8): a background, a fill and a line layer over the archive. No fonts, no sprite.</dd>
<dt><code>map-world.mercator.pmtiles</code>, <code>map-world.style.json</code>, at the site's root</dt>
<dd>The front page's world: one feature per country, <code>code</code> its ISO 3166-1 alpha-3 code.</dd>
</dl>
<p>Web Mercator is a projection of the Earth: the Moon's and Mars's catalogues have none of these files. Latitudes beyond ±85.0511° (Antarctica's interior) are drawn at that latitude.</p>
<h2>MapLibre GL JS</h2>
<p>Register the <code>pmtiles</code> protocol, then load a published style. Its source names the archive relative to the style (<code>pmtiles://CHL_ADM1.mercator.pmtiles</code>, the two files side by side, so a style serves unchanged under any host or release folder): resolve it against the style's URL first.</p>
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
