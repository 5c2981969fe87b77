// Plans the catalogue of validated manifests: every file dist/ (or a
// release) will hold, without writing any. Per country (planCountries):
// planes → tiles (on their own thread) while downloads convert and the atlas
// reads units and draws maps. Across countries (planAcross): the world files
// (`build` only) → world map and tiles → client bundle → pages, JSON API,
// search → the plan. `build` writes the plan to dist/ (build/build.ts);
// `release` stores it in the ledger (build/release/release.ts); a sharded
// build makes the first part per shard and the second in its merge
// (build/shard/). It reads the data and the caches, and writes only caches.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReleaseFeed } from '../core/release-feed.ts';
import type { ApiReleaseStatus } from '../core/shared/api.ts';
import { listFiles, PACKAGE_DIR } from '../core/files.ts';
import type { Problem } from '../core/problem.ts';
import { prepareDownloads, type CountryDownloads } from '../formats/downloads.ts';
import { prepareWorldFiles, type WorldFiles } from '../formats/world-files.ts';
import type { UnitIds } from '../identity/unit-ids.ts';
import type { CheckedManifestFile, LoadedManifest, Validation } from '../manifest/validate.ts';
import type { MeasurementCache } from '../measure/cache.ts';
import type { BuiltFile, DistPlan } from '../output/write-dist.ts';
import { readAtlas, unitSources, type CountryAtlas } from '../site/atlas.ts';
import { sourceFacts, type FactsSource } from '../site/unit-files.ts';
import { clientBundle } from '../site/client-bundle.ts';
import { countryPlanes } from '../site/map-planes.ts';
import { changesPage, renderChangesPage } from '../site/pages/changes-page.ts';
import { openSearchCache } from '../site/search-cache.ts';
import { joinWork, type CountryWork } from './country-work.ts';
import { renderSearchIndex, type SearchCache } from '../site/search-index.ts';
import type { CountryRecords } from '../site/search-records.ts';
import { renderCountryFiles, renderSite } from '../site/site.ts';
import { geojsonCopies } from '../site/datapackage.ts';
import { bodyTitle, WORLD_TITLE, worldMap } from '../site/world-map.ts';
import type { WorldFigure } from '../site/pages/index-page.ts';
import type { Body } from '../core/shared/manifest.ts';
import { countryTiles, nameTiles, noCountryTiles, type CountryTiles } from '../tiles/country-tiles.ts';
import { mercatorStyles, styleFile } from '../tiles/mercator-style.ts';
import { worldTiles, type WorldTiles } from '../tiles/world-tiles.ts';

/** The bodies besides Earth that get an index page of their own when the catalogue has any of theirs. */
const OTHER_BODIES: Body[] = ['moon', 'mars'];

/** What planning a catalogue needs: validated manifests and what the build or release adds. */
export interface CatalogueInput {
  root: string;
  base: string; // e.g. "/", or BASE_MARK for a release's stored copy
  siteUrl?: string; // e.g. "https://boundaries.example.org", for absolute sitemap URLs
  manifests: CheckedManifestFile[]; // sorted as the catalogue lists them (compareManifests)
  geometry: Validation['geometry']; // each checked file's geometry status, from validate
  coverage?: Validation['coverage']; // each checked level's coverage figures, from validate
  measurer: MeasurementCache; // the one validate used: its measurements are known
  release?: ApiReleaseStatus; // which release the catalogue is, or that it has unreleased changes
  frozen: boolean; // a release's own copy (releases/VERSION/), not the root
  releaseDate?: string; // a release's copy: the day it is recorded, for its citation
  unitIds?: UnitIds;
  feeds?: ReleaseFeed[]; // newest first: each release's "What changed" page and the histories
  tiles: boolean; // false: no map tiles (pages keep their pictures); bench:tiles's baseline
  onProgress: (stage: string, done?: number, total?: number) => void;
}

/** The plan, and what making it read. */
export interface CataloguePlan {
  plan: DistPlan;
  filesRead: number; // GeoJSON files read to draw maps and cut tiles
  bytesRead: number;
  /** What a download leaves out of its source (e.g. TopoJSON drops z); validate cannot list these. */
  conversionWarnings: Problem[];
}

/** Returns the files of public/ (e.g. "schema/manifest.v1.json"), published as they are. */
async function publicFiles(): Promise<Map<string, Buffer>> {
  const dir = join(PACKAGE_DIR, 'public');
  const files = new Map<string, Buffer>();
  if (!existsSync(dir)) return files;
  for (const file of await listFiles(dir)) files.set(file, await readFile(join(dir, file)));
  return files;
}

/** Returns every data file a manifest publishes (its datasets, previews and parts) with its measured sha256, by path. */
function dataFiles(manifests: CheckedManifestFile[]): Map<string, string> {
  const files = new Map<string, string>();
  for (const m of manifests) for (const f of m.files) if (f.path !== m.file) files.set(f.path, f.sha256);
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Returns the data files each country's downloads folder holds again (its Data Package's GeoJSON): dist path → source. */
function dataCopies(manifests: CheckedManifestFile[], byManifest: Map<string, CountryDownloads>) {
  return new Map(
    manifests.flatMap(({ file, manifest }) => {
      const dl = byManifest.get(file);
      return dl ? [...geojsonCopies(manifest, dl)] : [];
    }),
  );
}

/** Returns the files whose features are units (unitSources, but never a preview), with their sha256 and body. */
function factsSources(manifests: CheckedManifestFile[]): FactsSource[] {
  const sources: FactsSource[] = [];
  for (const { manifest: m, files } of manifests) {
    const sha = new Map(files.map((f) => [f.path, f.sha256]));
    for (const d of m.datasets) {
      for (const path of unitSources(d)) {
        const sha256 = sha.get(path);
        if (path !== d.preview && sha256) sources.push({ path, sha256, body: m.body });
      }
    }
  }
  return sources;
}

/**
 * Returns the atlas (units and maps) of every manifest, its units with their
 * facts, and the units' own files (`facts.built`).
 */
async function readUnits(
  root: string,
  loaded: CheckedManifestFile[],
  planes: Parameters<typeof readAtlas>[2],
  unitIds: UnitIds | undefined,
) {
  const facts = {
    sources: await sourceFacts(root, factsSources(loaded)),
    built: new Map<string, BuiltFile>(),
  };
  return { drawn: await readAtlas(root, loaded, planes, unitIds, facts), facts };
}

/**
 * Returns the map of each other body the catalogue has manifests of, its
 * units named by the atlas's permalinks (no tiles: a scheme of boxes needs
 * none); an empty picture when nothing of it can be drawn.
 */
async function bodyMaps(
  root: string,
  base: string,
  loaded: CheckedManifestFile[],
  atlas: Map<string, CountryAtlas>,
): Promise<Map<Body, WorldFigure>> {
  const anchors = (file: string, level: string) =>
    atlas
      .get(file)
      ?.levels.find((l) => l.level === level)
      ?.units.map((u) => u.id);
  const bodies = new Map<Body, WorldFigure>();
  for (const body of OTHER_BODIES) {
    if (!loaded.some((l) => l.manifest.body === body)) continue;
    const map = await worldMap(root, base, loaded, body, anchors);
    bodies.set(body, { svg: map?.svg ?? '', title: bodyTitle(body) });
  }
  return bodies;
}

/** Returns the named fields of `from`. */
function pick<T, K extends keyof T>(from: T, ...keys: K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((k) => [k, from[k]])) as Pick<T, K>;
}

/** Gives each country's atlas its levels' tiles, the levels too large for them, and its Web Mercator styles. */
function attachTiles(atlases: Map<string, CountryAtlas>, tiles: CountryTiles): void {
  for (const [file, levels] of tiles.byManifest) {
    const atlas = atlases.get(file);
    if (atlas) atlas.tiles = levels;
  }
  for (const [file, levels] of tiles.mercator) {
    const atlas = atlases.get(file);
    if (atlas)
      atlas.webMaps = Object.fromEntries(
        Object.entries(levels).map(([l, t]) => [
          l,
          { archive: t.path, style: styleFile(t.path), maxzoom: t.maxzoom },
        ]),
      );
  }
  for (const [file, levels] of tiles.untiled) {
    const atlas = atlases.get(file);
    if (atlas) atlas.untiled = levels;
  }
}

/** Adds the world's archives to `tiles`; a release's copy gets no Web Mercator ones (withoutWebMaps). */
function addWorldTiles(tiles: CountryTiles, globe: WorldTiles | undefined, frozen: boolean): void {
  if (globe) {
    tiles.files.set(...globe.file);
    if (!frozen) tiles.files.set(...globe.mercator.file);
    tiles.filesRead += globe.filesRead;
    tiles.bytesRead += globe.bytesRead;
  }
  if (frozen) withoutWebMaps(tiles);
}

/**
 * Leaves a release's copy without Web Mercator archives and styles (so its
 * pages link none and it has no web-maps page): they are for putting the
 * current catalogue on other maps, and their tiles, gzip already, would go
 * into every release's ledger as they are (the sample's first release
 * 39.2 → 43.7 MB, 1.47× → 1.64× the data; issue 26's limit is 1.5×).
 */
function withoutWebMaps(tiles: CountryTiles): void {
  for (const path of [...tiles.built.keys()])
    if (path.endsWith('.mercator.pmtiles')) tiles.built.delete(path);
  tiles.mercator.clear();
}

/**
 * Returns the world files of the catalogue, or none for a release's copy:
 * they change with any country, so `build` publishes them at their one URL
 * and a release adds no world per version (docs/releases.md).
 */
async function worldFilesOf(input: CatalogueInput): Promise<WorldFiles | undefined> {
  if (input.frozen) return undefined;
  input.onProgress('writing world files');
  return await prepareWorldFiles(input.root, input.manifests, input.unitIds);
}

/** Returns the world map and its tiles, as a single build makes them. */
export async function worldWithTiles(root: string, base: string, loaded: LoadedManifest[], tiles: boolean) {
  const map = await worldMap(root, base, loaded);
  return { map, globe: map && tiles ? await worldTiles(root, base, map) : undefined };
}

/** Returns the per-country work of `input.manifests`: downloads, atlas and tiles (on their own thread). */
export async function planCountries(input: CatalogueInput): Promise<CountryWork> {
  const { root, base, manifests: loaded, unitIds, onProgress: progress } = input;
  // The tiles are cut on their own thread (build/tiles/cut-level.ts) while
  // this one converts downloads and draws the atlas; both need only the planes.
  const planes = await countryPlanes(root, loaded);
  const cutting = input.tiles
    ? countryTiles(root, base, loaded, planes, unitIds)
    : Promise.resolve(noCountryTiles());
  cutting.catch(() => {}); // awaited below; this only keeps a failure meanwhile from counting as unhandled
  progress('converting downloads');
  const downloads = await prepareDownloads(
    root,
    loaded,
    input.measurer,
    (done, total) => progress('converting downloads', done, total),
    unitIds,
  );
  progress('reading units and drawing maps');
  const { drawn, facts } = await readUnits(root, loaded, planes, unitIds);
  progress('cutting map tiles');
  const tiles = await cutting;
  return {
    downloads,
    atlas: drawn.atlas,
    unitFiles: facts.built,
    tiles,
    ...pick(drawn, 'filesRead', 'bytesRead'),
  };
}

/** Returns the plan of the catalogue of `input.manifests`: every file, generated, copied or built. */
export async function planCatalogue(input: CatalogueInput): Promise<CataloguePlan> {
  return await planAcross(input, joinWork(input.manifests, [await planCountries(input)]));
}

/**
 * Returns the files of dist/ that belong to the countries of `loaded` alone,
 * as `work` (theirs) made them: their data files, the data files their
 * downloads hold again, and what the work built (downloads, tiles, units'
 * files). A shard writes these (build/shard/shard.ts); the pages and API
 * documents are made across, from the shards' work.
 */
export function countryFiles(loaded: CheckedManifestFile[], work: CountryWork) {
  return {
    data: dataFiles(loaded),
    copies: dataCopies(loaded, work.downloads.byManifest),
    built: new Map([...work.downloads.files, ...work.tiles.built, ...work.unitFiles, ...(work.pages ?? [])]),
  };
}

/** Returns `cache` answering first from `records` (the shards' search records, made by the same code). */
function withRecords<C extends SearchCache>(cache: C, records: Map<string, CountryRecords> | undefined): C {
  return records ? { ...cache, get: (key: string) => records.get(key) ?? cache.get(key) } : cache;
}

/** Returns the number of units of each level in the atlas, as nameTiles takes it. */
function unitCounts(atlas: Map<string, CountryAtlas>) {
  return (file: string, level: string) =>
    atlas.get(file)?.levels.find((l) => l.level === level)?.units.length;
}

/** Returns the site's options: the base, the client bundle's entry files and what the input says. */
function siteOptions(input: CatalogueInput, bundle: { script: string; styles: string[] }) {
  return {
    base: input.base,
    script: bundle.script,
    styles: bundle.styles,
    ...pick(input, 'siteUrl', 'release', 'frozen', 'releaseDate'),
  };
}

/**
 * Returns the files that show one country of `input.manifests` alone (its
 * pages and API documents: renderCountryFiles), as planAcross renders them:
 * a shard of a sharded build (build/shard/) makes them for its countries.
 * Gives the atlas its tiles, as planAcross does, and notes the countries'
 * search records in `work.search`.
 */
export async function countryPages(input: CatalogueInput, work: CountryWork): Promise<Map<string, string>> {
  nameTiles(work.tiles, unitCounts(work.atlas));
  attachTiles(work.atlas, work.tiles);
  const options = siteOptions(input, await clientBundle());
  const facts = {
    atlas: work.atlas,
    downloads: work.downloads.byManifest,
    ...pick(input, 'geometry', 'coverage', 'unitIds', 'feeds'),
  };
  const files = new Map<string, string>();
  for (const entry of input.manifests) {
    const { pages, api } = renderCountryFiles(options, entry, facts);
    for (const [path, text] of [...pages, ...api]) files.set(path, text);
  }
  const search = new Map<string, CountryRecords>();
  renderSearchIndex(input.manifests, work.atlas, { get: () => undefined, set: (k, r) => search.set(k, r) });
  work.search = search;
  return files;
}

/**
 * Returns the plan of the catalogue of `input.manifests` from the work of
 * its countries (`work`, joinWork's): what spans countries is made here (the
 * world files, the world and body maps, the world tiles, the client bundle,
 * every page and API document, search, the sitemap) and every file is put
 * in the plan. It reads the data files and the caches under `input.root`.
 */
export async function planAcross(input: CatalogueInput, work: CountryWork): Promise<CataloguePlan> {
  const { root, base, manifests: loaded, onProgress: progress } = input;
  const { downloads, tiles, atlas } = work;
  const worldFiles = work.world ? work.world.files : await worldFilesOf(input);
  nameTiles(tiles, unitCounts(atlas));
  const { map: world, globe } = work.world
    ? { map: work.world.map ?? undefined, globe: work.world.globe ?? undefined }
    : await worldWithTiles(root, base, loaded, input.tiles);
  addWorldTiles(tiles, globe, input.frozen);
  attachTiles(atlas, tiles);
  const bundle = await clientBundle();
  const searchCache = withRecords(openSearchCache(root), work.search);
  progress('rendering pages');
  const site = renderSite(
    siteOptions(input, bundle),
    loaded,
    {
      atlas,
      downloads: downloads.byManifest,
      geometry: input.geometry,
      coverage: input.coverage,
      unitIds: input.unitIds,
      feeds: input.feeds,
      world: world && { svg: world.svg, title: WORLD_TITLE, tiles: globe?.info },
      bodies: await bodyMaps(root, base, loaded, atlas),
      searchCache,
      worldFiles: worldFiles?.files,
    },
    !work.pages, // else the shards made the countries' own files
  );
  await searchCache.save();
  const generated = new Map<string, string | Buffer>([
    ...(await publicFiles()),
    ...bundle.files,
    ...site,
    ...tiles.files,
  ]);
  for (const { file, text } of loaded) generated.set(file, text); // manifests are published verbatim
  const styles = mercatorStyles(loaded, tiles.mercator, input.frozen ? undefined : globe?.mercator.maxzoom);
  for (const [path, style] of styles) generated.set(path, style);
  const context = { base, script: bundle.script, styles: bundle.styles };
  for (const feed of input.feeds ?? [])
    generated.set(changesPage(feed.version), renderChangesPage(context, feed));
  const own = countryFiles(loaded, work);
  // By path: the units' files are found as levels finish, in no fixed order, and a release
  // stores (and packs) its files in the plan's order: the same tree must pack the same way.
  const built = new Map(
    [...own.built, ...(worldFiles?.built ?? [])].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  return {
    plan: { generated, data: own.data, built, copies: own.copies },
    filesRead: work.filesRead + tiles.filesRead,
    bytesRead: work.bytesRead + tiles.bytesRead,
    conversionWarnings: downloads.warnings,
  };
}
