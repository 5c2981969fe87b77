// The formats stage of `geoshelf build`: for every level file and split part
// of every manifest, the four download formats, plus one archive and the
// simplified copies of every level (simplified.ts) per country, taken from the cache under <root>/.cache/geoshelf/formats/ when
// their source's sha256 is unchanged, else converted. Returns where each
// file goes in dist/ (downloads/{body}/{ISO3}/…) and what pages and the API
// list about it; writing dist/ is the publish stage's job.
import { runAll } from '../core/slots.ts';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { cacheDir } from '../core/files.ts';
import type { Problem } from '../core/problem.ts';
import { crsDefinition, type CrsDefinition } from '../core/shared/crs.ts';
import type { Manifest } from '../core/shared/manifest.ts';
import type { LoadedManifest } from '../manifest/validate.ts';
import type { MeasurementCache } from '../measure/cache.ts';
import type { UnitIds } from '../identity/unit-ids.ts';
import {
  archivePlace,
  countryZip,
  findCountryZip,
  indexedCountryZip,
  type ArchivePlace,
  type CountryZip,
} from './country-zip.ts';
import type { BuiltFile } from '../output/write-dist.ts';
import { WORKER_FROM_BYTES, type Conversion, type FormatFile } from './formats.ts';
import { FormatsCache } from './formats-cache.ts';
import {
  findSimplified,
  indexedSimplified,
  makeSimplified,
  simplifiedPlace,
  type SimplifiedCopies,
  type SimplifiedPlace,
} from './simplified.ts';

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
  simplified: Download[]; // the whole level simplified (from its path, or its parts), finest first
}

export interface CountryDownloads {
  archive: Download; // the whole-country .zip
  datasets: DatasetDownloads[]; // in manifest order
}

export interface Downloads {
  byManifest: Map<string, CountryDownloads>; // keyed by manifest file, e.g. "data/earth/CHL/manifest.json"
  files: Map<string, BuiltFile>; // dist path → the built file, e.g. "downloads/earth/CHL/CHL.zip" → {from: "/root/.cache/…/CHL.zip", sha256}
  converted: number; // sources converted in this run (the rest came from the cache)
  reused: number;
  /** What a file leaves out of its source (e.g. TopoJSON drops z), one per file, with a pointer into the source; every build, cached or not. */
  warnings: Problem[];
}

/** One level file or part to convert: where its downloads go, and where its result is put. */
interface Job {
  source: string; // e.g. "data/earth/CHL/CHL_ADM1.geojson"
  layer: string;
  crs: CrsDefinition; // the manifest's, which every format declares
  folder: string; // e.g. "downloads/earth/CHL/"
  set: (l: LayerDownloads) => void;
  warnings?: Problem[];
}

/** Lookups of items the cache's index lacks, at once: each only reads a small record and stats a few files. */
const LOOKUPS = 16;

/** Returns a country's downloads folder inside dist/, e.g. "downloads/earth/CHL/". */
function downloadsFolder(m: Manifest): string {
  return `downloads/${m.body}/${m.iso_a3}/`;
}

/** One country's manifest and the downloads of its datasets, filled in as they are found or made. */
interface Country {
  file: string; // e.g. "data/earth/CHL/manifest.json"
  text: string;
  manifest: Manifest;
  datasets: DatasetDownloads[];
}

/** A conversion's cache key: the source's sha256 and the unit ids it carries. */
interface KeyedJob {
  job: Job;
  path: string; // e.g. "/root/data/earth/CHL/CHL_ADM1.geojson"
  sha256: string;
  ids?: string[];
}

type Placed<P> = Country & { place: P };

/** Each kind of item, by its cache key. */
interface Keyed {
  archives: Placed<ArchivePlace>[];
  simplified: Placed<SimplifiedPlace>[];
  conversions: KeyedJob[];
}

/** What the cache lacks, to be made; a conversion with its source's size, to schedule by. */
interface Misses {
  archives: Placed<ArchivePlace>[];
  simplified: Placed<SimplifiedPlace>[];
  conversions: (KeyedJob & { size: number })[];
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
  const cache = FormatsCache.open(cacheDir(root));
  const { jobs, countries } = listJobs(loaded);
  const found = new Found(jobs.length + 2 * countries.length, onProgress);
  const keyed = await cacheKeys(cache, root, countries, jobs, measurer, unitIds);
  const misses = await lookUp(cache, keyed, found);
  await makeMissing(cache, root, misses, found);
  cache.finish(); // removes the conversions and archives no manifest uses any more
  return found.inCatalogueOrder(loaded, jobs);
}

/** Returns a job per level file and part of every manifest, and each country with its empty downloads. */
function listJobs(loaded: LoadedManifest[]): { jobs: Job[]; countries: Country[] } {
  const jobs: Job[] = [];
  const countries: Country[] = [];
  for (const { file, text, manifest: m } of loaded) {
    const datasets: DatasetDownloads[] = [];
    const folder = downloadsFolder(m);
    const crs = crsDefinition(m.crs);
    for (const d of m.datasets) {
      const entry: DatasetDownloads = { level: d.level, parts: [], simplified: [] };
      datasets.push(entry);
      const stem = `${m.iso_a3}_${d.level}`; // levels are unique within a manifest (rule level-duplicate)
      if (d.path) jobs.push({ source: d.path, layer: stem, crs, folder, set: (l) => (entry.whole = l) });
      for (const part of d.parts ?? []) {
        const index = entry.parts.length;
        entry.parts.push({ code: part.code, layer: '', files: [], shapefileRenamed: [], skipped: [] });
        jobs.push({
          source: part.path,
          layer: `${stem}_${part.code}`, // part codes are unique within a level
          crs,
          folder,
          set: (l) => (entry.parts[index] = { ...l, code: part.code }),
        });
      }
    }
    countries.push({ file, text, manifest: m, datasets });
  }
  return { jobs, countries };
}

/** Collects the downloads as each is found in the cache or made, counting progress. */
class Found {
  readonly result: Downloads = {
    byManifest: new Map(),
    files: new Map(),
    converted: 0,
    reused: 0,
    warnings: [],
  };
  private readonly simplifiedWarnings = new Map<string, Problem[]>(); // by manifest file
  private done = 0;

  constructor(
    private readonly total: number,
    private readonly onProgress: (done: number, total: number) => void,
  ) {}

  private count(converted: boolean): void {
    if (converted) this.result.converted++;
    else this.result.reused++;
  }

  archive({ file, manifest, datasets }: Country, zip: CountryZip): void {
    this.count(zip.converted);
    const archive = { ...zip.file, url: `${downloadsFolder(manifest)}${zip.file.file}` };
    this.result.files.set(archive.url, { from: zip.path, sha256: zip.file.sha256 });
    this.result.byManifest.set(file, { archive, datasets });
    this.onProgress(++this.done, this.total);
  }

  conversion(job: Job, dir: string, conversion: Conversion, converted: boolean): void {
    this.count(converted);
    const files = conversion.files.map((f) => ({ ...f, url: `${job.folder}${f.file}` }));
    for (const f of files) this.result.files.set(f.url, { from: `${dir}/${f.file}`, sha256: f.sha256 }); // a file stem and suffix (formats-cache.ts)
    job.set({ ...conversion, files });
    job.warnings = conversion.warnings.map(({ rule, pointer, message }) => ({
      file: job.source,
      pointer,
      rule,
      severity: 'warning' as const,
      message,
    }));
    this.onProgress(++this.done, this.total);
  }

  simplified({ file, manifest, datasets }: Country, copies: SimplifiedCopies): void {
    this.count(copies.converted);
    const folder = downloadsFolder(manifest);
    for (const f of copies.files) {
      const url = `${folder}${f.file}`;
      this.result.files.set(url, { from: `${copies.dir}/${f.file}`, sha256: f.sha256 });
      const { file: name, bytes, sha256, tolerance_m } = f;
      const download: Download = { format: 'geojson', file: name, bytes, sha256, tolerance_m, url };
      datasets.find((d) => d.level === f.level)?.simplified.push(download);
    }
    this.simplifiedWarnings.set(file, copies.warnings);
    this.onProgress(++this.done, this.total);
  }

  /** Returns the downloads with countries and warnings in catalogue order, not in the order they completed. */
  inCatalogueOrder(loaded: LoadedManifest[], jobs: Job[]): Downloads {
    const { byManifest } = this.result;
    return {
      ...this.result,
      byManifest: new Map(
        loaded.flatMap(({ file }) => (byManifest.has(file) ? [[file, byManifest.get(file)!]] : [])),
      ),
      warnings: [
        ...jobs.flatMap((job) => job.warnings ?? []),
        ...loaded.flatMap(({ file }) => this.simplifiedWarnings.get(file) ?? []),
      ],
    };
  }
}

/** Returns each item's cache key, from the sources' sha256s (memoised: validation measured them). */
async function cacheKeys(
  cache: FormatsCache,
  root: string,
  countries: Country[],
  jobs: Job[],
  measurer: MeasurementCache,
  unitIds: UnitIds | undefined,
): Promise<Keyed> {
  const [archives, simplified, conversions] = await Promise.all([
    Promise.all(
      countries.map(async (c) => ({
        ...c,
        place: await archivePlace(cache, root, c.text, c.manifest, measurer),
      })),
    ),
    Promise.all(
      countries.map(async (c) => ({
        ...c,
        place: await simplifiedPlace(cache, root, c.manifest, measurer, unitIds),
      })),
    ),
    Promise.all(
      jobs.map(async (job) => {
        const path = join(root, job.source);
        const { sha256 } = await measurer.measure(path);
        const given = unitIds?.files.get(job.source);
        return { job, path, sha256, ids: given?.sha256 === sha256 ? given.ids : undefined };
      }),
    ),
  ]);
  return { archives, simplified, conversions };
}

/** Hands `found` every item the cache holds, and returns the ones it lacks. */
async function lookUp(cache: FormatsCache, keyed: Keyed, found: Found): Promise<Misses> {
  // First what the cache's index holds, at once: no I/O but a statSync or so per item
  // (formats-cache.ts); when one country changed this is nearly all of them.
  const archiveMisses = keyed.archives.filter((c) => {
    const zip = indexedCountryZip(cache, c.place);
    if (zip) found.archive(c, zip);
    return !zip;
  });
  const simplifiedMisses = keyed.simplified.filter((c) => {
    const copies = indexedSimplified(cache, c.place);
    if (copies) found.simplified(c, copies);
    return !copies;
  });
  const conversionMisses = keyed.conversions.filter(({ job, sha256, ids }) => {
    const hit = cache.indexedConversion(sha256, job.layer, job.crs, ids);
    if (hit) found.conversion(job, hit.dir, hit.conversion, false);
    return !hit;
  });
  // Then the rest many at a time: a lookup of an item the index lacks reads its record and
  // stats its files, so it is bound by latency.
  const [archiveHits, simplifiedHits, conversions] = await Promise.all([
    runAll(archiveMisses, LOOKUPS, async (c) => {
      const zip = await findCountryZip(cache, c.place);
      if (zip) found.archive(c, zip);
      return zip !== undefined;
    }),
    runAll(simplifiedMisses, LOOKUPS, async (c) => {
      const copies = await findSimplified(cache, c.place);
      if (copies) found.simplified(c, copies);
      return copies !== undefined;
    }),
    runAll(conversionMisses, LOOKUPS, async (miss) => {
      const hit = await cache.findConversion(miss.sha256, miss.job.layer, miss.job.crs, miss.ids);
      if (hit) found.conversion(miss.job, hit.dir, hit.conversion, false);
      const size = hit ? 0 : (await stat(miss.path)).size; // only a miss is scheduled by size
      return { ...miss, found: hit !== undefined, size };
    }),
  ]);
  return {
    archives: archiveMisses.filter((_, i) => !archiveHits[i]),
    simplified: simplifiedMisses.filter((_, i) => !simplifiedHits[i]),
    conversions: conversions.filter((miss) => !miss.found),
  };
}

/** Makes every item the cache lacks into the cache, handing each to `found`. */
async function makeMissing(cache: FormatsCache, root: string, misses: Misses, found: Found): Promise<void> {
  // The country archives only read the sources: they are written meanwhile (zlib deflates on
  // the thread pool, so a large archive overlaps the conversions instead of following them).
  const archives = runAll(misses.archives, 1, async (c) =>
    found.archive(c, await countryZip(cache, root, c.file, c.manifest, c.place)),
  );
  // Two slots, one per core. A large source converts on two threads of its own (formats.ts) and
  // takes both, so two large conversions never hold their memory at once; largest first, so the
  // small ones fill in around them.
  const bySize = [...misses.conversions].sort((a, b) => b.size - a.size);
  const conversions = runAll(
    bySize,
    2,
    async ({ job, path, sha256, ids }) => {
      const made = await cache.cachedConversion(path, sha256, job.layer, job.crs, ids, job.source);
      found.conversion(job, made.dir, made.conversion, made.converted);
    },
    (miss) => (miss.size >= WORKER_FROM_BYTES ? 2 : 1),
  );
  // The simplified copies are work for the main thread (every level of a country at once), one
  // country at a time between the conversions' awaits.
  const simplified = runAll(misses.simplified, 1, async (c) =>
    found.simplified(c, await makeSimplified(cache, root, c.place)),
  );
  // Wait for all even when one fails, so nothing writes into the cache after we return.
  const settled = await Promise.allSettled([archives, conversions, simplified]);
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}
