// One page per manifest: identity, status, attribution, the map, the
// datasets table (with sha256 copy buttons and downloads) and split parts.
import type { UnitIds } from '../../identity/unit-ids.ts';
import type { ApiCountryHistory, ReleaseChangeType } from '../../core/shared/api.ts';
import type { Dataset, GeometryTypes, Manifest, Part } from '../../core/shared/manifest.ts';
import { MAX_TILED_BYTES } from '../../core/shared/tiles.ts';
import { crsDefinition, crsName } from '../../core/shared/crs.ts';
import { formatBytes, formatInt, licenseLink, markup, nameText, raw, type Html } from './html.ts';
import { statusBadge } from './index-page.ts';
import { renderPage, type PageContext } from './layout.ts';
import { countryApi, fileUrl } from '../../core/dist-paths.ts';
import type { CountryDownloads, DatasetDownloads } from '../../formats/downloads.ts';
import { downloadsSection, levelLinks, partLinks, simplifiedLinks } from './downloads.ts';
import { atlasMapAttributes, partNames } from '../atlas-page.ts';
import { unitsSection } from '../units-list.ts';
import { mainMap, type CountryAtlas } from '../atlas.ts';
import type { CountryMap } from '../../geo/map-sources.ts';
import { datasetGeometry, describeGeometry, type GeometryByFile } from '../geometry-status.ts';
import type { CoverageByLevel } from '../coverage-status.ts';
import { coverageSection } from './coverage-section.ts';
import { bodyCrumb } from './bodies.ts';
import { creditedName } from '../../manifest/summary.ts';

/** What the build's stages found about one country besides its manifest; a page renders without any of it. */
export interface CountryFacts {
  atlas?: CountryAtlas; // units and maps (build/site/atlas.ts)
  downloads?: CountryDownloads; // other formats and the archive (build/formats/)
  geometry: GeometryByFile; // geometry counts of every checked file of the catalogue
  coverage?: CoverageByLevel; // coverage figures of every checked level of the catalogue
  unitIds?: UnitIds; // the release IDs of the units (build/identity/unit-ids.ts), by data file
  history?: { doc: ApiCountryHistory; url: string }; // the country across releases (build/site/history.ts)
}

const STATUS_NOTES: Record<string, string> = {
  review:
    'This entry is under review: its boundaries or metadata may still change. Check the files before relying on them.',
  deprecated:
    'This entry is deprecated: it is kept for existing users but no longer maintained. Prefer a current entry.',
};

/** Returns a link only for http(s) URLs; anything else (e.g. "javascript:") is shown as text. */
/** Returns how the page names a manifest's CRS, e.g. "OGC:CRS84, WGS 84 (EPSG:4326)" or "IAU_2015:30100, Moon (2015) - Sphere / Ocentric". */
function crsLabel(crs: Manifest['crs']): string {
  const { name, epsg } = crsDefinition(crs);
  return `${crsName(crs)}, ${name}${epsg ? ` (EPSG:${epsg})` : ''}`;
}

function safeLink(url: string, text: string): Html {
  return /^https?:\/\//i.test(url) ? markup`<a href="${url}">${text}</a>` : markup`${text} (${url})`;
}

function geometry(types: GeometryTypes): string {
  const counts = Object.entries(types).filter(([, n]) => n && n > 0);
  return counts.map(([type, n]) => `${type} ${formatInt(n as number)}`).join(', ') || '–';
}

function size(bytes: number | undefined): Html {
  if (bytes === undefined) return markup`–`;
  return markup`<span title="${formatInt(bytes)} bytes">${formatBytes(bytes)}</span>`;
}

function sha(sha256: string | undefined, label: string): Html {
  if (!sha256) return markup`–`;
  return markup`<div><code class="sha">${sha256}</code> <button type="button" class="copy" data-copy="${sha256}" aria-label="Copy the sha256 of ${label}" hidden>Copy</button></div>`;
}

function fileName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

function download(base: string, path: string, label: string, describedBy: string): Html {
  return markup`<a class="download" href="${fileUrl(base, path)}" download="${fileName(path)}" aria-describedby="${describedBy}">${label}</a>`;
}

/** The dataset's geometry status under its types, e.g. "3 invalid features" (OGC rules, see README). */
function validity(d: Dataset, byFile: GeometryByFile): Html {
  const counts = datasetGeometry(d, byFile);
  if (!counts) return markup``;
  const cls = counts.invalid === 0 ? 'valid' : 'invalid';
  return markup`<br><small class="geometry-${cls}" title="${formatInt(counts.checked)} ${counts.checked === 1 ? 'feature' : 'features'} checked with the OGC rules of GEOS">${describeGeometry(counts)}</small>`;
}

function datasetRow(
  base: string,
  m: Manifest,
  d: Dataset,
  byFile: GeometryByFile,
  dl: DatasetDownloads | undefined,
  style: string | undefined, // its Web Mercator style inside dist, e.g. "earth/CHL/CHL_ADM1.style.json"
): Html {
  const id = `ds-${d.level}`;
  const year = d.src_year === undefined ? undefined : String(d.src_year);
  const provider = [d.src_provider, year].filter(Boolean).join(', ');
  const previewSize = d.preview_bytes ? markup` <small>(${formatBytes(d.preview_bytes)})</small>` : '';
  const downloads = [
    d.path ? download(base, d.path, 'GeoJSON', id) : undefined,
    ...levelLinks(base, dl?.whole, id),
    ...simplifiedLinks(base, dl?.simplified, id),
    d.parts ? markup`<a href="#parts-${d.level}">${formatInt(d.parts.length)} parts</a>` : undefined,
    d.preview
      ? markup`<a href="${fileUrl(base, d.preview)}" download="${fileName(d.preview)}">Preview</a>${previewSize}`
      : undefined,
    style
      ? markup`<a href="${fileUrl(base, style)}">Web map style</a> <small>(<a href="${base}web-maps/">how</a>)</small>`
      : undefined,
  ].filter(Boolean);
  const simplification =
    d.simplification && d.simplification.method !== 'none'
      ? `${d.simplification.method}, ${formatInt(d.simplification.tolerance_m)} m`
      : (d.simplification?.method ?? '–');
  return markup`<tr>
<th scope="row" id="${id}" data-label="Level">${d.level}</th>
<td data-label="Features" class="num">${formatInt(d.features)}</td>
<td data-label="Size" class="num">${size(d.bytes)}</td>
<td data-label="sha256" class="sha-cell">${sha(d.sha256, `${m.iso_a3} ${d.level}`)}</td>
<td data-label="Geometry"><div>${geometry(d.geometry_types)}${validity(d, byFile)}</div></td>
<td data-label="Properties" class="props">${d.properties.join(', ') || '–'}</td>
<td data-label="Licence">${licenseLink(d.license)}</td>
<td data-label="Simplification">${simplification}</td>
<td data-label="Provider">${provider || '–'}</td>
<td data-label="Download"><div>${downloads.map((link, i) => markup`${i ? markup`<br>` : ''}${link}`)}</div></td>
</tr>
`;
}

function partRow(
  base: string,
  m: Manifest,
  d: Dataset,
  p: Part,
  name: string | undefined,
  dl: DatasetDownloads | undefined,
): Html {
  const id = `part-${d.level}-${p.code}`;
  const others = partLinks(
    base,
    dl?.parts.find((x) => x.code === p.code),
    id,
  );
  return markup`<tr>
<th scope="row" id="${id}" data-label="Part"><code>${p.code}</code>${name ? markup` ${name}` : ''}</th>
<td data-label="Features" class="num">${formatInt(p.features)}</td>
<td data-label="Size" class="num">${size(p.bytes)}</td>
<td data-label="sha256" class="sha-cell">${sha(p.sha256, `${m.iso_a3} ${d.level} part ${p.code}`)}</td>
<td data-label="Geometry">${geometry(p.geometry_types)}</td>
<td data-label="Download">${download(base, p.path, 'GeoJSON', id)}${others.map((l) => markup` · ${l}`)}</td>
</tr>
`;
}

function partsSection(
  base: string,
  m: Manifest,
  d: Dataset,
  names: Map<string, string>,
  dl: DatasetDownloads | undefined,
): Html {
  const parts = d.parts ?? [];
  const total = parts.reduce((n, p) => n + p.bytes, 0);
  const by = d.split_by ?? 'ADM1';
  const whole = d.path ? ', for those who need only one region (the whole level is also one file above)' : '';
  const unassigned = d.unassigned
    ? markup` ${formatInt(d.unassigned)} ${d.unassigned === 1 ? 'feature' : 'features'} whose parent could not be determined ${d.unassigned === 1 ? 'is' : 'are'} in the part <code>unassigned</code>.`
    : '';
  return markup`<h3 id="parts-${d.level}">${d.level} split by ${by}: ${formatInt(parts.length)} parts</h3>
<p>One file per ${by} parent, ${formatBytes(total)} in all${whole}.${unassigned}</p>
<div class="table-scroll"><table class="stack">
<caption class="visually-hidden">Parts of ${m.name.en} ${d.level}</caption>
<thead><tr><th scope="col">Part</th><th scope="col" class="num">Features</th><th scope="col" class="num">Size</th><th scope="col">sha256</th><th scope="col">Geometry</th><th scope="col">Download</th></tr></thead>
<tbody>
${parts.map((p) => partRow(base, m, d, p, names.get(p.code), dl))}</tbody>
</table></div>
`;
}

function metadata(base: string, file: string, m: Manifest): Html {
  const s = m.source;
  const license =
    s.license === 'mixed'
      ? markup`mixed: ${(s.licenses ?? []).map((l, i) => markup`${i ? ', ' : ''}${licenseLink(l)}`)} (per dataset below)`
      : licenseLink(s.license);
  const region = m.m49_region ? markup`<dt>Region (M49)</dt><dd>${m.m49_region}</dd>\n` : '';
  const notes = m.notes ? markup`<dt>Notes</dt><dd>${m.notes}</dd>\n` : '';
  return markup`<dl class="meta">
<dt>Status</dt><dd>${statusBadge(m.status)}</dd>
<dt>ISO 3166 codes</dt><dd><code>${m.iso_a3}</code>${m.iso_a2 ? markup` · <code>${m.iso_a2}</code>` : ''}</dd>
${region}<dt>Body</dt><dd>${m.body}</dd>
<dt>Coordinates</dt><dd>${crsLabel(m.crs)}</dd>
<dt>Source</dt><dd>${safeLink(s.url, s.name)}</dd>
<dt>Retrieved</dt><dd><time datetime="${s.retrieved}">${s.retrieved}</time></dd>
<dt>Licence</dt><dd>${license}</dd>
${notes}<dt>Manifest</dt><dd><a href="${fileUrl(base, file)}">manifest.json</a> · <a href="${base}${countryApi(m)}">JSON API</a></dd>
</dl>`;
}

/** Returns a note naming each drawn level too large for tiles: its map stays at preview detail, and the reader should know why. */
function untiledNote(untiled: Record<string, number> = {}): Html {
  const levels = Object.entries(untiled);
  if (levels.length === 0) return markup``;
  const each = levels.map(
    ([level, bytes]) =>
      markup`${level} is drawn at preview detail at every zoom: its data (${formatBytes(bytes)}) is larger than the ${formatBytes(MAX_TILED_BYTES)} the build cuts into map tiles.`,
  );
  return markup`\n<p class="map-note">${each.map((note, i) => (i === 0 ? note : markup` ${note}`))}</p>`;
}

function mapFigure(
  m: Manifest,
  map: CountryMap | undefined,
  atlas: Html,
  untiled?: Record<string, number>,
): Html {
  if (!map) {
    return markup`<p class="no-map">No preview of ${nameText(m.name.en)} is small enough to draw here; download a file below.</p>`;
  }
  return markup`<figure class="map"${atlas}>
${raw(map.svg)}
<figcaption>${map.level} ${map.preview ? 'preview' : 'file'} <code>${map.from.slice(map.from.lastIndexOf('/') + 1)}</code>, drawn at build time (${m.body === 'earth' ? 'Lambert azimuthal equal-area centred on the country' : 'plate carrée, as the body’s map'}, simplified to the pixel grid, framed on the main territory; rings mark shapes too small to see).</figcaption>${untiledNote(untiled)}
</figure>`;
}

function attribution(m: Manifest): Html {
  return markup`<p class="attribution">Please credit <strong>${creditedName(m)}</strong> via ${safeLink(m.source.url, m.source.name)} (retrieved ${m.source.retrieved}) under the licence of each dataset above.</p>`;
}

const CHANGE_WORDS: Record<ReleaseChangeType, string> = {
  'country-added': 'the country added',
  'country-removed': 'the country removed',
  'country-changed': 'described differently',
  'level-added': 'level added',
  'level-removed': 'level removed',
  added: 'added',
  removed: 'removed',
  merged: 'merged',
  split: 'split',
  reorganised: 'reorganised',
  renamed: 'renamed',
  recoded: 're-coded',
  attributes: 'attributes changed',
  geometry: 'geometry changed',
};

/** Returns the country's history section: each release's changes of it, newest first, linking "What changed". */
function historySection(doc: ApiCountryHistory, url: string): Html {
  const items = doc.releases.map((r) => {
    const counts = Object.entries(r.changes).map(
      ([type, n]) => `${formatInt(n)} ${CHANGE_WORDS[type as ReleaseChangeType]}`,
    );
    const said = [...(r.first ? ['its first release'] : []), ...counts].join(', ');
    const version = r.page === null ? r.version : markup`<a href="${r.page}">${r.version}</a>`;
    return markup`<li>${version}: ${said} · <a href="${r.changes_page}">What changed in ${r.version}</a></li>
`;
  });
  return markup`<section id="history" class="history" aria-labelledby="history-h">
<h2 id="history-h">History</h2>
<p>The releases in which this country changed, newest first, and its first. A unit's permalink shows its own history; all of it is in the <a href="${url}">history document</a>.</p>
<ul class="changes">
${items}</ul>
</section>
`;
}

/** Returns the page of one manifest; `file` is its path from the root, e.g. "data/earth/CHL/manifest.json". */
export function renderCountryPage(
  context: PageContext,
  file: string,
  m: Manifest,
  facts: CountryFacts = { geometry: new Map() },
): string {
  const { base } = context;
  const { atlas = { levels: [] }, geometry: byFile, coverage, downloads, history } = facts;
  const map = mainMap(atlas);
  const es =
    m.name.es && m.name.es !== m.name.en ? markup` <span class="es" lang="es">${m.name.es}</span>` : '';
  const banner = STATUS_NOTES[m.status]
    ? markup`<p class="banner banner-${m.status}" role="note"><strong>${statusBadge(m.status)}</strong> ${STATUS_NOTES[m.status]}</p>\n`
    : '';
  const main = markup`<nav class="breadcrumb" aria-label="Breadcrumb"><ol><li><a href="${base}">Catalogue</a></li>${bodyCrumb(base, m)}<li aria-current="page">${nameText(m.name.en)}</li></ol></nav>
<h1>${nameText(m.name.en)}${es}</h1>
${banner}<div class="overview">
${mapFigure(m, map, atlasMapAttributes(base, m, atlas), atlas.untiled)}
<section aria-labelledby="about"><h2 id="about" class="visually-hidden">About this entry</h2>
${metadata(base, file, m)}
</section>
</div>
<h2 id="datasets">Datasets</h2>
<div class="table-scroll"><table class="stack datasets">
<caption class="visually-hidden">Datasets of ${m.name.en}, one per administrative level</caption>
<thead><tr><th scope="col">Level</th><th scope="col" class="num">Features</th><th scope="col" class="num">Size</th><th scope="col">sha256</th><th scope="col">Geometry</th><th scope="col">Properties</th><th scope="col">Licence</th><th scope="col">Simplification</th><th scope="col">Provider</th><th scope="col">Download</th></tr></thead>
<tbody>
${m.datasets.map((d, i) => datasetRow(base, m, d, byFile, downloads?.datasets[i], atlas.webMaps?.[d.level]?.style))}</tbody>
</table></div>
${m.datasets.map((d, i) => (d.parts && d.parts.length > 0 ? partsSection(base, m, d, partNames(atlas), downloads?.datasets[i]) : ''))}${coverageSection(m, coverage)}${unitsSection(base, m, atlas, history?.url)}${history ? historySection(history.doc, history.url) : ''}${downloads ? downloadsSection(base, m.name.en, downloads) : ''}${attribution(m)}`;
  const codes = m.iso_a2 ? `${m.iso_a3}, ${m.iso_a2}` : m.iso_a3;
  return renderPage(context, {
    title: `${m.name.en} (${m.iso_a3})`,
    description: `Administrative boundaries of ${m.name.en} (${codes}): ${m.datasets.map((d) => d.level).join(', ')} as GeoJSON${downloads ? ', GeoPackage, FlatGeobuf, Shapefile and TopoJSON' : ''}, with sizes, sha256, source and licence.`,
    main,
  });
}
