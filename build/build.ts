// Wires `geoshelf build` together, holding the root's lock: read the release
// ledger → (when nothing changed since the last build into the same folder,
// keep dist/: build/output/fingerprint.ts) → validate every manifest → the
// releases' files and API (build/release/publish.ts) → plan the catalogue
// (build/catalogue/plan.ts) → write dist/ atomically (build/output/write-dist.ts).
// It computes and writes; printing and exit codes belong to src/cli/commands/build.ts.
import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import {
  joinWork,
  planAcross,
  planCountries,
  type CatalogueInput,
  type CataloguePlan,
  type CountryWork,
} from './catalogue/plan.ts';
import { saveCacheFile } from './core/cache.ts';
import { UsageError, UserError } from './core/errors.ts';
import { withLock } from './core/lock.ts';
import { hasErrors, type Problem } from './core/problem.ts';
import type { ApiReleaseStatus } from './core/shared/api.ts';
import { GeometryChecker } from './geometry/cache.ts';
import { NestingChecker } from './identity/nesting-cache.ts';
import { currentLevelFiles, unitIdsOf } from './identity/unit-ids.ts';
import { findManifests } from './manifest/load.ts';
import { compareManifests } from './manifest/summary.ts';
import { PreviewChecker } from './manifest/preview-cache.ts';
import { validateManifests, type CheckedManifestFile, type ValidateOptions } from './manifest/validate.ts';
import { CoverageChecker } from './coverage/cache.ts';
import { MeasurementCache } from './measure/cache.ts';
import { loadBuildCache, type BuildCache } from './output/build-cache.ts';
import { distUnchanged, inputFingerprint } from './output/fingerprint.ts';
import { writeDist, type WriteStats } from './output/write-dist.ts';
import { releasedFiles } from './release/files.ts';
import { readLedger, type Ledger } from './release/ledger.ts';
import { ledgerFingerprint, publishReleases, releaseBaseProblems, releaseStatus } from './release/publish.ts';
import { normaliseBase } from './site/pages/html.ts';

export interface BuildOptions {
  root: string; // folder holding data/{body}/{ISO3}/manifest.json
  out: string; // e.g. "dist", replaced in one swap
  base?: string; // URL path the site lives under, default "/"
  siteUrl?: string; // e.g. "https://boundaries.example.org", for absolute sitemap URLs
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

/**
 * Refuses an `out` that would destroy something: the root itself, a folder
 * holding it, one inside its data/ (a merge has no root), or an existing
 * folder that is not a previous build (no api/v1/index.json) and not empty.
 */
export async function checkOut(root: string | undefined, out: string): Promise<void> {
  const within = (child: string, parent: string) => child === parent || child.startsWith(parent + sep);
  if (root !== undefined && within(root, out))
    throw new UsageError(`--out ${out}: would replace the root ${root}`);
  if (root !== undefined && within(out, join(root, 'data')))
    throw new UsageError(`--out ${out}: is inside the data folder`);
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
 * Builds the catalogue of `options.root` into `options.out`, holding the
 * root's lock. Returns the problems (and writes nothing) when a manifest
 * does not validate or the ledger is damaged; else replaces `out` with the
 * new site in one swap and returns what it did.
 */
export async function buildCatalogue(options: BuildOptions): Promise<BuildResult> {
  const root = resolve(options.root);
  return await withLock(root, 'build', () => build(root, options));
}

async function build(root: string, options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const progress = options.onProgress ?? (() => {});
  const out = resolve(options.out);
  const base = checkedBase(options);
  await checkOut(root, out);
  const ledger = readLedger(root);
  if (ledger.problems.length) return { ok: false, problems: [...ledger.warnings, ...ledger.problems] };
  const releases = ledger.releases.length ? ledger : undefined; // no release made yet: nothing to publish
  const wrongBase = releases ? releaseBaseProblems(releases, base) : [];
  if (wrongBase.length) return { ok: false, problems: wrongBase };

  const buildCache = await loadBuildCache(root);
  const cache = buildCache.data;
  const fingerprint = await inputFingerprint(root, await findManifests(root).catch(() => []), {
    out,
    base,
    siteUrl: options.siteUrl ?? null,
    tiles: options.tiles !== false,
    ledger: releases ? ledgerFingerprint(releases) : null,
  });
  if (cache.fingerprint === fingerprint && cache.summary && distUnchanged(root, out, cache)) {
    return keptResult(options, cache.summary, ledger.warnings, started);
  }

  const measurer = MeasurementCache.forRoot(root);
  progress('validating manifests');
  const validated = await validateWithCaches(root, measurer);
  if (!validated.ok || hasErrors(validated.problems)) return { ok: false, problems: validated.problems };
  const loaded = [...validated.manifests].sort((a, b) => compareManifests(a.manifest, b.manifest));

  const planned = await planBuild({
    root,
    base,
    siteUrl: options.siteUrl,
    releases,
    manifests: loaded,
    geometry: validated.geometry,
    coverage: validated.coverage,
    measurer,
    tiles: options.tiles !== false,
    onProgress: progress,
  });
  const plan = planned.plan;
  const write = await writeDist(root, out, plan, cache, (done, total) =>
    progress('writing files', done, total),
  );
  const datasets = loaded.reduce((n, l) => n + l.manifest.datasets.length, 0);
  cache.fingerprint = fingerprint;
  cache.summary = { manifests: loaded.length, datasets, files: write.files, bytes: write.bytes };
  cache.sources = sourceStamps(loaded);
  await saveCacheFile(buildCache);
  const read = measurer.stats;
  return {
    ok: true,
    out: options.out.replace(/\/+$/, ''),
    manifests: loaded.length,
    datasets,
    ms: performance.now() - started,
    geojsonFilesRead: read.filesMeasured + planned.filesRead,
    geojsonBytesRead: read.bytesRead + planned.bytesRead + write.dataBytesCopied,
    write,
    warnings: [...ledger.warnings, ...validated.problems],
    conversionWarnings: planned.conversionWarnings,
  };
}

/** What planBuild needs: the checked manifests and what validated them, and the ledger when it has releases. */
export type BuildPlanInput = Omit<CatalogueInput, 'release' | 'frozen' | 'unitIds' | 'feeds'> & {
  releases: Ledger | undefined;
};

/**
 * Returns the plan of dist/: the releases' files and API (when the ledger
 * has releases) and the catalogue of `input.manifests`, made across
 * countries from `work`, their per-country work: made here when not given
 * (a single build), the shards' when merging them (build/shard/merge.ts).
 * Both come here, so a merge plans what a single build plans.
 */
export async function planBuild(input: BuildPlanInput, work?: CountryWork[]): Promise<CataloguePlan> {
  const { releases, ...rest } = input;
  const released = releases
    ? await publishReleased(input.root, input.base, releases, input.manifests, input.siteUrl)
    : undefined;
  const catalogue: CatalogueInput = {
    ...rest,
    release: released?.status,
    frozen: false,
    unitIds: released?.unitIds,
    feeds: released?.published.feeds,
  };
  const pieces = work ?? [await planCountries(catalogue)];
  const planned = await planAcross(catalogue, joinWork(input.manifests, pieces));
  for (const [path, text] of released?.published.generated ?? []) planned.plan.generated.set(path, text);
  planned.plan.stored = released?.published.stored;
  return planned;
}

/** Returns `--base` normalised (e.g. "/boundaries/"), after checking `--site-url` is an origin. */
export function checkedBase(options: Pick<BuildOptions, 'base' | 'siteUrl'>): string {
  let base: string;
  try {
    base = normaliseBase(options.base ?? '/');
  } catch (error) {
    throw new UsageError(`--base: ${(error as Error).message}`);
  }
  if (options.siteUrl !== undefined && !/^https?:\/\/[^/?#\s]+\/?$/.test(options.siteUrl)) {
    throw new UsageError(`--site-url: expected an origin like https://example.org, got "${options.siteUrl}"`);
  }
  return base;
}

/** Returns the result of a build that kept dist/ as it was: nothing changed since the last one. */
function keptResult(
  options: BuildOptions,
  summary: NonNullable<BuildCache['summary']>,
  warnings: Problem[],
  started: number,
): BuildResult {
  const { manifests, datasets, files, bytes } = summary;
  const write = { files, bytes, written: 0, reused: files, dataBytesCopied: 0, swapped: false };
  return {
    ok: true,
    out: options.out.replace(/\/+$/, ''),
    manifests,
    datasets,
    ms: performance.now() - started,
    geojsonFilesRead: 0,
    geojsonBytesRead: 0,
    write,
    warnings,
    conversionWarnings: [],
  };
}

/**
 * Validates every manifest of `root` with the checks' answer caches, and
 * saves the caches when the manifests pass: a refused build writes nothing,
 * not even its caches, so the root is left as it was.
 */
export async function validateWithCaches(
  root: string,
  measurer: MeasurementCache,
  shard?: ValidateOptions['shard'],
) {
  const geometry = GeometryChecker.forRoot(root);
  const nesting = NestingChecker.forRoot(root);
  const previews = PreviewChecker.forRoot(root);
  const coverage = CoverageChecker.forRoot(root);
  const validated = await validateManifests(root, { measurer, geometry, nesting, previews, coverage, shard });
  if (!validated.ok || hasErrors(validated.problems)) return validated;
  await measurer.save();
  await geometry.save();
  await nesting.save();
  await previews.save();
  await coverage.save();
  return validated;
}

/**
 * Publishes the ledger's releases (their files and API) and returns, for the
 * catalogue's plan, the release status of the current files, what was
 * published and the latest release's unit ids.
 */
async function publishReleased(
  root: string,
  base: string,
  releases: Ledger,
  loaded: CheckedManifestFile[],
  origin: string | undefined,
) {
  const status: ApiReleaseStatus = releaseStatus(releases, releasedFiles(loaded));
  const published = await publishReleases(root, base, releases, status, origin);
  return { status, published, unitIds: latestUnitIds(releases, loaded) };
}

/** Returns the latest release's unit IDs of the files of `loaded` that it released as they are now. */
export function latestUnitIds(releases: Ledger, loaded: CheckedManifestFile[]) {
  const latest = releases.releases.at(-1)!.record;
  return unitIdsOf(latest.version, latest.levels, currentLevelFiles(loaded.map((l) => l.manifest)));
}

/** Returns each built source file's stamp and sha256 (not the manifests themselves), for the next build's fingerprint. */
function sourceStamps(loaded: CheckedManifestFile[]): BuildCache['sources'] {
  const sources: BuildCache['sources'] = {};
  for (const m of loaded) {
    for (const f of m.files) {
      const stamp = m.stamps.get(f.path);
      if (stamp && f.path !== m.file) sources[f.path] = { ...stamp, sha256: f.sha256 };
    }
  }
  return sources;
}
