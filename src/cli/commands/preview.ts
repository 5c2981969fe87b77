// `geoshelf preview`: wires the preview stage (build/preview.ts) to the
// manifests: picks datasets, skips unchanged ones, writes previews and
// manifest fields together.
import { formatProblem } from '../../../build/core/problem.ts';
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { tempPathBeside, writeFileAtomic } from '../../../build/core/atomic-write.ts';
import type { Dataset, Simplification } from '../../../build/manifest/types.ts';
import { writeManifest } from '../../../build/manifest/update.ts';
import { findManifests, loadManifests, type LoadedManifest } from '../../../build/manifest/load.ts';
import { MAX_PREVIEW_BYTES } from '../../../build/manifest/types.ts';
import { Measurer } from '../../../build/measure/cache.ts';
import {
  makePreview,
  previewInputs,
  previewPath,
  type PreviewOptions,
} from '../../../build/preview/preview.ts';
import { uninterruptible, withFields } from '../../../build/core/staging.ts';
import { measurementCacheFile } from '../../../build/manifest/validate.ts';
import { parseCommandArgs, parseIntegerFlag, UserError, type Command } from '../command.ts';

const usage = `Usage: geoshelf preview [--root DIR] [--max-bytes N] [--method visvalingam|douglas-peucker] [--force] [ISO3[/LEVEL]…]

Writes data/{body}/{ISO3}/preview/{ISO3}_{LEVEL}.preview.geojson for each
dataset (all of them, or those named, e.g. "CHL" or "CHL/ADM1"): every feature
kept with its identifying properties, shared borders simplified once, as little
simplification as fits the byte budget, coordinates rounded to match the
tolerance. Records preview, preview_bytes and simplification in the manifest.
Datasets whose input and options are unchanged since their last preview are
skipped (a cache in <root>/.cache/geoshelf/previews.json).

Options:
  --root DIR        folder holding data/ (default: the current folder)
  --max-bytes N     byte budget of each preview, at most ${MAX_PREVIEW_BYTES} (default)
  --method NAME     visvalingam (default) or douglas-peucker
  --force           remake previews even when nothing changed`;

/** Bump when the preview output for the same input and options changes. */
const ALGORITHM_VERSION = 1;

interface CacheEntry {
  inputs: string[]; // sha256 of each input file
  options: string; // e.g. "visvalingam:2097152:1"
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

export default {
  usage,
  async run(argv) {
    const { values, positionals } = parseCommandArgs(argv, {
      options: {
        root: { type: 'string', default: '.' },
        'max-bytes': { type: 'string', default: String(MAX_PREVIEW_BYTES) },
        method: { type: 'string', default: 'visvalingam' },
        force: { type: 'boolean', default: false },
      },
      allowPositionals: true,
    });
    const method = values.method;
    if (method !== 'visvalingam' && method !== 'douglas-peucker') {
      throw new UserError(`--method: expected visvalingam or douglas-peucker, got "${method}"`);
    }
    const options: PreviewOptions = {
      maxBytes: parseIntegerFlag('max-bytes', values['max-bytes'], 1, MAX_PREVIEW_BYTES),
      method,
    };
    const root = values.root;
    const selected = await selectDatasets(root, positionals);

    const measurer = new Measurer({ cacheFile: measurementCacheFile(root) });
    const cacheFile = join(root, '.cache', 'geoshelf', 'previews.json');
    const cache = await readCache(cacheFile);
    const optionsKey = `${options.method}:${options.maxBytes}:${ALGORITHM_VERSION}`;
    const errors: string[] = [];

    for (const { loaded, jobs } of selected) {
      const written: { job: Job; temp: string; entry: CacheEntry }[] = [];
      try {
        for (const job of jobs) {
          try {
            const inputs = await Promise.all(
              job.inputs.map(async (p) => (await measurer.measure(join(root, p))).sha256),
            );
            const previous = cache[job.preview];
            if (!values.force && previous && (await isCurrent(root, job, previous, inputs, optionsKey))) {
              console.log(`${job.preview}: unchanged, skipped`);
              continue;
            }
            const result = await makePreview(root, job.inputs, options);
            const temp = tempPathBeside(join(root, job.preview));
            await mkdir(dirname(temp), { recursive: true });
            await writeFileAtomic(temp, result.text);
            const entry: CacheEntry = {
              inputs,
              options: optionsKey,
              preview_sha256: sha256(result.text),
              preview_bytes: result.bytes,
              simplification: result.simplification,
            };
            written.push({ job, temp, entry });
            const { method: m, tolerance_m } = result.simplification;
            console.log(
              `${job.preview}: ${result.bytes} bytes, ${m} ${tolerance_m} m, ${result.decimals} decimals, ` +
                `${result.vertices} of ${result.inputVertices} border vertices kept, ${result.passes} passes`,
            );
          } catch (error) {
            if (!(error instanceof UserError)) throw error;
            errors.push(error.message);
          }
        }
        if (written.length > 0) await commit(root, loaded, written);
        for (const { job, entry } of written) cache[job.preview] = entry;
      } finally {
        await Promise.all(written.map(({ temp }) => rm(temp, { force: true })));
      }
    }
    await measurer.save();
    await mkdir(dirname(cacheFile), { recursive: true });
    await writeFileAtomic(cacheFile, `${JSON.stringify(cache, null, 1)}\n`);
    if (errors.length > 0) throw new UserError(errors.join('\n'));
    return 0;
  },
} satisfies Command;

/** Returns the manifests and datasets named by `selectors` (all when empty); a UserError names any that match nothing. */
async function selectDatasets(
  root: string,
  selectors: string[],
): Promise<{ loaded: LoadedManifest; jobs: Job[] }[]> {
  const files = await findManifests(root);
  const { manifests, problems } = await loadManifests(root, files);
  const wanted = selectors.map((text) => {
    const match = /^([A-Z]{3})(?:\/(ADM[0-5]|QUAD))?$/.exec(text);
    if (!match) throw new UserError(`"${text}": expected ISO3 or ISO3/LEVEL, e.g. CHL or CHL/ADM1`);
    return { text, iso: match[1]!, level: match[2], used: false };
  });
  const broken = new Set(problems.map((p) => p.file));
  const picked: { loaded: LoadedManifest; jobs: Job[] }[] = [];
  const errors: string[] = [];
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
  for (const p of problems)
    if (wanted.length === 0 || wanted.some((w) => p.file.includes(`/${w.iso}/`)))
      errors.push(formatProblem(p));
  for (const w of wanted)
    if (!w.used && ![...broken].some((f) => f.includes(`/${w.iso}/`)))
      errors.push(`${w.text}: no such dataset under ${root}/data`);
  if (errors.length > 0) throw new UserError(errors.join('\n'));
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

async function readCache(file: string): Promise<Record<string, CacheEntry>> {
  try {
    const value = JSON.parse(await readFile(file, 'utf8')) as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, CacheEntry>) : {};
  } catch {
    return {}; // absent or corrupt: a cache, never a source of truth
  }
}
