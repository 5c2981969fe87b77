// Stage of `geoshelf preview`: picks the datasets named (all by default),
// skips those whose inputs and options are unchanged since their last preview
// (a cache in <root>/.cache/geoshelf/previews.json, kept as build/core/cache.ts
// keeps every cache), writes each new preview
// beside its target, then records them in the manifest and moves them into
// place as one step that Ctrl-C cannot cut in half.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { tempPathBeside, writeFileAtomic } from '../core/atomic-write.ts';
import { readCacheFile, saveCacheFile } from '../core/cache.ts';
import { UsageError, UserError } from '../core/errors.ts';
import { cacheDir } from '../core/files.ts';
import { isObject } from '../core/json-value.ts';
import { withLock } from '../core/lock.ts';
import { problem, type Problem } from '../core/problem.ts';
import { uninterruptible } from '../core/uninterruptible.ts';
import { withFields } from '../manifest/key-order.ts';
import { findManifests, loadManifests, type LoadedManifest } from '../manifest/load.ts';
import type { Dataset, Simplification } from '../core/shared/manifest.ts';
import { writeManifest } from '../manifest/update.ts';
import { MeasurementCache } from '../measure/cache.ts';
import { METRES_PER_DEGREE } from '../core/shared/crs.ts';
import {
  makePreview,
  previewInputs,
  previewPath,
  type PreviewOptions,
  type PreviewResult,
} from './preview.ts';

interface CacheEntry {
  inputs: string[]; // sha256 of each input file
  options: string; // e.g. "visvalingam:2097152"
  preview_sha256: string;
  preview_bytes: number;
  simplification: Simplification;
}

interface Job {
  index: number; // the dataset's index in the manifest
  dataset: Dataset;
  preview: string; // e.g. "data/earth/ARG/preview/ARG_ADM1.preview.geojson"
  inputs: string[];
}

/** What happened to one preview: written (with how it was made) or skipped as unchanged. */
export type PreviewEvent =
  { preview: string; skipped: true } | ({ preview: string; skipped: false } & Omit<PreviewResult, 'text'>);

/**
 * Writes the previews of the datasets named by `selectors` ("CHL" or
 * "CHL/ADM1"; all when empty) under `root`, and records preview,
 * preview_bytes and simplification in their manifests. Returns one event per
 * dataset and the problems of those that failed (the others are still
 * written). Throws a UserError when a selector matches nothing, a selected
 * manifest does not load, or another command holds the root's lock.
 */
export async function writePreviews(
  root: string,
  selectors: string[],
  options: PreviewOptions & { force?: boolean },
): Promise<{ events: PreviewEvent[]; problems: Problem[] }> {
  return await withLock(root, 'preview', () => write(root, selectors, options));
}

async function write(
  root: string,
  selectors: string[],
  options: PreviewOptions & { force?: boolean },
): Promise<{ events: PreviewEvent[]; problems: Problem[] }> {
  const selected = await selectDatasets(root, selectors);
  const measurer = MeasurementCache.forRoot(root);
  const cacheFile = await readCacheFile(join(cacheDir(root), 'previews.json'), {}, isPreviewsCache);
  const cache = cacheFile.data;
  const optionsKey = `${options.method}:${options.maxBytes}`;
  const events: PreviewEvent[] = [];
  const problems: Problem[] = [];

  for (const { loaded, jobs } of selected) {
    const { body } = loaded.manifest;
    const perDegree = METRES_PER_DEGREE[body]; // tolerances are metres on the manifest's body
    // Earth's key as before bodies were told apart, so its previews stay current.
    const key = body === 'earth' ? optionsKey : `${optionsKey}:${body}`;
    const written: { job: Job; temp: string; entry: CacheEntry }[] = [];
    try {
      for (const job of jobs) {
        try {
          const inputs = await Promise.all(
            job.inputs.map(async (p) => (await measurer.measure(join(root, p))).sha256),
          );
          const previous = cache[job.preview];
          if (!options.force && previous && (await isCurrent(root, job, previous, inputs, key))) {
            events.push({ preview: job.preview, skipped: true });
            continue;
          }
          const { text, ...result } = await makePreview(root, job.inputs, options, perDegree);
          const temp = tempPathBeside(join(root, job.preview));
          await mkdir(dirname(temp), { recursive: true });
          await writeFileAtomic(temp, text);
          const entry: CacheEntry = {
            inputs,
            options: key,
            preview_sha256: sha256(text),
            preview_bytes: result.bytes,
            simplification: result.simplification,
          };
          written.push({ job, temp, entry });
          events.push({ preview: job.preview, skipped: false, ...result });
        } catch (error) {
          if (!(error instanceof UserError)) throw error;
          problems.push(...error.problems);
        }
      }
      if (written.length > 0) await commit(root, loaded, written);
      for (const { job, entry } of written) cache[job.preview] = entry;
    } finally {
      await Promise.all(written.map(({ temp }) => rm(temp, { force: true })));
    }
  }
  await measurer.save();
  await saveCacheFile(cacheFile);
  return { events, problems };
}

/** Returns the manifests and datasets named by `selectors` (all when empty); a UserError names any that match nothing. */
async function selectDatasets(
  root: string,
  selectors: string[],
): Promise<{ loaded: LoadedManifest; jobs: Job[] }[]> {
  const files = await findManifests(root);
  const { manifests, problems } = loadManifests(root, files);
  const wanted = selectors.map((text) => {
    const match = /^([A-Z]{3})(?:\/(ADM[0-5]|QUAD))?$/.exec(text);
    if (!match) throw new UsageError(`"${text}": expected ISO3 or ISO3/LEVEL, e.g. CHL or CHL/ADM1`);
    return { text, iso: match[1]!, level: match[2], used: false };
  });
  const broken = new Set(problems.map((p) => p.file));
  const picked: { loaded: LoadedManifest; jobs: Job[] }[] = [];
  for (const loaded of manifests) {
    const folder = loaded.file.slice(0, -'manifest.json'.length); // e.g. "data/earth/ARG/"
    const iso = loaded.manifest.iso_a3;
    const jobs = loaded.manifest.datasets
      .map((dataset, index) => ({
        index,
        dataset,
        preview: previewPath(folder, iso, dataset),
        inputs: previewInputs(dataset),
      }))
      .filter(({ dataset }) => {
        if (wanted.length === 0) return true;
        const hits = wanted.filter((w) => w.iso === iso && (!w.level || w.level === dataset.level));
        for (const w of hits) w.used = true;
        return hits.length > 0;
      });
    if (jobs.length > 0) picked.push({ loaded, jobs });
  }
  const errors = problems.filter(
    (p) => wanted.length === 0 || wanted.some((w) => p.file.includes(`/${w.iso}/`)),
  );
  for (const w of wanted)
    if (!w.used && ![...broken].some((f) => f.includes(`/${w.iso}/`)))
      errors.push(problem('', `${w.text}: no such dataset under ${root}/data`));
  if (errors.length > 0) throw new UserError(errors);
  return picked;
}

/** Returns whether the preview on disk and in the manifest is what the same inputs and options made last time. */
async function isCurrent(
  root: string,
  job: Job,
  entry: CacheEntry,
  inputs: string[],
  options: string,
): Promise<boolean> {
  if (entry.options !== options || entry.inputs.join() !== inputs.join()) return false;
  const { dataset } = job;
  if (dataset.preview !== job.preview || dataset.preview_bytes !== entry.preview_bytes) return false;
  if (JSON.stringify(dataset.simplification) !== JSON.stringify(entry.simplification)) return false;
  const text = await readFile(join(root, job.preview)).catch(() => undefined);
  return text !== undefined && sha256(text) === entry.preview_sha256;
}

/** Records the previews in the manifest, then moves them into place, with interrupts held back. */
async function commit(
  root: string,
  loaded: LoadedManifest,
  written: { job: Job; temp: string; entry: CacheEntry }[],
) {
  const manifest = structuredClone(loaded.manifest);
  for (const { job, entry } of written) {
    manifest.datasets[job.index] = withFields(
      manifest.datasets[job.index]!,
      { preview: job.preview, preview_bytes: entry.preview_bytes, simplification: entry.simplification },
      ['properties', 'preview', 'preview_bytes'],
    );
  }
  await uninterruptible(async () => {
    await writeManifest(root, loaded.file, manifest);
    for (const { job, temp } of written) await rename(temp, join(root, job.preview));
  });
}

function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Whether `value` is the previews' cache, every entry of the shape isCurrent() reads. */
function isPreviewsCache(value: unknown): value is Record<string, CacheEntry> {
  const isEntry = (e: unknown) =>
    isObject(e) &&
    Array.isArray(e.inputs) &&
    e.inputs.every((sha) => typeof sha === 'string') &&
    typeof e.options === 'string' &&
    typeof e.preview_sha256 === 'string' &&
    typeof e.preview_bytes === 'number';
  return isObject(value) && Object.values(value).every(isEntry);
}
