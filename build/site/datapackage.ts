// A country's downloads folder as a Frictionless Data Package:
// downloads/{body}/{ISO3}/datapackage.json lists every file of the folder as
// a resource with its bytes and sha256, so `frictionless validate` (or any
// Data Package reader) can fetch and check the whole country. A Data
// Package's paths may not leave its folder ("..": the spec's schema refuses
// them), so the folder also holds each level's full-detail GeoJSON (and each
// part's) under its layer name, e.g. CHL_ADM1.geojson: the same bytes as
// data/earth/CHL/CHL_ADM1.geojson, one file in dist/ (write-dist.ts links
// files with the same content), copied from the data as it is published.
import type { CheckedDataset, License, Manifest } from '../core/shared/manifest.ts';
import { LICENSE_URLS } from './pages/html.ts';
import type { CountryDownloads } from '../formats/downloads.ts';
import { mediaType } from '../core/media-types.ts';

/** One file of a country's downloads folder. */
export interface FolderFile {
  file: string; // e.g. "CHL_ADM1.gpkg", inside the folder
  format: string; // e.g. "gpkg", "geojson", "zip"
  bytes: number;
  sha256: string;
  level?: string; // e.g. "ADM1"; none for the country's archive
}

/** A data file published again in the downloads folder: dist path → where it comes from. */
export interface FolderCopy {
  source: string; // e.g. "data/earth/CHL/CHL_ADM1.geojson"
  sha256: string;
}

/** Returns the downloads folder of a country's files, e.g. "downloads/earth/CHL/". */
export function downloadsFolder(dl: CountryDownloads): string {
  return dl.archive.url.slice(0, dl.archive.url.lastIndexOf('/') + 1);
}

/**
 * Returns the full-detail GeoJSON files `m` publishes again in its downloads
 * folder, under their layer names (the other formats' names): dist path →
 * source. A dataset or part the downloads did not convert has none.
 */
export function geojsonCopies(m: Manifest, dl: CountryDownloads): Map<string, FolderCopy> {
  const folder = downloadsFolder(dl);
  const out = new Map<string, FolderCopy>();
  (m.datasets as CheckedDataset[]).forEach((d, i) => {
    const layers = dl.datasets[i];
    if (d.path && d.sha256 && layers?.whole)
      out.set(`${folder}${layers.whole.layer}.geojson`, { source: d.path, sha256: d.sha256 });
    (d.parts ?? []).forEach((p, j) => {
      const layer = layers?.parts[j]?.layer;
      if (layer) out.set(`${folder}${layer}.geojson`, { source: p.path, sha256: p.sha256 });
    });
  });
  return out;
}

/** Returns every file of a country's downloads folder but SHA256SUMS and datapackage.json, sorted by name. */
export function folderFiles(m: Manifest, dl: CountryDownloads): FolderFile[] {
  const files: FolderFile[] = [{ ...pick(dl.archive) }];
  const folder = downloadsFolder(dl);
  const copies = geojsonCopies(m, dl);
  dl.datasets.forEach((d, i) => {
    const level = m.datasets[i]?.level;
    for (const layer of [...(d.whole ? [d.whole] : []), ...d.parts]) {
      const copy = copies.get(`${folder}${layer.layer}.geojson`);
      const bytes = copy && bytesOf(m, copy.source);
      if (copy && bytes !== undefined)
        files.push({ file: `${layer.layer}.geojson`, format: 'geojson', bytes, sha256: copy.sha256, level });
      files.push(...layer.files.map((f) => ({ ...pick(f), level })));
    }
    files.push(...d.simplified.map((f) => ({ ...pick(f), level })));
  });
  return files.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

function pick(f: { file: string; format: string; bytes: number; sha256: string }): FolderFile {
  return { file: f.file, format: f.format, bytes: f.bytes, sha256: f.sha256 };
}

/** Returns the measured size of a data file the manifest lists (a dataset's or a part's). */
function bytesOf(m: Manifest, path: string): number | undefined {
  for (const d of m.datasets) {
    if (d.path === path) return d.bytes;
    for (const p of d.parts ?? []) if (p.path === path) return p.bytes;
  }
  return undefined;
}

/** Returns a licence as a Data Package names one: its Open Definition identifier ("other-pd" for public domain) and page. */
function licence(name: string): { name: string; path?: string; title?: string } {
  if (name === 'public-domain') return { name: 'other-pd', title: 'Public domain' };
  const path = LICENSE_URLS[name as License];
  return { name, ...(path ? { path } : {}) };
}

/** Returns a country's datapackage.json (Frictionless Data Package v2) for its downloads folder. */
export function renderDataPackage(m: Manifest, files: readonly FolderFile[]): string {
  const licences = [...new Set(m.datasets.map((d) => d.license))];
  const levelLicence = new Map<string, string>(m.datasets.map((d) => [d.level, d.license]));
  const doc = {
    $schema: 'https://datapackage.org/profiles/2.0/datapackage.json',
    name: `${m.body}-${m.iso_a3}`.toLowerCase(),
    title: `${m.name.en}: administrative boundaries`,
    description: `${m.name.en} (${m.datasets.map((d) => d.level).join(', ')}) from ${m.source.name}, retrieved ${m.source.retrieved}; every file of this folder, each with its size and sha256.`,
    licenses: licences.map(licence),
    sources: [{ title: m.source.name, path: m.source.url }],
    resources: files.map((f) => ({
      name: f.file.toLowerCase().replace(/[^-a-z0-9._]/g, '-'), // the names the spec allows
      path: f.file,
      format: f.format,
      mediatype: mediaType(f.format),
      bytes: f.bytes,
      hash: `sha256:${f.sha256}`,
      ...(f.level && licences.length > 1 ? { licenses: [licence(levelLicence.get(f.level)!)] } : {}),
    })),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
