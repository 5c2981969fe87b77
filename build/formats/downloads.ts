// The formats stage of `geoshelf build`: for every level file and split part
// of every manifest, the four download formats, plus one archive per
// country, taken from the cache under <root>/.cache/geoshelf/formats/ when
// their source's sha256 is unchanged, else converted. Returns where each
// file goes in dist/ (downloads/{body}/{ISO3}/…) and what pages and the API
// list about it; writing dist/ is the publish stage's job.
import { runAll } from '../core/slots.ts';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { cacheDir } from '../core/files.ts';
import type { Problem } from '../core/problem.ts';
import type { Manifest } from '../../src/shared/manifest.ts';
import type { LoadedManifest } from '../manifest/validate.ts';
import type { MeasurementCache } from '../measure/cache.ts';
import type { UnitIds } from '../identity/unit-ids.ts';
import { countryZip } from './country-zip.ts';
import {
  cachedConversion,
  conversionKey,
  FORMATS_VERSION,
  WORKER_FROM_BYTES,
  type Conversion,
  type FormatFile,
} from './formats.ts';

/** One published download, e.g. {format: "gpkg", url: "downloads/earth/CHL/CHL_ADM1.gpkg", bytes, sha256}. */
export interface Download extends FormatFile {
  url: string; // path inside dist/, relative to the base
}

export interface LayerDownloads {
  layer: string; // e.g. "CHL_ADM1" or "USA_ADM2_US-CA": file stem and layer name inside each file
  files: Download[];
  shapefileRenamed: Conversion['shapefileRenamed'];
  topojson?: Conversion['topojson'];
  skipped: Conversion['skipped'];
}

export interface DatasetDownloads {
  level: string;
  whole?: LayerDownloads; // from the dataset's `path`
  parts: (LayerDownloads & { code: string })[];
}

export interface CountryDownloads {
  archive: Download; // the whole-country .zip
  datasets: DatasetDownloads[]; // in manifest order
}

export interface Downloads {
  byManifest: Map<string, CountryDownloads>; // keyed by manifest file, e.g. "data/earth/CHL/manifest.json"
  files: Map<string, string>; // dist path → the built file, e.g. "downloads/earth/CHL/CHL.zip" → "/root/.cache/…/CHL.zip"
  converted: number; // sources converted in this run (the rest came from the cache)
  reused: number;
  /** What a file leaves out of its source (e.g. TopoJSON drops z), one per file, with a pointer into the source; every build, cached or not. */
  warnings: Problem[];
}

/** Returns a country's downloads folder inside dist/, e.g. "downloads/earth/CHL/". */
export function downloadsFolder(m: Manifest): string {
  return `downloads/${m.body}/${m.iso_a3}/`;
}

/**
 * Returns the downloads of every manifest in `loaded` (converting what the
 * cache lacks) and removes cached conversions no manifest uses any more.
 * `measurer` gives each source's sha256 (already measured by validation);
 * a source with `unitIds` gets them as its first property (UNIT_ID_PROPERTY).
 */
export async function prepareDownloads(
  root: string,
  loaded: LoadedManifest[],
  measurer: MeasurementCache,
  onProgress: (done: number, total: number) => void = () => {},
  unitIds?: UnitIds, // the release IDs each level's downloads carry, by source file
): Promise<Downloads> {
  const cache = cacheDir(root);
  const result: Downloads = {
    byManifest: new Map(),
    files: new Map(),
    converted: 0,
    reused: 0,
    warnings: [],
  };
  const jobs: {
    source: string;
    layer: string;
    folder: string;
    set: (l: LayerDownloads) => void;
    warnings?: Problem[];
  }[] = [];
  const pending: { file: string; text: string; manifest: Manifest; datasets: DatasetDownloads[] }[] = [];
  for (const { file, text, manifest: m } of loaded) {
    const datasets: DatasetDownloads[] = [];
    const folder = downloadsFolder(m);
    for (const d of m.datasets) {
      const entry: DatasetDownloads = { level: d.level, parts: [] };
      datasets.push(entry);
      const stem = `${m.iso_a3}_${d.level}`; // levels are unique within a manifest (rule level-duplicate)
      if (d.path) jobs.push({ source: d.path, layer: stem, folder, set: (l) => (entry.whole = l) });
      for (const part of d.parts ?? []) {
        const index = entry.parts.length;
        entry.parts.push({ code: part.code, layer: '', files: [], shapefileRenamed: [], skipped: [] });
        jobs.push({
          source: part.path,
          layer: `${stem}_${part.code}`, // part codes are unique within a level
          folder,
          set: (l) => (entry.parts[index] = { ...l, code: part.code }),
        });
      }
    }
    pending.push({ file, text, manifest: m, datasets });
  }
  const used = new Set<string>();
  let done = 0;
  const total = jobs.length + pending.length;
  // The country archives only read the sources: they are written meanwhile (zlib deflates on
  // the thread pool, so a large archive overlaps the conversions instead of following them).
  const archives = runAll(pending, 1, async ({ file, text, manifest, datasets }) => {
    const zip = await countryZip(cache, root, file, text, manifest, measurer);
    used.add(`country:${zip.key}`);
    if (zip.converted) result.converted++;
    else result.reused++;
    const archive = { ...zip.file, url: `${downloadsFolder(manifest)}${zip.file.file}` };
    result.files.set(archive.url, zip.path);
    result.byManifest.set(file, { archive, datasets });
    onProgress(++done, total);
  });
  // Two slots, one per core. A large source converts on two threads of its own (formats.ts) and
  // takes both, so two large conversions never hold their memory at once; largest first, so the
  // small ones fill in around them.
  const sizes = new Map(
    await Promise.all(jobs.map(async (job) => [job, (await stat(join(root, job.source))).size] as const)),
  );
  const bySize = [...jobs].sort((a, b) => sizes.get(b)! - sizes.get(a)!);
  const conversions = runAll(
    bySize,
    2,
    async (job) => {
      const source = join(root, job.source); // e.g. "data/earth/CHL/CHL_ADM1.geojson"
      const { sha256 } = await measurer.measure(source);
      const given = unitIds?.files.get(job.source);
      const ids = given?.sha256 === sha256 ? given.ids : undefined;
      const { dir, conversion, converted } = await cachedConversion(cache, source, sha256, job.layer, ids);
      used.add(conversionKey(sha256, ids));
      if (converted) result.converted++;
      else result.reused++;
      const files = conversion.files.map((f) => ({ ...f, url: `${job.folder}${f.file}` }));
      for (const f of files) result.files.set(f.url, join(dir, f.file));
      job.set({ ...conversion, files });
      job.warnings = conversion.warnings.map(({ rule, pointer, message }) => ({
        file: job.source,
        pointer,
        rule,
        severity: 'warning' as const,
        message,
      }));
      onProgress(++done, total);
    },
    (job) => (sizes.get(job)! >= WORKER_FROM_BYTES ? 2 : 1),
  );
  // Wait for both even when one fails, so nothing writes into the cache after we return.
  const settled = await Promise.allSettled([archives, conversions]);
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  // Map insertion order followed completion: put the countries back in catalogue order.
  const byManifest = new Map(
    loaded.flatMap(({ file }) => (result.byManifest.has(file) ? [[file, result.byManifest.get(file)!]] : [])),
  );
  result.byManifest = byManifest;
  result.warnings = jobs.flatMap((job) => job.warnings ?? []); // in catalogue order, not completion order
  await prune(join(cache, 'formats'), used);
  return result;
}

/** Removes cached conversions (and older cache versions) that this build did not use. */
async function prune(dir: string, used: Set<string>): Promise<void> {
  const current = `v${FORMATS_VERSION}`;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (name !== current) await rm(join(dir, name), { recursive: true, force: true });
  }
  for (const name of await readdir(join(dir, current)).catch(() => [] as string[])) {
    if (name === 'country') continue;
    if (!used.has(name)) await rm(join(dir, current, name), { recursive: true, force: true });
  }
  for (const name of await readdir(join(dir, current, 'country')).catch(() => [] as string[])) {
    if (!used.has(`country:${name}`))
      await rm(join(dir, current, 'country', name), { recursive: true, force: true });
  }
}
