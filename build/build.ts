// Wires `geoshelf build` together, holding the root's lock: read the release
// ledger → (when nothing changed since the last build into the same folder,
// keep dist/: build/output/fingerprint.ts) → validate every manifest → the
// releases' files and API (build/release/publish.ts) → plan the catalogue
// (build/catalogue/plan.ts; these steps are shared with a sharded build:
// build/shard/steps.ts) → write dist/ atomically (build/output/write-dist.ts).
// It computes and writes; printing and exit codes belong to src/cli/commands/build.ts.
import { resolve } from 'node:path';
import { saveCacheFile } from './core/cache.ts';
import { withLock } from './core/lock.ts';
import { hasErrors, type Problem } from './core/problem.ts';
import { findManifests } from './manifest/load.ts';
import { compareManifests } from './manifest/summary.ts';
import type { CheckedManifestFile } from './manifest/validate.ts';
import { MeasurementCache } from './measure/cache.ts';
import { loadBuildCache, type BuildCache } from './output/build-cache.ts';
import { distUnchanged, inputFingerprint } from './output/fingerprint.ts';
import { writeDist } from './output/write-dist.ts';
import { readLedger } from './release/ledger.ts';
import { ledgerFingerprint, releaseBaseProblems } from './release/publish.ts';
import { checkedBase, checkOut, planBuild, validateWithCaches, type BuildResult } from './shard/steps.ts';

export type { BuildResult };

export interface BuildOptions {
  root: string; // folder holding data/{body}/{ISO3}/manifest.json
  out: string; // e.g. "dist", replaced in one swap
  base?: string; // URL path the site lives under, default "/"
  siteUrl?: string; // e.g. "https://boundaries.example.org", for absolute sitemap URLs
  onProgress?: (stage: string, done?: number, total?: number) => void;
  tiles?: boolean; // false: no map tiles (pages keep their pictures); bench:tiles's baseline
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
