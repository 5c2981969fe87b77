// The "World files" section of an index page: per level of the body, its
// world files (every country's features of that level in one file,
// build/formats/world-files.ts), each format with its size.
import { fileUrl } from '../../core/dist-paths.ts';
import type { WorldFile } from '../../formats/world-files.ts';
import type { WorldFormat } from '../../formats/world-cache.ts';
import { formatBytes, markup, type Html } from './html.ts';

const LABEL: Record<WorldFormat, string> = { geojson: 'GeoJSON', gpkg: 'GeoPackage', parquet: 'GeoParquet' };

/** Returns the section listing `files` (one body's) by level; "" when there are none. */
export function worldFilesSection(base: string, files: readonly WorldFile[]): Html | '' {
  if (files.length === 0) return '';
  const levels = [...new Set(files.map((f) => f.level))];
  const cell = (f: WorldFile | undefined) =>
    f
      ? markup`<td><a class="download" href="${fileUrl(base, f.url)}" download>${LABEL[f.format]}</a> <small>(${formatBytes(f.bytes)})</small></td>`
      : markup`<td></td>`;
  const rows = levels.map((level) => {
    const of = (format: WorldFormat) => files.find((f) => f.level === level && f.format === format);
    return markup`<tr><th scope="row">${level}</th>${cell(of('geojson'))}${cell(of('gpkg'))}${cell(of('parquet'))}</tr>
`;
  });
  return markup`<h2 id="world-files">World files</h2>
<p>Every country’s units of a level in one file, each with its properties plus <code>country</code> (ISO3), <code>license</code> and <code>attribution</code>. Rebuilt with the catalogue, so they always hold its latest data, and never part of a release; checksums in the <a href="${base}api/v1/index.json">JSON index</a> (<code>world_files</code>).</p>
<div class="table-scroll"><table class="world-files">
<thead><tr><th scope="col">Level</th><th scope="col">GeoJSON</th><th scope="col">GeoPackage</th><th scope="col">GeoParquet</th></tr></thead>
<tbody>
${rows}</tbody>
</table></div>
`;
}
