// The JSON API's human-readable page, written as api/v1/index.html so that
// /api/v1/ resolves on any static host (every host serves a folder's
// index.html; none serves index.json as a directory index).
import { markup } from './pages/html.ts';
import { renderPage, type PageContext } from './pages/layout.ts';

/** Returns the page documenting the JSON API; `apiBase` is absolute with --site-url, e.g. "https://example.org/". */
export function renderApiPage(context: PageContext, apiBase: string): string {
  const { base } = context;
  const main = markup`<h1>JSON API</h1>
<p class="lead">The catalogue as static JSON files: no key, no rate limit, cacheable. Every URL inside a document already includes the site's base${apiBase === base ? '' : ' and origin'}, so clients never join paths.</p>
<h2>Documents</h2>
<dl class="meta api-docs">
<dt><a href="${base}api/v1/index.json"><code>api/v1/index.json</code></a></dt>
<dd><code>{api_version, count, entries, world_files}</code>: per country its names, codes, M49 region, status, licences, levels, the URLs of its page, its document and its manifest, and per dataset its level, features, URL, bytes, sha256 and number of parts; <code>world_files</code> = <code>[{body, level, format, url, bytes, sha256}]</code>, each level of each body with every country's units in one GeoJSON, GeoPackage or GeoParquet file (rebuilt with the catalogue, never part of a release).</dd>
<dt><code>api/v1/{body}/{ISO3}.json</code>, e.g. <a href="${base}api/v1/earth/CHL.json"><code>api/v1/earth/CHL.json</code></a></dt>
<dd><code>{api_version, page, api, manifest, urls, units}</code>: the manifest exactly as published (its schema: <a href="${base}schema/manifest.v1.json">manifest.v1.json</a>); <code>urls[i]</code> = <code>{level, url, unit_ids_url, preview_url, display_bbox, coverage, parts: [{code, name, url, unit_ids_url}]}</code> per dataset, where <code>coverage</code> = <code>{units, gap_width_m, overlaps: {count, area_m2}, gaps: {count, area_m2}, edges, nesting}</code> is how the level's units fit together as the build checked them; <code>units</code> = per level, every unit as <code>{id, unit_id, name, other_names, code, parent, bbox, display_bbox, part, page}</code>, where <code>unit_id</code> is the ID a release gave it (none until then).</dd>
<dt><code>api/v1/{body}/{ISO3}/{layer}.unit-ids.json</code></dt>
<dd>After a release: <code>{api_version, file, sha256, property, ids}</code>, the release ID of each feature of one GeoJSON file by feature index (<code>ids[i]</code> is feature <code>i</code>'s), for the file whose sha256 it gives; the other formats hold the ID as the property <code>unit_id</code>.</dd>
<dt><code>api/v1/{body}/{ISO3}/history.json</code></dt>
<dd>After a release: the country in each release (its changes, links to the release and its "What changed" page), and every unit it ever had by ID: <code>first_seen</code>, <code>last_seen</code>, <code>last_changed</code>, <code>supersedes</code>, <code>superseded_by</code> and its changes per release. The releases themselves, each with the levels that became clean in it (<code>coverage.became_clean</code>): <code>api/releases.json</code>.</dd>
<dt><code>search/{x}/{xx}.json</code>, <code>search/keys.json</code></dt>
<dd>The front page's search index, one file per first two letters of a word (folded: lowercase, no accents), in a folder per first letter, and the list of those files. Internal to the site; its shape may change.</dd>
</dl>
<h2>Bounding boxes</h2>
<p><code>bbox</code> is <code>[west, south, east, north]</code>, the plain minimum and maximum of the coordinates, as in the manifest. A shape crossing the antimeridian (Fiji, Chukotka, the Aleutians) then spans nearly the whole world; <code>display_bbox</code> is the box to show it in, with <code>west &gt; east</code> when it crosses, as RFC 7946 §5.2 allows (Fiji: <code>[177.0, -20.7, -178.2, -12.5]</code>).</p>
<h2>Versions</h2>
<p><code>api_version</code> is 1. A field may be added within a version; none is removed or changed in meaning.</p>`;
  return renderPage(context, {
    title: 'JSON API',
    description:
      'The boundary catalogue as static JSON documents: index, one document per country with its units, and the manifest schema.',
    main,
  });
}
