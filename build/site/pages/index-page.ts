// The catalogue's front page: every manifest in one table (it works without
// script), plus the search form that src/client/main.ts brings to life. The
// stylesheet lays the rows out as grids with `content-visibility: auto`, so
// the browser renders only the rows on screen before the first paint; the
// explicit ARIA roles keep the table's semantics under that CSS. Rows carry
// each value once, without per-cell labels or classes.
import type { ApiReleaseStatus } from '../../core/shared/api.ts';
import type { Manifest } from '../../core/shared/manifest.ts';
import type { TilesInfo } from '../../core/shared/tiles.ts';
import { formatInt, markup, raw, type Html } from './html.ts';
import { renderPage, type PageContext } from './layout.ts';
import { manifestLevels, manifestLicenses } from '../../manifest/summary.ts';
import { countryPage } from '../../core/dist-paths.ts';
import { searchResults } from '../search-box.ts';
import type { Body } from '../../core/shared/manifest.ts';
import { BODY_HEADINGS, BODY_NAMES, bodiesNav, type IndexBodies } from './bodies.ts';

const STATUS_LABELS: Record<string, string> = { ok: 'OK', review: 'Under review', deprecated: 'Deprecated' };

/** Returns a status badge: colour and a word, e.g. "Under review". */
export function statusBadge(status: string): Html {
  return markup`<span class="badge badge-${status}">${STATUS_LABELS[status] ?? status}</span>`;
}

function options(values: Iterable<string>, labels: Record<string, string> = {}): Html[] {
  return [...new Set(values)].sort().map((v) => markup`<option value="${v}">${labels[v] ?? v}</option>`);
}

function row(context: PageContext, m: Manifest): Html {
  const levels = manifestLevels(m);
  const licenses = manifestLicenses(m);
  const es =
    m.name.es && m.name.es !== m.name.en ? markup`<span class="es" lang="es">${m.name.es}</span>` : '';
  return markup`<tr role="row" data-status="${m.status}" data-licenses="${licenses.join(' ')}"${m.status === 'deprecated' ? markup` class="row-deprecated"` : ''}>
<td role="cell"><a href="${context.base}${countryPage(m)}">${m.name.en}</a>${es}</td>
<td role="cell">${m.iso_a3}</td>
<td role="cell">${m.iso_a2 ?? '–'}</td>
<td role="cell">${m.body}</td>
<td role="cell">${m.m49_region ?? '–'}</td>
<td role="cell">${statusBadge(m.status)}</td>
<td role="cell">${levels.join(', ')}</td>
<td role="cell">${m.source.license === 'mixed' ? `mixed: ${licenses.join(', ')}` : m.source.license}</td>
</tr>
`;
}

/**
 * The front page's world map: its build-time picture (world-map.ts) and, when
 * cut, its tiles. With `file` (a release's copy), the page links the picture
 * there instead of holding it (site.ts writes it, worldPicture below).
 */
export interface WorldFigure {
  svg: string;
  title: string; // the picture's, e.g. "Map of every country and territory in the catalogue"
  tiles?: TilesInfo;
  file?: string; // the picture's URL
}

/**
 * Returns the world map's figure, in the shape the country pages' map has
 * (data-maps, data-level, data-tiles), so the same script explores it;
 * data-world tells it that choosing a country opens the country's page.
 */
function worldFigure(world: WorldFigure, body: Body = 'earth'): Html {
  const tiles = world.tiles ? markup` data-tiles="${JSON.stringify({ world: world.tiles })}"` : '';
  const picture = world.file ? linkedPicture(world) : raw(world.svg);
  const caption =
    body === 'earth'
      ? 'Every country and territory in the catalogue, drawn at build time in the Equal Earth projection; rings mark those too small to see. Choose one to open its page, or zoom in for full-detail borders.'
      : `Every unit on ${BODY_NAMES[body]} in the catalogue, drawn at build time in plate carrée (longitude and latitude as x and y, east to the right, 180° W at the left edge); choose one to open it on its page.`;
  return markup`<figure class="map world" data-world data-maps="${JSON.stringify({ world: world.file ?? '' })}" data-level="world"${tiles}>
${picture}
<figcaption>${caption}</figcaption>
</figure>
`;
}

/**
 * Returns the picture as an image of its file, at its size and with its
 * title: the page without script shows it, and the script puts the SVG
 * itself in its place (src/client/map.ts).
 */
function linkedPicture({ svg, title, file }: WorldFigure): Html {
  const [, , width, height] = (/viewBox="([^"]*)"/.exec(svg)?.[1] ?? '').split(' ');
  return markup`<img class="map-picture" src="${file}" alt="${title}" width="${width}" height="${height}">`;
}

/**
 * Returns the picture as a file of its own: the same SVG, with a style that
 * draws it as the page would when it is shown as an image. The script drops
 * the style when it puts the SVG in the page, whose stylesheet then applies.
 */
export function worldPicture(svg: string): string {
  return svg.replace(/^<svg[^>]*>/, (open) => `${open}<style>${PICTURE_STYLE}</style>`);
}

/** The page's colours of land and coast (src/client/style.css, atlas.css), light and dark. */
const PICTURE_STYLE =
  '.f,.m{stroke:#2c5e3c;stroke-linejoin:round;vector-effect:non-scaling-stroke}.f{fill:#cfe3d3;stroke-width:.75}.m{fill:none;stroke-width:1.25}' +
  '@media (prefers-color-scheme:dark){.f{fill:#34523d;stroke:#9fd0ad}.m{stroke:#9fd0ad}}';

function sortable(label: string, key: string, sorted = false): Html {
  const sort = sorted ? markup` aria-sort="ascending"` : '';
  return markup`<th scope="col" role="columnheader"${sort}><button type="button" data-sort="${key}">${label}</button></th>`;
}

function select(id: string, name: string, label: string, values: Html[]): Html {
  return markup`<div><label for="${id}">${label}</label><select id="${id}" name="${name}"><option value="">All</option>${values}</select></div>`;
}

/**
 * Returns the search's note on what it can find below the countries: how many
 * of them publish subdivisions (a level deeper than ADM0), e.g. "Subdivisions
 * (ADM1 and deeper) can be searched in 20 of the 241 countries and territories".
 */
function subdivisionNote(manifests: Manifest[]): string {
  const subdivided = manifests.filter((m) => manifestLevels(m).some((level) => level !== 'ADM0')).length;
  const all = manifests.length;
  if (subdivided === all) return 'Every country and territory has subdivisions (ADM1 and deeper) to search.';
  if (subdivided === 0)
    return 'Only countries and regions can be searched: no country has subdivisions yet (ADM1 and deeper).';
  return `Subdivisions (ADM1 and deeper) can be searched in ${formatInt(subdivided)} of the ${formatInt(all)} countries and territories; the others are found by their own names and codes.`;
}

/** What an index page says about its body: heading, lead, search hint, page title. */
function bodyTexts(context: PageContext, manifests: Manifest[], body: Body) {
  const datasets = manifests.reduce((n, m) => n + m.datasets.length, 0);
  const json = markup`Programs can read the same catalogue as <a href="${context.base}api/v1/index.json">JSON</a>.`;
  if (body === 'earth') {
    return {
      heading: 'Administrative boundaries',
      lead: markup`${formatInt(manifests.length)} countries and territories, ${formatInt(datasets)} datasets, each a GeoJSON file with its size, sha256, source and licence. ${json}`,
      hint: subdivisionNote(manifests),
      example: 'e.g. Texas, Santiago, UK, Fiyi, CHL',
      description: `Browse and download administrative boundaries of ${manifests.length} countries and territories as GeoJSON, with sources and licences.`,
      caption: 'Every country and territory in the catalogue',
    };
  }
  const n = manifests.length;
  const of = `${formatInt(n)} ${n === 1 ? 'catalogue' : 'catalogues'}`;
  return {
    heading: BODY_HEADINGS[body],
    lead: markup`${of} of ${BODY_NAMES[body]}, ${formatInt(datasets)} ${datasets === 1 ? 'dataset' : 'datasets'}, each a GeoJSON file in the body's own coordinates (its manifest names the CRS), with its size, sha256, source and licence. ${json}`,
    hint: `Every unit on ${BODY_NAMES[body]} can be searched by its name and code.`,
    example: `e.g. a quadrangle's name or code`,
    description: `Browse and download the mapped units of ${BODY_NAMES[body]} (${of}) as GeoJSON, with sources and licences.`,
    caption: `Every catalogue of ${BODY_NAMES[body]}`,
  };
}

/**
 * Returns the index page of `manifests` (already in catalogue order): the
 * front page (Earth's), or with `bodies.body` another body's page; `bodies`
 * also names the other bodies to link.
 */
export function renderIndexPage(
  context: PageContext,
  manifests: Manifest[],
  release?: ApiReleaseStatus,
  frozen = false, // the copy published under releases/VERSION/, which has no pages about releases
  world?: WorldFigure,
  bodies: IndexBodies = { body: 'earth', others: [] },
  cite?: Html, // a release's "Cite this release" block (citation.ts)
  worldFiles: Html | '' = '', // the body's world files (world-files-section.ts)
): string {
  const texts = bodyTexts(context, manifests, bodies.body);
  const main = markup`<h1>${texts.heading}</h1>
<p class="lead">${texts.lead}</p>
${bodiesNav(context.base, bodies)}${release ? releaseNote(context, release, frozen, bodies.body) : ''}${cite ?? ''}<form id="filters" class="filters" role="search" aria-label="Filter the catalogue">
<div class="search"><label for="q">Search places by name or code</label><input id="q" name="q" type="search" placeholder="${texts.example}" autocomplete="off" spellcheck="false" aria-describedby="q-hint"><p id="q-hint" class="hint">${texts.hint}</p></div>
${select('f-body', 'body', 'Body', options(manifests.map((m) => m.body)))}
${select(
  'f-status',
  'status',
  'Status',
  options(
    manifests.map((m) => m.status),
    STATUS_LABELS,
  ),
)}
${select('f-license', 'license', 'Licence', options(manifests.flatMap(manifestLicenses)))}
${select('f-level', 'level', 'Level', options(manifests.flatMap(manifestLevels)))}
<div><button type="reset">Clear</button></div>
</form>
${searchResults()}${world ? worldFigure(world, bodies.body) : ''}<p id="count" class="count" role="status" aria-live="polite">${formatInt(manifests.length)} entries</p>
<div class="table-scroll">
<table id="catalogue" class="catalogue stack" role="table">
<caption class="visually-hidden">${texts.caption}; column buttons sort the table</caption>
<thead role="rowgroup"><tr role="row">${sortable('Name', 'name', true)}${sortable('ISO3', 'iso3')}<th scope="col" role="columnheader">ISO2</th>${sortable('Body', 'body')}${sortable('Region', 'region')}${sortable('Status', 'status')}${sortable('Levels', 'levels')}<th scope="col" role="columnheader">Licence</th></tr></thead>
<tbody role="rowgroup">
${manifests.map((m) => row(context, m))}</tbody>
</table>
</div>
${worldFiles}`;
  return renderPage(context, {
    title: texts.heading,
    description: texts.description,
    head: markup`<noscript><style>#filters { display: none; }</style></noscript>
`, // the form needs the script
    main,
  });
}

/**
 * Says which release this catalogue is, or that it has changes not yet
 * released. In a release's copy another body's page says only that it is
 * one and links its front page, which names it: so the page is the same
 * file from one release to the next, and a release that changes no
 * quadrangle shares the body's folder with the release before.
 */
function releaseNote(
  context: PageContext,
  release: ApiReleaseStatus,
  frozen: boolean,
  body: Body,
): Html | string {
  if (frozen && body !== 'earth') {
    return markup`<p id="release" class="release">This page belongs to <a href="${context.base}">a release</a>, whose files never change.</p>
`;
  }
  if (frozen) {
    return markup`<p id="release" class="release">This is release <strong>${release.release}</strong>; its files never change.</p>
`;
  }
  const all = markup`<a href="${context.base}api/releases.json">every release</a>`;
  if (release.release !== null) {
    const changed = markup`<a href="${context.base}releases-changes/${release.release}/">what changed</a>`;
    return markup`<p id="release" class="release">This is release <strong>${release.release}</strong>; its files never change (${changed}, ${all}).</p>
`;
  }
  if (release.latest === null) return '';
  return markup`<p id="release" class="release">This catalogue has changes not yet released; the last release is <a href="${context.base}releases/${release.latest}/">${release.latest}</a> (${all}).</p>
`;
}
