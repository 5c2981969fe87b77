// Wires the catalogue build together: validate every manifest → draw maps →
// bundle the client → render pages and JSON API → add every recorded release
// (build/release/publish.ts) → write dist/ atomically
// (or, when nothing changed since the last build, keep dist/: build/publish/fingerprint.ts).
// It computes and writes; printing and exit codes belong to src/cli/commands/build.ts.
import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { UsageError, UserError } from './core/errors.ts';
import { loadBuildCache, saveCache } from './publish/build-cache.ts';
import { distUnchanged, inputFingerprint } from './publish/fingerprint.ts';
import { listFiles, PACKAGE_DIR } from './core/files.ts';
import { clientBundle } from './site/client-bundle.ts';
import { MeasurementCache } from './measure/cache.ts';
import { GeometryChecker } from './geometry/cache.ts';
import { NestingChecker } from './identity/nesting-cache.ts';
import { normaliseBase } from './site/pages/html.ts';
import { compareManifests } from './manifest/summary.ts';
import { readAtlas } from './site/atlas.ts';
import { countryPlanes } from './site/map-planes.ts';
import { countryTiles, nameTiles, noCountryTiles } from './tiles/country-tiles.ts';
import { worldTiles } from './tiles/world-tiles.ts';
import { WORLD_TITLE, worldMap } from './site/world-map.ts';
import { renderSite } from './site/site.ts';
import { openSearchCache } from './site/search-cache.ts';
import { hasErrors, type Problem } from './core/problem.ts';
import { validateManifests, type LoadedManifest, type Validation } from './manifest/validate.ts';
import { writeDist, type SiteWriter, type WriteStats } from './publish/write-dist.ts';
import { prepareDownloads } from './formats/downloads.ts';
import type { ApiReleaseStatus } from '../src/shared/api.ts';
import { releasedFiles } from './release/files.ts';
import { readLedger } from './release/ledger.ts';
import { currentLevelFiles, unitIdsOf, type UnitIds } from './identity/unit-ids.ts';
import { changesPage, renderChangesPage } from './site/pages/changes-page.ts';
import {
  ledgerFingerprint,
  publishReleases,
  releaseBaseProblems,
  releaseStatus,
  type PublishedReleases,
} from './release/publish.ts';

export type BuildOptions = BuildCommon &
  (
    | { out: string; writeSite?: undefined } // e.g. "dist", replaced in one swap
    | { out?: undefined; writeSite: SiteWriter }
  );

export interface BuildCommon {
  root: string; // folder holding data/{body}/{ISO3}/manifest.json
  base?: string; // URL path the site lives under, default "/"
  siteUrl?: string; // e.g. "https://boundaries.example.org", for absolute sitemap URLs
  /**
   * Publish the release ledger (data/releases/): each release under
   * releases/VERSION/ and api/releases.json. Default true; false when
   * `release` builds the frozen copy of a release (which is `releaseOf`).
   */
  releases?: boolean;
  releaseOf?: string; // the version this build is the frozen copy of, e.g. "2026.11"
  unitIds?: UnitIds; // with releaseOf: the IDs that release gives its units
  /**
   * With releaseOf: what `release` found validating this root a moment ago,
   * and the measurer it used (saved by the caller), so the release's
   * catalogue is built without validating again. `build` always validates.
   */
  validated?: Validation & { measurer: MeasurementCache };
  onProgress?: (stage: string, done?: number, total?: number) => void;
  tiles?: boolean; // false: no map tiles (pages keep their pictures); bench:tiles's baseline
}

export type BuildResult =
  | { ok: false; problems: Problem[] }
  | {
      ok: true;
      out: string;
      manifests: number;
      datasets: number;
      ms: number;
      /** GeoJSON files read in this run: measured (cache misses) + drawn as maps; bytes include copies. */
      geojsonFilesRead: number;
      geojsonBytesRead: number;
      write: WriteStats;
      warnings: Problem[]; // e.g. invalid geometry under the OGC rules: published, but said
      /** What a download leaves out of its source (e.g. TopoJSON drops z); validate cannot list these. */
      conversionWarnings: Problem[];
    };

/** Returns the files of public/ (e.g. "schema/manifest.v1.json"), published as they are. */
async function publicFiles(): Promise<Map<string, Buffer>> {
  const dir = join(PACKAGE_DIR, 'public');
  const files = new Map<string, Buffer>();
  if (!existsSync(dir)) return files;
  for (const file of await listFiles(dir)) files.set(file, await readFile(join(dir, file)));
  return files;
}

/** Returns every data file a manifest publishes, e.g. its own file, datasets, previews and parts. */
function dataFiles(loaded: LoadedManifest[]): string[] {
  const paths = new Set<string>();
  for (const { manifest } of loaded) {
    for (const d of manifest.datasets) {
      if (d.path) paths.add(d.path);
      if (d.preview) paths.add(d.preview);
      for (const part of d.parts ?? []) paths.add(part.path);
    }
  }
  return [...paths].sort();
}

/**
 * Refuses an `out` that would destroy something: the root itself, a folder
 * holding it, one inside its data/, or an existing folder that is not a
 * previous build (no api/v1/index.json) and not empty.
 */
async function checkOut(root: string, out: string): Promise<void> {
  const within = (child: string, parent: string) => child === parent || child.startsWith(parent + sep);
  if (within(root, out)) throw new UsageError(`--out ${out}: would replace the root ${root}`);
  if (within(out, join(root, 'data'))) throw new UsageError(`--out ${out}: is inside the data folder`);
  const info = await stat(out).catch(() => undefined);
  if (!info) return;
  if (!info.isDirectory()) throw new UserError(`--out ${out}: exists and is not a folder`);
  if (existsSync(join(out, 'api', 'v1', 'index.json'))) return;
  if ((await readdir(out)).length > 0) {
    throw new UserError(
      `--out ${out}: exists, is not empty and is not a geoshelf build; refusing to replace it`,
    );
  }
}

/**
 * Builds the catalogue of `options.root` into `options.out`. Returns the
 * problems (and writes nothing) when a manifest does not validate; else
 * replaces `out` with the new site in one swap and returns what it did.
 */
export async function buildCatalogue(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const progress = options.onProgress ?? (() => {});
  const root = resolve(options.root);
  const out = options.out === undefined ? undefined : resolve(options.out);
  let base: string;
  try {
    base = normaliseBase(options.base ?? '/');
  } catch (error) {
    throw new UsageError(`--base: ${(error as Error).message}`);
  }
  if (options.siteUrl !== undefined && !/^https?:\/\/[^/?#\s]+\/?$/.test(options.siteUrl)) {
    throw new UsageError(`--site-url: expected an origin like https://example.org, got "${options.siteUrl}"`);
  }
  if (out !== undefined) await checkOut(root, out);
  const ledger = options.releases === false ? undefined : readLedger(root);
  if (ledger?.problems.length) return { ok: false, problems: ledger.problems };
  const releases = ledger?.releases.length ? ledger : undefined; // no release made yet: nothing to publish
  const wrongBase = releases ? releaseBaseProblems(releases, base) : [];
  if (wrongBase.length) return { ok: false, problems: wrongBase };

  const buildCache = await loadBuildCache(root);
  const cache = buildCache.data;
  // Only a build into `out` can be found unchanged (writeSite: `release` stores what it builds).
  const fingerprint =
    out === undefined
      ? undefined
      : await inputFingerprint(root, {
          out,
          base,
          siteUrl: options.siteUrl ?? null,
          tiles: options.tiles !== false,
          ledger: releases ? ledgerFingerprint(releases) : null,
          releaseOf: options.releaseOf ?? null,
          unitIds: options.unitIds ? [options.unitIds.release, [...options.unitIds.files]] : null,
        });
  const unchanged =
    out !== undefined &&
    cache.fingerprint === fingerprint &&
    cache.summary &&
    distUnchanged(root, out, cache);
  if (unchanged && cache.summary) {
    const { manifests, datasets, files, bytes } = cache.summary;
    const write = { files, bytes, written: 0, reused: files, dataBytesCopied: 0, swapped: false };
    const ms = performance.now() - started;
    return {
      ok: true,
      out: options.out ?? '',
      manifests,
      datasets,
      ms,
      geojsonFilesRead: 0,
      geojsonBytesRead: 0,
      write,
      warnings: [],
      conversionWarnings: [],
    };
  }

  const measurer = options.validated?.measurer ?? MeasurementCache.forRoot(root);
  const earlier = { ...measurer.stats }; // a given measurer's reads before this build are not its own
  const checker = options.validated ? undefined : GeometryChecker.forRoot(root);
  const nesting = options.validated ? undefined : NestingChecker.forRoot(root);
  if (!options.validated) progress('validating manifests');
  const { manifests, problems, geometry } =
    options.validated ?? (await validateManifests(root, { measurer, geometry: checker, nesting }));
  if (hasErrors(problems)) return { ok: false, problems };
  const loaded = [...manifests].sort((a, b) => compareManifests(a.manifest, b.manifest));

  let release: ApiReleaseStatus | undefined;
  let published: PublishedReleases | undefined;
  let unitIds: UnitIds | undefined;
  if (options.releaseOf !== undefined) {
    release = { release: options.releaseOf, latest: options.releaseOf, unreleased_changes: false };
    unitIds = options.unitIds;
  } else if (releases) {
    release = releaseStatus(releases, await releasedFiles(root, loaded));
    published = await publishReleases(root, base, releases, release);
    const latest = releases.releases.at(-1)!.record;
    unitIds = unitIdsOf(latest.version, latest.levels, currentLevelFiles(loaded.map((l) => l.manifest)));
  }

  // The tiles are cut on their own thread (build/tiles/cut-level.ts) while
  // this one converts downloads and draws the atlas; both need only the planes.
  const planes = await countryPlanes(root, loaded);
  const cutting =
    options.tiles === false ? Promise.resolve(noCountryTiles()) : countryTiles(root, base, loaded, planes);
  cutting.catch(() => {}); // awaited below; this only keeps a failure meanwhile from counting as unhandled
  progress('converting downloads');
  const downloads = await prepareDownloads(
    root,
    loaded,
    measurer,
    (done, total) => progress('converting downloads', done, total),
    unitIds,
  );
  progress('reading units and drawing maps');
  const drawn = await readAtlas(root, loaded, planes, unitIds);
  progress('cutting map tiles');
  const tiles = await cutting;
  nameTiles(
    tiles,
    (file, level) => drawn.atlas.get(file)?.levels.find((l) => l.level === level)?.units.length,
  );
  const world = await worldMap(root, base, loaded);
  const globe = world && options.tiles !== false ? await worldTiles(root, base, world) : undefined;
  if (globe) {
    tiles.files.set(...globe.file);
    tiles.filesRead += globe.filesRead;
    tiles.bytesRead += globe.bytesRead;
  }
  for (const [file, levels] of tiles.byManifest) {
    const atlas = drawn.atlas.get(file);
    if (atlas) atlas.tiles = levels;
  }
  for (const [file, levels] of tiles.untiled) {
    const atlas = drawn.atlas.get(file);
    if (atlas) atlas.untiled = levels;
  }
  const bundle = await clientBundle();
  const searchCache = openSearchCache(root);
  progress('rendering pages');
  const site = renderSite(
    {
      base,
      script: bundle.script,
      styles: bundle.styles,
      siteUrl: options.siteUrl,
      release,
      frozen: options.releaseOf !== undefined,
    },
    loaded,
    {
      atlas: drawn.atlas,
      downloads: downloads.byManifest,
      geometry,
      unitIds,
      feeds: published?.feeds,
      world: world && { svg: world.svg, title: WORLD_TITLE, tiles: globe?.info },
      searchCache,
    },
  );
  const generated = new Map<string, string | Buffer>([
    ...(await publicFiles()),
    ...bundle.files,
    ...site,
    ...tiles.files,
  ]);
  for (const { file, text } of loaded) generated.set(file, text); // manifests are published verbatim
  for (const [path, text] of published?.generated ?? []) generated.set(path, text);
  const context = { base, script: bundle.script, styles: bundle.styles };
  for (const feed of published?.feeds ?? [])
    generated.set(changesPage(feed.version), renderChangesPage(context, feed));
  const built = new Map([...downloads.files, ...tiles.built, ...(published?.built ?? [])]);

  const plan = { generated, data: dataFiles(loaded), built };
  const write =
    out === undefined
      ? await options.writeSite!(plan)
      : await writeDist(root, out, plan, cache, (done, total) => progress('writing files', done, total));
  const datasets = loaded.reduce((n, l) => n + l.manifest.datasets.length, 0);
  if (out !== undefined) {
    cache.fingerprint = fingerprint;
    cache.summary = { manifests: loaded.length, datasets, files: write.files, bytes: write.bytes };
  }
  if (!options.validated) await measurer.save();
  await checker?.save();
  await nesting?.save();
  await searchCache.save();
  await saveCache(buildCache);
  const ms = performance.now() - started;
  const read = measurer.stats;
  return {
    ok: true,
    out: options.out?.replace(/\/+$/, '') ?? '',
    manifests: loaded.length,
    datasets,
    ms,
    geojsonFilesRead: read.filesMeasured - earlier.filesMeasured + drawn.filesRead + tiles.filesRead,
    geojsonBytesRead:
      read.bytesRead - earlier.bytesRead + drawn.bytesRead + tiles.bytesRead + write.dataBytesCopied,
    write,
    warnings: problems,
    conversionWarnings: downloads.warnings,
  };
}
