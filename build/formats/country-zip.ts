// Writes the per-country bulk download: one .zip holding the manifest and
// every file it names (levels, parts, previews) under "{ISO3}/", so that
// unzipping it into data/{body}/ gives a tree `geoshelf validate` accepts.
// Files are streamed from disk (yazl), so the archive's size is not bounded
// by memory. Cached by the sha256 of the manifest text: the manifest states
// every file's sha256 (checked by validate), so equal text means equal files.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { writeFileAtomic } from '../core/atomic-write.ts';
import { dirname, join } from 'node:path';
import type { Manifest } from '../manifest/types.ts';
import { FORMATS_VERSION, sha256File, type FormatFile } from './formats.ts';
import { writeZip } from './zip.ts';

/** Returns the paths a manifest names, relative to its folder, in a stable order. */
export function manifestFiles(manifest: Manifest): string[] {
  const paths = new Set<string>();
  for (const d of manifest.datasets) {
    if (d.path) paths.add(d.path);
    for (const part of d.parts ?? []) paths.add(part.path);
    if (d.preview) paths.add(d.preview);
  }
  return [...paths];
}

/**
 * Returns the country archive of the manifest at `manifestFile` (e.g.
 * "/root/data/earth/CHL/manifest.json", whose text is `text`), from the
 * cache folder `cacheDir` or written there first. The file is named
 * "{ISO3}.zip" and its entries "{ISO3}/manifest.json", "{ISO3}/CHL_ADM1.geojson"…
 */
export async function countryZip(
  cacheDir: string,
  manifestFile: string,
  text: string,
  manifest: Manifest,
): Promise<{ path: string; file: FormatFile; converted: boolean }> {
  const key = createHash('sha256').update(text).digest('hex');
  const name = `${manifest.iso_a3}.zip`;
  const path = join(cacheDir, 'formats', `v${FORMATS_VERSION}`, 'country', key, name);
  const record = `${path}.json`;
  if (existsSync(record) && existsSync(path)) {
    const file = JSON.parse(await readFile(record, 'utf8')) as FormatFile;
    if ((await stat(path)).size === file.bytes) return { path, file, converted: false };
  }
  await mkdir(dirname(path), { recursive: true });
  const folder = dirname(manifestFile);
  const entries = [{ file: manifestFile, name: `${manifest.iso_a3}/manifest.json` }];
  for (const p of manifestFiles(manifest))
    entries.push({ file: join(folder, p), name: `${manifest.iso_a3}/${p}` });
  await writeZip(path, entries);
  const { size } = await stat(path);
  const file: FormatFile = { format: 'zip', file: name, bytes: size, sha256: await sha256File(path) };
  await writeFileAtomic(record, JSON.stringify(file) + '\n');
  return { path, file, converted: true };
}
