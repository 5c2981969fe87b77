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
import type { Manifest } from '../core/shared/manifest.ts';
import type { LoadedManifest } from '../manifest/validate.ts';
import type { MeasurementCache } from '../measure/cache.ts';
import type { UnitIds } from '../identity/unit-ids.ts';
import {
  archivePlace,
  countryZip,
  findCountryZip,
  indexedCountryZip,
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
  const result: Downloads = {
    byManifest: new Map(),
    files: new Map(),
    converted: 0,
    reused: 0,
    warnings: [],
  };
  const jobs: Job[] = [];
  const pending: { file: string; text: string; manifest: Manifest; datasets: DatasetDownloads[] }[] = [];
  for (const { file, text, manifest: m } of loaded) {
    const datasets: DatasetDownloads[] = [];
    const folder = downloadsFolder(m);
    for (const d of m.datasets) {
      const entry: DatasetDownloads = { level: d.level, parts: [], simplified: [] };
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
  let done = 0;
  const total = jobs.length + 2 * pending.length;
  const addArchive = ({ file, manifest, datasets }: (typeof pending)[number], zip: CountryZip) => {
    if (zip.converted) result.converted++;
    else result.reused++;
    const archive = { ...zip.file, url: `${downloadsFolder(manifest)}${zip.file.file}` };
    result.files.set(archive.url, { from: zip.path, sha256: zip.file.sha256 });
    result.byManifest.set(file, { archive, datasets });
    onProgress(++done, total);
  };
  const addConversion = (job: Job, dir: string, conversion: Conversion, converted: boolean) => {
    if (converted) result.converted++;
    else result.reused++;
    const files = conversion.files.map((f) => ({ ...f, url: `${job.folder}${f.file}` }));
    for (const f of files) result.files.set(f.url, { from: `${dir}/${f.file}`, sha256: f.sha256 }); // a file stem and suffix (formats-cache.ts)
    job.set({ ...conversion, files });
    job.warnings = conversion.warnings.map(({ rule, pointer, message }) => ({
      file: job.source,
      pointer,
      rule,
      severity: 'warning' as const,
      message,
    }));
    onProgress(++done, total);
  };
  const simplifiedWarnings = new Map<string, Problem[]>(); // by manifest file
  const addSimplified = (
    { file, manifest, datasets }: (typeof pending)[number],
    copies: SimplifiedCopies,
  ) => {
    if (copies.converted) result.converted++;
    else result.reused++;
    const folder = downloadsFolder(manifest);
    for (const f of copies.files) {
      const url = `${folder}${f.file}`;
      result.files.set(url, { from: `${copies.dir}/${f.file}`, sha256: f.sha256 });
      const { file: name, bytes, sha256, tolerance_m } = f;
      const download: Download = { format: 'geojson', file: name, bytes, sha256, tolerance_m, url };
      datasets.find((d) => d.level === f.level)?.simplified.push(download);
    }
    simplifiedWarnings.set(file, copies.warnings);
    onProgress(++done, total);
  };
  // Each item's cache key, from the sources' sha256s (memoised: validation measured them).
  const [places, simplifiedPlaces, keyed] = await Promise.all([
    Promise.all(
      pending.map(async (p) => ({
        ...p,
        place: await archivePlace(cache, root, p.text, p.manifest, measurer),
      })),
    ),
    Promise.all(
      pending.map(async (p) => ({
        ...p,
        place: await simplifiedPlace(cache, root, p.manifest, measurer, unitIds),
      })),
    ),
    Promise.all(
      jobs.map(async (job) => {
        const path = join(root, job.source); // e.g. "/root/data/earth/CHL/CHL_ADM1.geojson"
        const { sha256 } = await measurer.measure(path);
        const given = unitIds?.files.get(job.source);
        return { job, path, sha256, ids: given?.sha256 === sha256 ? given.ids : undefined };
      }),
    ),
  ]);
  // First what the cache's index holds, at once: no I/O but a statSync or so per item
  // (formats-cache.ts); when one country changed this is nearly all of them.
  const archiveMisses = places.filter((p) => {
    const zip = indexedCountryZip(cache, p.place);
    if (zip) addArchive(p, zip);
    return !zip;
  });
  const simplifiedMisses = simplifiedPlaces.filter((p) => {
    const copies = indexedSimplified(cache, p.place);
    if (copies) addSimplified(p, copies);
    return !copies;
  });
  const conversionMisses = keyed.filter(({ job, sha256, ids }) => {
    const found = cache.indexedConversion(sha256, job.layer, ids);
    if (found) addConversion(job, found.dir, found.conversion, false);
    return !found;
  });
  // Then the rest many at a time: a lookup of an item the index lacks reads its record and
  // stats its files, so it is bound by latency.
  const [archiveHits, simplifiedHits, conversionHits] = await Promise.all([
    runAll(archiveMisses, LOOKUPS, async (p) => {
      const zip = await findCountryZip(cache, p.place);
      if (zip) addArchive(p, zip);
      return zip !== undefined;
    }),
    runAll(simplifiedMisses, LOOKUPS, async (p) => {
      const copies = await findSimplified(cache, p.place);
      if (copies) addSimplified(p, copies);
      return copies !== undefined;
    }),
    runAll(conversionMisses, LOOKUPS, async (miss) => {
      const found = await cache.findConversion(miss.sha256, miss.job.layer, miss.ids);
      if (found) addConversion(miss.job, found.dir, found.conversion, false);
      const size = found ? 0 : (await stat(miss.path)).size; // only a miss is scheduled by size
      return { ...miss, found: found !== undefined, size };
    }),
  ]);
  // The country archives only read the sources: they are written meanwhile (zlib deflates on
  // the thread pool, so a large archive overlaps the conversions instead of following them).
  const archives = runAll(
    archiveMisses.filter((_, i) => !archiveHits[i]),
    1,
    async (p) => addArchive(p, await countryZip(cache, root, p.file, p.manifest, p.place)),
  );
  // Two slots, one per core. A large source converts on two threads of its own (formats.ts) and
  // takes both, so two large conversions never hold their memory at once; largest first, so the
  // small ones fill in around them.
  const bySize = conversionHits.filter((miss) => !miss.found).sort((a, b) => b.size - a.size);
  const conversions = runAll(
    bySize,
    2,
    async ({ job, path, sha256, ids }) => {
      const made = await cache.cachedConversion(path, sha256, job.layer, ids, job.source);
      addConversion(job, made.dir, made.conversion, made.converted);
    },
    (miss) => (miss.size >= WORKER_FROM_BYTES ? 2 : 1),
  );
  // The simplified copies are work for the main thread (every level of a country at once), one
  // country at a time between the conversions' awaits.
  const simplified = runAll(
    simplifiedMisses.filter((_, i) => !simplifiedHits[i]),
    1,
    async (p: (typeof simplifiedPlaces)[number] & { place: SimplifiedPlace }) =>
      addSimplified(p, await makeSimplified(cache, root, p.place)),
  );
  // Wait for all even when one fails, so nothing writes into the cache after we return.
  const settled = await Promise.allSettled([archives, conversions, simplified]);
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  // Map insertion order followed completion: put the countries back in catalogue order.
  const byManifest = new Map(
    loaded.flatMap(({ file }) => (result.byManifest.has(file) ? [[file, result.byManifest.get(file)!]] : [])),
  );
  result.byManifest = byManifest;
  // In catalogue order, not completion order.
  result.warnings = [
    ...jobs.flatMap((job) => job.warnings ?? []),
    ...loaded.flatMap(({ file }) => simplifiedWarnings.get(file) ?? []),
  ];
  cache.finish(); // removes the conversions and archives no manifest uses any more
  return result;
}
