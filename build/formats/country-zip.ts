// Writes the per-country bulk download: one .zip holding the manifest and
// every file it names (levels, parts, previews) under "{ISO3}/", so that
// unzipping it into data/{body}/ gives a tree `geoshelf validate` accepts.
// Files are streamed from disk (yazl), so the archive's size is not bounded
// by memory. Cached by a hash of the manifest text and every file's sha256.
import { createHash } from 'node:crypto';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../core/atomic-write.ts';
import type { Manifest } from '../../src/shared/manifest.ts';
import type { MeasurementCache } from '../measure/cache.ts';
import { FORMATS_VERSION, sha256File, type FormatFile } from './formats.ts';
import { writeZip } from './zip.ts';

/** Returns the root-relative paths a manifest names (e.g. "data/earth/CHL/CHL_ADM1.geojson"), in a stable order. */
export function manifestFiles(manifest: Manifest): string[] {
  const paths = new Set<string>();
  for (const d of manifest.datasets) {
    if (d.path) paths.add(d.path);
    for (const part of d.parts ?? []) paths.add(part.path);
    if (d.preview) paths.add(d.preview);
  }
  return [...paths];
}

/** A country archive in the cache: its path, its cache key, and what the downloads list about it. */
export interface CountryZip {
  path: string; // e.g. "/root/.cache/geoshelf/formats/v1/country/8ab2…/CHL.zip"
  key: string;
  file: FormatFile;
  converted: boolean; // written in this run
}

/** Returns where the archive of a manifest (whose text is `text`) lies in the cache, by a hash of its text and files. */
async function archivePlace(
  cacheDir: string,
  root: string,
  text: string,
  manifest: Manifest,
  measurer: MeasurementCache,
): Promise<{ path: string; key: string; paths: string[] }> {
  const paths = manifestFiles(manifest);
  const hash = createHash('sha256').update(text);
  for (const p of paths) hash.update(`\n${p}\n${(await measurer.measure(join(root, p))).sha256}`);
  const key = hash.digest('hex');
  const path = join(cacheDir, 'formats', `v${FORMATS_VERSION}`, 'country', key, `${manifest.iso_a3}.zip`);
  return { path, key, paths };
}

/** Returns the country archive of a manifest from the cache folder `cacheDir`, or undefined when it is not there whole. */
export async function findCountryZip(
  cacheDir: string,
  root: string,
  text: string,
  manifest: Manifest,
  measurer: MeasurementCache,
): Promise<CountryZip | undefined> {
  const { path, key } = await archivePlace(cacheDir, root, text, manifest, measurer);
  try {
    const recorded = JSON.parse(await readFile(`${path}.json`, 'utf8')) as FormatFile;
    if ((await stat(path)).size === recorded.bytes) return { path, key, file: recorded, converted: false };
  } catch {
    // Absent or unreadable: written again.
  }
  return undefined;
}

/**
 * Returns the country archive of the manifest `file` (e.g.
 * "data/earth/CHL/manifest.json" under `root`, whose text is `text`), from
 * the cache folder `cacheDir` or written there first. The archive is named
 * "{ISO3}.zip"; its entries are "{ISO3}/manifest.json", "{ISO3}/CHL_ADM1.geojson"…
 */
export async function countryZip(
  cacheDir: string,
  root: string,
  file: string,
  text: string,
  manifest: Manifest,
  measurer: MeasurementCache,
): Promise<CountryZip> {
  const found = await findCountryZip(cacheDir, root, text, manifest, measurer);
  if (found) return found;
  const { path, key, paths } = await archivePlace(cacheDir, root, text, manifest, measurer);
  await mkdir(dirname(path), { recursive: true });
  const folder = dirname(file) + '/'; // e.g. "data/earth/CHL/"; every path lies inside it (rule path-outside)
  const entries = [{ file: join(root, file), name: `${manifest.iso_a3}/manifest.json` }];
  for (const p of paths)
    entries.push({ file: join(root, p), name: `${manifest.iso_a3}/${p.slice(folder.length)}` });
  await writeZip(path, entries);
  const { size } = await stat(path);
  const name = `${manifest.iso_a3}.zip`;
  const made: FormatFile = { format: 'zip', file: name, bytes: size, sha256: await sha256File(path) };
  await writeFileAtomic(`${path}.json`, JSON.stringify(made) + '\n');
  return { path, key, file: made, converted: true };
}
