// Writes the per-country bulk download: one .zip holding the manifest and
// every file it names (levels, parts, previews) under "{ISO3}/", so that
// unzipping it into data/{body}/ gives a tree `geoshelf validate` accepts.
// Files are streamed from disk (yazl), so the archive's size is not bounded
// by memory. Cached by a hash of the manifest text and every file's sha256.
import { createHash } from 'node:crypto';
import { mkdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../core/atomic-write.ts';
import type { Manifest } from '../core/shared/manifest.ts';
import type { MeasurementCache } from '../measure/cache.ts';
import { sha256File, type FormatFile } from './formats.ts';
import type { FormatsCache } from './formats-cache.ts';
import { writeZip } from './zip.ts';

/** Returns the root-relative paths a manifest names (e.g. "data/earth/CHL/CHL_ADM1.geojson"), in a stable order. */
function manifestFiles(manifest: Manifest): string[] {
  const paths = new Set<string>();
  for (const d of manifest.datasets) {
    if (d.path) paths.add(d.path);
    for (const part of d.parts ?? []) paths.add(part.path);
    if (d.preview) paths.add(d.preview);
  }
  return [...paths];
}

/** A country archive in the cache: its path, and what the downloads list about it. */
export interface CountryZip {
  path: string; // e.g. "/root/.cache/geoshelf/formats/v1/country/8ab2…/CHL.zip"
  file: FormatFile;
  converted: boolean; // written in this run
}

/** Where a country archive lies in the cache, e.g. {key: "1c3f…", name: "CHL.zip", path: ".cache/…/country/1c3f…/CHL.zip", paths}. */
export interface ArchivePlace {
  key: string; // a hash of the manifest's text and of every file it names
  name: string;
  path: string;
  paths: string[]; // the manifest's files (manifestFiles)
}

/** Returns where the archive of a manifest (whose text is `text`) lies in the cache, by a hash of its text and files. */
export async function archivePlace(
  cache: FormatsCache,
  root: string,
  text: string,
  manifest: Manifest,
  measurer: MeasurementCache,
): Promise<ArchivePlace> {
  const paths = manifestFiles(manifest);
  const sha256s = await Promise.all(paths.map(async (p) => (await measurer.measure(join(root, p))).sha256));
  const hash = createHash('sha256').update(text);
  paths.forEach((p, i) => hash.update(`\n${p}\n${sha256s[i]}`));
  const key = hash.digest('hex');
  const name = `${manifest.iso_a3}.zip`;
  return { key, name, path: cache.archivePath(key, name), paths };
}

/** Returns the country archive at `place` when the cache's index lists it whole, else undefined (without I/O but a statSync). */
export function indexedCountryZip(cache: FormatsCache, place: ArchivePlace): CountryZip | undefined {
  const file = cache.indexedArchive(place.key, place.name);
  return file && { path: place.path, file, converted: false };
}

/** Returns the country archive at `place` from the formats cache, or undefined when it is not there whole. */
export async function findCountryZip(
  cache: FormatsCache,
  place: ArchivePlace,
): Promise<CountryZip | undefined> {
  const file = await cache.findArchive(place.key, place.name);
  return file && { path: place.path, file, converted: false };
}

/**
 * Returns the country archive of the manifest `file` (e.g.
 * "data/earth/CHL/manifest.json" under `root`) at `place` in the formats
 * cache, written there first when it is not there whole. The archive is
 * named "{ISO3}.zip"; its entries are "{ISO3}/manifest.json", "{ISO3}/CHL_ADM1.geojson"…
 */
export async function countryZip(
  cache: FormatsCache,
  root: string,
  file: string,
  manifest: Manifest,
  place: ArchivePlace,
): Promise<CountryZip> {
  const found = await findCountryZip(cache, place);
  if (found) return found;
  const { path, key, name, paths } = place;
  await mkdir(dirname(path), { recursive: true });
  const folder = dirname(file) + '/'; // e.g. "data/earth/CHL/"; every path lies inside it (rule path-outside)
  const entries = [{ file: join(root, file), name: `${manifest.iso_a3}/manifest.json` }];
  for (const p of paths)
    entries.push({ file: join(root, p), name: `${manifest.iso_a3}/${p.slice(folder.length)}` });
  await writeZip(path, entries);
  const { size } = await stat(path);
  const made: FormatFile = { format: 'zip', file: name, bytes: size, sha256: await sha256File(path) };
  await writeFileAtomic(`${path}.json`, JSON.stringify(made) + '\n');
  cache.recordArchive(key, made);
  return { path, file: made, converted: true };
}
