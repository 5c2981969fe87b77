// The steps of `geoshelf build` that a single build (build/build.ts) and a
// sharded one (shard.ts, merge.ts) share, so that both check, validate and
// plan the same way: the output folder's and flags' checks, validation with
// the checks' caches, the release ledger's unit IDs, and the plan of dist/
// (the releases' files, then the catalogue across countries from their work).
import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { joinWork, type CountryWork } from '../catalogue/country-work.ts';
import { planAcross, planCountries, type CatalogueInput, type CataloguePlan } from '../catalogue/plan.ts';
import { UsageError, UserError } from '../core/errors.ts';
import { hasErrors, type Problem } from '../core/problem.ts';
import type { ApiReleaseStatus } from '../core/shared/api.ts';
import { CoverageChecker } from '../coverage/cache.ts';
import { GeometryChecker } from '../geometry/cache.ts';
import { NestingChecker } from '../identity/nesting-cache.ts';
import { currentLevelFiles, unitIdsOf } from '../identity/unit-ids.ts';
import { PreviewChecker } from '../manifest/preview-cache.ts';
import { validateManifests, type CheckedManifestFile, type ValidateOptions } from '../manifest/validate.ts';
import type { MeasurementCache } from '../measure/cache.ts';
import type { WriteStats } from '../output/write-dist.ts';
import { releasedFiles } from '../release/files.ts';
import type { Ledger } from '../release/ledger.ts';
import { publishReleases, releaseStatus } from '../release/publish.ts';
import { normaliseBase } from '../site/pages/html.ts';

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
export function checkedBase(options: { base?: string; siteUrl?: string }): string {
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
