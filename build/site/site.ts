// Renders every generated file of the site into memory: the index, one page
// per manifest, 404.html, robots.txt, sitemap.xml and the JSON API. Nothing
// here touches the disk; build/build.ts decides what to write.
import type { ApiReleaseStatus } from '../core/shared/api.ts';
import { renderApiCountry, renderApiIndex } from './api.ts';
import { renderUnitIdsFiles } from './api-unit-ids.ts';
import { countryHistory, historyPath } from './history.ts';
import type { ReleaseFeed } from '../core/release-feed.ts';
import type { UnitIds } from '../identity/unit-ids.ts';
import { escapeHtml } from '../core/escape-html.ts';
import { markup } from './pages/html.ts';
import { renderCountryPage, type CountryFacts } from './pages/country-page.ts';
import { renderIndexPage, worldPicture, type WorldFigure } from './pages/index-page.ts';
import { renderPage, type PageContext } from './pages/layout.ts';
import { bodyIndexPage, type IndexBodies } from './pages/bodies.ts';
import type { Body } from '../core/shared/manifest.ts';
import { countryApi, countryPage, fileUrl, WORLD_PICTURE } from '../core/dist-paths.ts';
import type { LoadedManifest } from '../manifest/validate.ts';
import type { CountryDownloads } from '../formats/downloads.ts';
import type { WorldFile } from '../formats/world-files.ts';
import { worldFilesSection } from './pages/world-files-section.ts';
import { checksums } from './pages/downloads.ts';
import { renderApiPage } from './api-page.ts';
import { renderWebMapsPage, WEB_MAPS_PAGE, webMapExample } from './web-maps-page.ts';
import { mapFile, separateMaps } from './atlas-page.ts';
import type { CountryAtlas } from './atlas.ts';
import { renderSearchIndex, type SearchCache } from './search-index.ts';
import { unitsPages } from './units-list.ts';
import { renderStac } from './stac.ts';
import { citeBlock, citedSources, renderBibtex, renderCff, type Citation } from './citation.ts';
import { downloadsFolder, folderFiles, renderDataPackage } from './datapackage.ts';
import { searchBox } from './search-box.ts';
import type { GeometryByFile } from './geometry-status.ts';
import type { CoverageByLevel } from './coverage-status.ts';

export interface SiteOptions extends PageContext {
  siteUrl?: string; // e.g. "https://boundaries.example.org"; makes sitemap URLs absolute
  release?: ApiReleaseStatus; // which release this catalogue is (absent: no release made yet)
  frozen?: boolean; // the copy of a release, published under releases/VERSION/
  releaseDate?: string; // a release's copy: the day it is recorded, e.g. "2026-12-01", for its citation
}

/** Returns what a release's copy cites (its version and the release URL are marks there), or undefined for the root. */
function releaseCitation(options: SiteOptions, loaded: readonly LoadedManifest[]): Citation | undefined {
  const version = options.release?.release;
  if (!options.frozen || !version || !options.releaseDate) return undefined;
  return {
    version,
    date: options.releaseDate,
    url: options.base,
    sources: citedSources(loaded.map((l) => l.manifest)),
  };
}

/** Returns the sitemap: absolute URLs with `siteUrl`, else paths from the base (see README). */
function renderSitemap(options: SiteOptions, pages: string[]): string {
  const origin = options.siteUrl ? options.siteUrl.replace(/\/+$/, '') : '';
  const base = /^https?:\/\//.test(options.base) ? options.base : `${origin}${options.base}`;
  const urls = pages.map((page) => `<url><loc>${escapeHtml(`${base}${page}`)}</loc></url>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

function renderRobots(options: SiteOptions): string {
  const absolute = /^https?:\/\//.test(options.base) || options.siteUrl;
  const sitemap = absolute
    ? `Sitemap: ${/^https?:\/\//.test(options.base) ? '' : options.siteUrl!.replace(/\/+$/, '')}${options.base}sitemap.xml\n`
    : '';
  return `User-agent: *\nAllow: /\n${sitemap}`;
}

function renderNotFound(context: PageContext): string {
  return renderPage(context, {
    title: 'Not found',
    description: 'This page does not exist in the boundary catalogue.',
    main: markup`<h1>Not found</h1>
<p>Nothing is published at this address. The country may be listed under another code: search the <a href="${context.base}">catalogue</a>, or read the <a href="${context.base}api/v1/index.json">JSON index</a>.</p>
${searchBox('Search the catalogue')}`,
  });
}

/** Adds a country's files to `files`: its page, its units' pages, its separate maps and its downloads' SHA256SUMS. */
function addCountryPages(
  files: Map<string, string>,
  context: PageContext,
  { file, manifest }: LoadedManifest,
  facts: CountryFacts,
): void {
  files.set(`${countryPage(manifest)}index.html`, renderCountryPage(context, file, manifest, facts));
  const atlas = facts.atlas ?? { levels: [] };
  for (const [path, html] of unitsPages(context, manifest, atlas)) files.set(path, html);
  for (const { level, svg } of separateMaps(atlas)) files.set(mapFile(manifest, level), svg);
  const dl = facts.downloads;
  if (dl) {
    const folder = folderFiles(manifest, dl);
    files.set(`${downloadsFolder(dl)}SHA256SUMS`, checksums(folder));
    files.set(`${downloadsFolder(dl)}datapackage.json`, renderDataPackage(manifest, folder));
  }
}

/**
 * Adds the index pages to `files`: the front page, listing the Earth's
 * manifests (every manifest when there is no other body), and each other
 * body's page with its map, each linking the others.
 */
function addIndexPages(
  files: Map<string, string>,
  context: PageContext,
  options: SiteOptions,
  loaded: LoadedManifest[],
  world: WorldFigure | undefined,
  bodyMaps: Map<Body, WorldFigure>,
  worldFiles: readonly WorldFile[],
): void {
  const of = (body: Body) => loaded.filter((l) => l.manifest.body === body).map((l) => l.manifest);
  const bodies: Body[] = ['earth', ...bodyMaps.keys()];
  const nav = (body: Body): IndexBodies => ({
    body,
    others: bodies.filter((b) => b !== body).map((b) => ({ body: b, count: of(b).length })),
  });
  const { release, frozen } = options;
  const earth = bodyMaps.size > 0 ? of('earth') : loaded.map((l) => l.manifest);
  const citation = releaseCitation(options, loaded);
  if (citation) {
    files.set('CITATION.cff', renderCff(citation));
    files.set('citation.bib', renderBibtex(citation));
  }
  const cite = citation && citeBlock(context.base, citation);
  // Without another body's page, the front page lists every body's world files, as it does every manifest.
  const worldOf = (body: Body) => worldFiles.filter((f) => f.body === body);
  const earthFiles = worldFilesSection(context.base, bodyMaps.size > 0 ? worldOf('earth') : worldFiles);
  files.set(
    'index.html',
    renderIndexPage(context, earth, release, frozen, world, nav('earth'), cite, earthFiles),
  );
  for (const [body, map] of bodyMaps) {
    const section = worldFilesSection(context.base, worldOf(body));
    const page = renderIndexPage(
      context,
      of(body),
      release,
      frozen,
      map.svg ? map : undefined,
      nav(body),
      undefined,
      section,
    );
    files.set(`${bodyIndexPage(body)}index.html`, page);
  }
}

/** What a country's own files are made of (renderSite's `facts`, but the ones across countries). */
export interface CountryFileFacts {
  atlas: Map<string, CountryAtlas>; // by manifest file
  downloads: Map<string, CountryDownloads>; // by manifest file
  geometry: GeometryByFile; // by data file
  coverage?: CoverageByLevel; // by level, e.g. "earth/CHL/ADM1"
  unitIds?: UnitIds; // the release IDs the units show
  feeds?: ReleaseFeed[]; // every release's changes, newest first: the countries' histories
}

/** Returns the base of the API's links: with --site-url, absolute (clients fetch them from anywhere). */
function apiBaseOf(options: SiteOptions): string {
  return options.siteUrl && !/^https?:\/\//.test(options.base)
    ? `${options.siteUrl.replace(/\/+$/, '')}${options.base}`
    : options.base;
}

/**
 * Returns the files of dist/ that show one country alone, in two parts (the
 * site lists them at two places): `pages`, its page, its units' pages, its
 * separate maps and its downloads' SHA256SUMS and Data Package; `api`, its
 * API document, unit IDs and history. A shard of a sharded build
 * (build/shard/) makes these for its countries; renderSite, for a single
 * build, for every country.
 */
export function renderCountryFiles(
  options: SiteOptions,
  entry: LoadedManifest,
  facts: CountryFileFacts,
): { pages: Map<string, string>; api: Map<string, string> } {
  const apiBase = apiBaseOf(options);
  const { manifest, file } = entry;
  const doc = countryHistory(apiBase, manifest, facts.feeds ?? []);
  const history = doc && { doc, path: historyPath(manifest) };
  const countryFacts: CountryFacts = {
    atlas: facts.atlas.get(file),
    downloads: facts.downloads.get(file),
    geometry: facts.geometry,
    coverage: facts.coverage,
    unitIds: facts.unitIds,
    ...(history ? { history: { doc: history.doc, url: fileUrl(options.base, history.path) } } : {}),
  };
  const context: PageContext = { base: options.base, script: options.script, styles: options.styles };
  const pages = new Map<string, string>();
  addCountryPages(pages, context, entry, countryFacts);
  const api = new Map<string, string>();
  api.set(countryApi(manifest), renderApiCountry(apiBase, entry, countryFacts));
  for (const [path, text] of renderUnitIdsFiles(apiBase, manifest, facts.unitIds)) api.set(path, text);
  if (history) api.set(history.path, `${JSON.stringify(history.doc)}\n`);
  return { pages, api };
}

/**
 * Returns every generated file of the site, keyed by its path inside dist/
 * (e.g. "earth/CHL/index.html" → HTML). `maps` holds the map of each manifest
 * that has one, keyed by manifest file; `geometry` the geometry counts of
 * each checked data file, keyed by path. `countries: false` leaves out the
 * files of renderCountryFiles (the shards of a sharded build made them).
 */
export function renderSite(
  options: SiteOptions,
  loaded: LoadedManifest[],
  facts: CountryFileFacts & {
    world?: WorldFigure; // the index's world map (world-map.ts)
    bodies?: Map<Body, WorldFigure>; // each other body's map, for its index page {body}/ (world-map.ts)
    searchCache?: SearchCache; // each country's search records from the last runs (search-cache.ts)
    worldFiles?: readonly WorldFile[]; // every level of every body in one file (none in a release's copy)
  },
  countries = true,
): Map<string, string> {
  const { atlas, downloads, geometry, world, searchCache } = facts;
  const worldFiles = facts.worldFiles ?? [];
  const bodyMaps = facts.bodies ?? new Map<Body, WorldFigure>();
  const apiBase = apiBaseOf(options);
  const own = new Map(
    loaded.map((entry) => [entry.file, countries ? renderCountryFiles(options, entry, facts) : undefined]),
  );
  const context: PageContext = { base: options.base, script: options.script, styles: options.styles };
  const files = new Map<string, string>();
  // A release's copy links its world picture rather than holding it: the page names its
  // release, so every release has its own, while the picture is the same file from one
  // release to the next until a country's outline changes (120 KB of 230 saved per release).
  const linked = options.frozen && world ? { ...world, file: fileUrl(options.base, WORLD_PICTURE) } : world;
  if (linked?.file) files.set(WORLD_PICTURE, worldPicture(linked.svg));
  addIndexPages(files, context, options, loaded, linked, bodyMaps, worldFiles);
  for (const entry of loaded)
    for (const [path, text] of own.get(entry.file)?.pages ?? []) files.set(path, text);
  files.set('404.html', renderNotFound(context));
  files.set('api/v1/index.json', renderApiIndex(apiBase, loaded, geometry, worldFiles));
  files.set('api/v1/index.html', renderApiPage(context, apiBase));
  const example = webMapExample(loaded, atlas);
  if (example)
    files.set(
      WEB_MAPS_PAGE,
      renderWebMapsPage(context, apiBase === options.base ? undefined : apiBase, example),
    );
  for (const entry of loaded)
    for (const [path, text] of own.get(entry.file)?.api ?? []) files.set(path, text);
  for (const [path, text] of renderSearchIndex(loaded, atlas, searchCache)) files.set(path, text);
  for (const [path, text] of renderStac(loaded, downloads ?? new Map())) files.set(path, text);
  // Crawlers read robots.txt and the sitemap it names at the host's root only, and
  // the root's are the current catalogue's: a release's copy would be read by nobody,
  // and its sitemap, naming the release's URL, was a new file in every release.
  if (options.frozen) return files;
  const bodyPages = [...bodyMaps.keys()].map(bodyIndexPage);
  files.set(
    'sitemap.xml',
    renderSitemap(options, ['', ...bodyPages, ...loaded.map((l) => countryPage(l.manifest))]),
  );
  files.set('robots.txt', renderRobots(options));
  return files;
}
