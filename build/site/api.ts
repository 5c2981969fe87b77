// The precomputed JSON API under dist/api/v1/: one index of every manifest and
// one document per manifest, with download URLs that already include the base
// (e.g. "/catalogue/data/earth/CHL/CHL_ADM0.geojson"), so clients never join paths.
import type { DatasetDownloads, Download, LayerDownloads } from '../formats/downloads.ts';
import type { Manifest } from '../core/shared/manifest.ts';
import type { WorldFile } from '../formats/world-files.ts';
import type { LoadedManifest } from '../manifest/validate.ts';
import { manifestLevels, manifestLicenses } from '../manifest/summary.ts';
import {
  API_VERSION,
  type ApiDownload,
  type ApiIndex,
  type ApiLinks,
  type CountryDocument,
} from '../core/shared/api.ts';
import { countryApi, countryPage, fileUrl } from '../core/dist-paths.ts';
import type { CountryFacts } from './pages/country-page.ts';
import { unitIdsPath } from './api-unit-ids.ts';
import { apiUnits, levelDisplayBbox } from './api-units.ts';
import { datasetGeometry, type GeometryByFile } from './geometry-status.ts';
import { datasetCoverage, type CoverageByLevel } from './coverage-status.ts';

function links(base: string, file: string, m: Manifest): ApiLinks {
  return { page: `${base}${countryPage(m)}`, api: `${base}${countryApi(m)}`, manifest: fileUrl(base, file) };
}

/**
 * Returns the text of `api/v1/index.json`: a summary of every manifest (names,
 * codes, status, licences, levels, and per dataset its size, sha256 and URL),
 * in catalogue order; `geometry` ({invalid, checked}) where the build checked it;
 * then `world_files`, each level of each body in one file (world-files.ts).
 */
export function renderApiIndex(
  base: string,
  loaded: LoadedManifest[],
  byFile: GeometryByFile = new Map(),
  world: readonly WorldFile[] = [],
): string {
  const entries = loaded.map(({ file, manifest: m }) => ({
    body: m.body,
    iso_a3: m.iso_a3,
    ...(m.iso_a2 ? { iso_a2: m.iso_a2 } : {}),
    name: m.name,
    ...(m.m49_region ? { m49_region: m.m49_region } : {}),
    status: m.status,
    license: m.source.license,
    licenses: manifestLicenses(m),
    levels: manifestLevels(m),
    ...links(base, file, m),
    datasets: m.datasets.map((d) => ({
      level: d.level,
      features: d.features,
      ...(d.path ? { url: fileUrl(base, d.path), bytes: d.bytes, sha256: d.sha256 } : {}),
      ...(d.parts ? { parts: d.parts.length } : {}),
      license: d.license,
      ...geometryField(d, byFile),
    })),
  }));
  const world_files = world.map(({ body, level, format, url, bytes, sha256 }) => ({
    body,
    level,
    format,
    url: fileUrl(base, url),
    bytes,
    sha256,
  }));
  const index: ApiIndex = { api_version: API_VERSION, count: entries.length, entries, world_files };
  return `${JSON.stringify(index)}\n`;
}

/** Returns one download as the API lists it: format, absolute URL, bytes, sha256 (+ TopoJSON's grid). */
function downloadEntry(base: string, f: Download, layer: LayerDownloads) {
  const grid =
    f.format === 'topojson' && layer.topojson
      ? { quantization: layer.topojson.quantization, scale: layer.topojson.scale }
      : {};
  return { format: f.format, url: fileUrl(base, f.url), bytes: f.bytes, sha256: f.sha256, ...grid };
}

/** Returns a simplified copy as the API lists it: "geojson", its tolerance in metres, URL, bytes, sha256. */
function simplifiedEntry(base: string, f: Download): ApiDownload {
  return {
    format: 'geojson',
    tolerance_m: f.tolerance_m,
    url: fileUrl(base, f.url),
    bytes: f.bytes,
    sha256: f.sha256,
  };
}

/** Returns a dataset's `downloads`: its file's other formats (when it has a path), then its simplified copies. */
function datasetEntry(base: string, dl: DatasetDownloads | undefined) {
  const whole: { downloads?: ApiDownload[] } = layerEntry(base, dl?.whole);
  const simplified = (dl?.simplified ?? []).map((f) => simplifiedEntry(base, f));
  if (simplified.length === 0) return whole;
  return { ...whole, downloads: [...(whole.downloads ?? []), ...simplified] };
}

/** Returns the `downloads` of a level or part, and the Shapefile field names that differ from the properties. */
function layerEntry(base: string, layer: LayerDownloads | undefined) {
  if (!layer) return {};
  const renamed = Object.fromEntries(layer.shapefileRenamed.map((r) => [r.property, r.field]));
  return {
    downloads: layer.files.map((f) => downloadEntry(base, f, layer)),
    ...(layer.shapefileRenamed.length > 0 ? { shapefile_fields: renamed } : {}),
    ...(layer.skipped.length > 0 ? { not_converted: layer.skipped } : {}),
  };
}

/**
 * Returns the text of `api/v1/{body}/{ISO3}.json`: the manifest exactly as
 * published, plus `urls` giving each dataset's, preview's and part's URL (a
 * part with the name of its unit), the level's display bbox and each
 * dataset's `geometry` counts where the build checked them, and `units`: per
 * level, every unit (build/site/api-units.ts); with `downloads`, each level's
 * and part's other formats and `archive`, the whole-country .zip.
 */
export function renderApiCountry(
  base: string,
  { file, manifest: m }: LoadedManifest,
  { atlas = { levels: [] }, geometry: byFile, coverage, downloads, unitIds }: CountryFacts = {
    geometry: new Map(),
  },
): string {
  const units = apiUnits(base, m, atlas);
  const names = new Map((units.ADM1 ?? []).map((u) => [u.code, u.name]));
  const urls = m.datasets.map((d, i) => {
    const display = levelDisplayBbox(atlas, d.level);
    const dl = downloads?.datasets[i];
    return {
      level: d.level,
      ...(d.path ? { url: fileUrl(base, d.path) } : {}),
      ...(d.path && unitIds?.files.has(d.path) ? { unit_ids_url: fileUrl(base, unitIdsPath(m, d)) } : {}),
      ...datasetEntry(base, dl),
      ...(d.preview ? { preview_url: fileUrl(base, d.preview) } : {}),
      ...(display ? { display_bbox: display } : {}),
      ...(d.parts
        ? {
            parts: d.parts.map((p, j) => ({
              code: p.code,
              ...(names.get(p.code) ? { name: names.get(p.code) } : {}),
              url: fileUrl(base, p.path),
              ...(unitIds?.files.has(p.path)
                ? { unit_ids_url: fileUrl(base, unitIdsPath(m, d, p.code)) }
                : {}),
              ...layerEntry(base, dl?.parts[j]),
            })),
          }
        : {}),
      ...geometryField(d, byFile),
      ...coverageField(m, d, coverage),
    };
  });
  const a = downloads?.archive;
  const archive = a ? { archive: { url: fileUrl(base, a.url), bytes: a.bytes, sha256: a.sha256 } } : {};
  const doc: CountryDocument = {
    api_version: API_VERSION,
    ...links(base, file, m),
    manifest: m,
    urls,
    units,
    ...archive,
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** Returns { coverage: figures } for the first dataset of a checked level, else {}. */
function coverageField(m: Manifest, d: Manifest['datasets'][number], byLevel: CoverageByLevel | undefined) {
  const figures = datasetCoverage(m, d, byLevel);
  return figures ? { coverage: figures } : {};
}

/** Returns e.g. { geometry: { invalid: 3, checked: 27 } }, or {} when the dataset was not checked. */
function geometryField(d: Manifest['datasets'][number], byFile: GeometryByFile) {
  const counts = datasetGeometry(d, byFile);
  return counts ? { geometry: { invalid: counts.invalid, checked: counts.checked } } : {};
}
