// The precomputed JSON API under dist/api/v1/: one index of every manifest and
// one document per manifest, with download URLs that already include the base
// (e.g. "/catalogue/data/earth/CHL/CHL_ADM0.geojson"), so clients never join paths.
import type { Manifest } from '../manifest/types.ts';
import type { LoadedManifest } from '../manifest/validate.ts';
import { manifestLevels, manifestLicenses } from '../manifest/summary.ts';
import { countryApi, countryPage } from './pages/paths.ts';

/** Version of the API's own shape; the manifests inside keep their schema_version. */
export const API_VERSION = 1;

function links(base: string, file: string, m: Manifest) {
  return { page: `${base}${countryPage(m)}`, api: `${base}${countryApi(m)}`, manifest: `${base}${file}` };
}

/**
 * Returns the text of `api/v1/index.json`: a summary of every manifest (names,
 * codes, status, licences, levels, and per dataset its size, sha256 and URL),
 * in catalogue order.
 */
export function renderApiIndex(base: string, loaded: LoadedManifest[]): string {
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
      ...(d.path ? { url: `${base}${d.path}`, bytes: d.bytes, sha256: d.sha256 } : {}),
      ...(d.parts ? { parts: d.parts.length } : {}),
      license: d.license,
    })),
  }));
  return `${JSON.stringify({ api_version: API_VERSION, count: entries.length, entries })}\n`;
}

/**
 * Returns the text of `api/v1/{body}/{ISO3}.json`: the manifest exactly as
 * published, plus `urls` giving each dataset's, preview's and part's URL.
 */
export function renderApiCountry(base: string, { file, manifest: m }: LoadedManifest): string {
  const urls = m.datasets.map((d) => ({
    level: d.level,
    ...(d.path ? { url: `${base}${d.path}` } : {}),
    ...(d.preview ? { preview_url: `${base}${d.preview}` } : {}),
    ...(d.parts ? { parts: d.parts.map((p) => ({ code: p.code, url: `${base}${p.path}` })) } : {}),
  }));
  return `${JSON.stringify({ api_version: API_VERSION, ...links(base, file, m), manifest: m, urls }, null, 2)}\n`;
}
