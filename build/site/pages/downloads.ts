// The download links of the other formats on a country page (per level and
// per part), its "whole country" section, and the SHA256SUMS file beside
// the downloads (the format `sha256sum -c` checks).
import type { CountryDownloads, Download, LayerDownloads } from '../../formats/downloads.ts';
import { FORMAT_LABEL } from '../../formats/formats.ts';
import { formatBytes, formatInt, markup, nameText, type Html } from './html.ts';
import { fileUrl } from '../../core/dist-paths.ts';

/** Short labels for the crowded parts table, e.g. "GPKG". */
const SHORT: Record<string, string> = {
  gpkg: 'GPKG',
  fgb: 'FGB',
  shp: 'SHP',
  topojson: 'TopoJSON',
  parquet: 'Parquet',
};

function link(base: string, f: Download, label: string, describedBy: string, withSha: boolean): Html {
  const title = withSha ? `${formatInt(f.bytes)} bytes, sha256 ${f.sha256}` : `${formatInt(f.bytes)} bytes`;
  return markup`<a class="download" href="${fileUrl(base, f.url)}" download="${f.file}" aria-describedby="${describedBy}" title="${title}">${label}</a> <small>(${formatBytes(f.bytes)})</small>`;
}

/** Returns the format links of a level (long labels), one per line. */
export function levelLinks(base: string, layer: LayerDownloads | undefined, describedBy: string): Html[] {
  return (layer?.files ?? []).map((f) =>
    link(base, f, FORMAT_LABEL[f.format as keyof typeof FORMAT_LABEL], describedBy, true),
  );
}

/** Returns a tolerance as people say it, e.g. 100 → "100 m", 10000 → "10 km". */
function toleranceLabel(m: number): string {
  return m >= 1000 ? `${formatInt(m / 1000)} km` : `${formatInt(m)} m`;
}

/** Returns the links to a level's simplified copies on one line ("Simplified: 100 m, 1 km, 10 km"), or none. */
export function simplifiedLinks(base: string, files: Download[] | undefined, describedBy: string): Html[] {
  if (!files || files.length === 0) return [];
  const links = files.map(
    (f, i) => markup`${i ? ', ' : ''}${link(base, f, toleranceLabel(f.tolerance_m ?? 0), describedBy, true)}`,
  );
  return [markup`<span class="simplified">Simplified GeoJSON: ${links}</span>`];
}

/** Returns the format links of a part (short labels; sha256 in SHA256SUMS, to keep pages of 50 parts small). */
export function partLinks(base: string, layer: LayerDownloads | undefined, describedBy: string): Html[] {
  return (layer?.files ?? []).map((f) => link(base, f, SHORT[f.format], describedBy, false));
}

/** Returns the "Whole country and other formats" section of a country page. */
export function downloadsSection(base: string, name: string, downloads: CountryDownloads): Html {
  const a = downloads.archive;
  const folder = a.url.slice(0, a.url.lastIndexOf('/') + 1);
  const layers = downloads.datasets.flatMap((d) => [...(d.whole ? [d.whole] : []), ...d.parts]);
  const renamed = new Map<string, string>();
  for (const l of layers) for (const r of l.shapefileRenamed) renamed.set(r.property, r.field);
  const topo = layers.find((l) => l.topojson)?.topojson;
  const skipped = layers.flatMap((l) => l.skipped.map((s) => `${l.layer}: ${s.reason}`));
  const renames =
    renamed.size > 0
      ? markup` Shapefile field names are cut to 10 bytes: ${[...renamed].map(([p, f], i) => markup`${i ? ', ' : ''}<code>${p}</code> → <code>${f}</code>`)}.`
      : '';
  const grid = topo
    ? markup` TopoJSON is quantised to a grid step of at most 10⁻⁶° (about 0.1 m; the API gives each file's exact step); each position is within half a step of the GeoJSON's.`
    : '';
  const notConverted = skipped.length > 0 ? markup`<p>Not converted: ${skipped.join('; ')}.</p>` : '';
  return markup`<h2 id="downloads">Whole country and other formats</h2>
<p><a class="download archive" href="${fileUrl(base, a.url)}" download="${a.file}">${nameText(name)}: everything in one .zip</a> <small>(${formatBytes(a.bytes)})</small>: the manifest and every GeoJSON file it lists (levels, parts, previews).
sha256 <code class="sha">${a.sha256}</code> <button type="button" class="copy" data-copy="${a.sha256}" aria-label="Copy the sha256 of the ${name} archive" hidden>Copy</button></p>
<p>Each level and part is also published as GeoPackage (with an R-tree index), FlatGeobuf (with its spatial index, for HTTP range requests), a zipped Shapefile, TopoJSON and GeoParquet (1.1, with a bbox column, rows in Hilbert order, for DuckDB, GeoPandas and BigQuery), with the same features and properties; all but TopoJSON declare the manifest’s coordinate reference system (GeoParquet as PROJJSON).${renames}${grid}</p>
<p>Each level is also published simplified, as GeoJSON at tolerances of 100 m, 1 km and 10 km: every border shared by two units, or by two levels, is simplified once, so the copies have no gaps or overlaps; every unit keeps every ring, and no line moves farther than the tolerance. Checksums of every file: <a href="${fileUrl(base, `${folder}SHA256SUMS`)}">SHA256SUMS</a> (for <code>sha256sum -c</code>).</p>
${notConverted}`;
}

/** Returns the SHA256SUMS text of a country's downloads: "sha256  file" per line, sorted by file. */
export function checksums(files: readonly { file: string; sha256: string }[]): string {
  return files
    .map((f) => `${f.sha256}  ${f.file}\n`)
    .sort((a, b) => (a.slice(66) < b.slice(66) ? -1 : 1))
    .join('');
}
