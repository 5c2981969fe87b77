// The units list of a country page, in pages of UNITS_PAGE units per level
// sorted by name, readable without script: the country page carries each
// level's first page, and every further page is a small page of its own
// (earth/USA/units/ADM2/2/), linked from a pager. The script
// (src/client/units-table.ts) then turns the list into one filterable,
// sortable, paged table per level from the country's JSON document.
import type { Manifest } from '../core/shared/manifest.ts';
import { UNITS_PAGE } from '../core/shared/api.ts';
import { formatInt, markup, nameText, type Html } from './pages/html.ts';
import { renderPage, type PageContext } from './pages/layout.ts';
import { countryApi, countryPage, fileUrl } from '../core/dist-paths.ts';
import type { AtlasLevel, CountryAtlas } from './atlas.ts';
import type { Unit } from './units.ts';
import { bodyCrumb } from './pages/bodies.ts';

/** Returns the levels listed: every level but ADM0 that has units. */
function listedLevels(atlas: CountryAtlas): AtlasLevel[] {
  return atlas.levels.filter((l) => l.level !== 'ADM0' && l.units.length > 0);
}

/** Returns the units of a level in list order: by name, as the script sorts them first. */
function sorted(units: Unit[]): Unit[] {
  return [...units].sort((a, b) => a.name.localeCompare(b.name, 'en'));
}

/** Returns a parent code's name (a unit of any level, or the country), else the code. */
function parentNames(m: Manifest, atlas: CountryAtlas): (code: string) => string {
  const names = new Map<string, string>([[m.iso_a3, m.name.en]]);
  if (m.iso_a2) names.set(m.iso_a2, m.name.en);
  for (const l of atlas.levels)
    for (const u of l.units) if (u.code && !names.has(u.code)) names.set(u.code, u.name);
  return (code) => names.get(code) ?? code;
}

/** Returns the path inside dist/ of page `n` (2 or more) of a level's units, e.g. "earth/USA/units/ADM2/2/". */
function unitsPagePath(m: Manifest, level: string, n: number): string {
  return `${countryPage(m)}units/${encodeURIComponent(level)}/${n}/`;
}

/** Returns the URL of page `n` of a level's units: the country page's own list for page 1. */
function pageUrl(base: string, m: Manifest, level: string, n: number): string {
  return n === 1 ? `${base}${countryPage(m)}#units-${level}` : `${base}${unitsPagePath(m, level, n)}`;
}

/** Returns the page numbers a pager links: all of up to 9, else the first, the last and 2 either side of `n`. */
export function pagerPages(n: number, count: number): (number | null)[] {
  if (count <= 9) return Array.from({ length: count }, (_, i) => i + 1);
  const out: (number | null)[] = [];
  for (let k = 1; k <= count; k++) {
    if (k === 1 || k === count || Math.abs(k - n) <= 2) out.push(k);
    else if (out.at(-1) !== null) out.push(null); // a gap: "…"
  }
  return out;
}

function pager(base: string, m: Manifest, level: AtlasLevel, n: number): Html {
  const count = Math.ceil(level.units.length / UNITS_PAGE);
  if (count <= 1) return markup``;
  const url = (k: number) => pageUrl(base, m, level.level, k);
  const items = pagerPages(n, count).map((k) =>
    k === null
      ? markup`<li aria-hidden="true">…</li>`
      : k === n
        ? markup`<li><a href="${url(k)}" aria-current="page">${k}</a></li>`
        : markup`<li><a href="${url(k)}">${k}</a></li>`,
  );
  const prev = n > 1 ? markup`<a href="${url(n - 1)}" rel="prev">Previous</a>` : '';
  const next = n < count ? markup`<a href="${url(n + 1)}" rel="next">Next</a>` : '';
  return markup`<nav class="pager" aria-label="Pages of the ${level.level} units">${prev}<ol>${items}</ol>${next}</nav>
`;
}

/** Returns a level's table of `units`, each name linking to `permalink(id)`, each parent named by `parent`. */
function table(
  base: string,
  m: Manifest,
  parent: (code: string) => string,
  level: AtlasLevel,
  units: Unit[],
  permalink: (id: string) => string,
): Html {
  const parts = new Map(
    (m.datasets.find((d) => d.level === level.level)?.parts ?? []).map((p) => [p.code, p.path]),
  );
  const partHead = parts.size ? markup`<th scope="col">Part file</th>` : '';
  const rows = units.map((u) => {
    const path = u.part ? parts.get(u.part) : undefined;
    const part = parts.size
      ? markup`<td data-label="Part file">${path ? markup`<a class="download" href="${fileUrl(base, path)}">${u.part}.geojson</a>` : '–'}</td>`
      : '';
    return markup`<tr id="unit-${u.id}"><th scope="row" data-label="Name">${u.unit_id ? markup`<a id="unit-${u.unit_id}" href="${permalink(u.unit_id)}">` : markup`<a href="${permalink(u.id)}">`}${nameText(u.name || u.code || u.id)}</a></th><td data-label="Code">${u.code || '–'}</td><td data-label="Parent">${u.parent ? nameText(parent(u.parent)) : '–'}</td>${part}</tr>
`;
  });
  return markup`<div class="table-scroll"><table class="units-table stack">
<caption class="visually-hidden">${level.level} units of ${m.name.en}</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Code</th><th scope="col">Parent</th>${partHead}</tr></thead>
<tbody>
${rows}</tbody>
</table></div>
`;
}

function shownCount(level: AtlasLevel, n: number): string {
  const total = level.units.length;
  const from = (n - 1) * UNITS_PAGE + 1;
  const to = Math.min(n * UNITS_PAGE, total);
  return total <= UNITS_PAGE
    ? `${formatInt(total)} ${total === 1 ? 'unit' : 'units'}`
    : `units ${formatInt(from)}–${formatInt(to)} of ${formatInt(total)}, by name`;
}

/**
 * Returns the units section of a country page: each level's first page of
 * units (with its pager) and a link to the JSON document holding them all;
 * `history`: the URL of the country's history document, which the script
 * reads to show a unit's history on its permalink.
 */
export function unitsSection(base: string, m: Manifest, atlas: CountryAtlas, history?: string): Html {
  const levels = listedLevels(atlas);
  if (levels.length === 0) return markup``;
  const api = `${base}${countryApi(m)}`;
  const parent = parentNames(m, atlas);
  const sections = levels.map((level) => {
    const units = sorted(level.units).slice(0, UNITS_PAGE);
    return markup`<section class="units-level" data-level="${level.level}" aria-labelledby="units-${level.level}">
<h3 id="units-${level.level}">${level.level}: <span class="units-shown">${shownCount(level, 1)}</span></h3>
${table(base, m, parent, level, units, (id) => `#unit-${id}`)}${pager(base, m, level, 1)}</section>
`;
  });
  const historyAttribute = history ? markup` data-history="${history}"` : '';
  return markup`<section id="units" class="units" aria-labelledby="units-h" data-api="${api}"${historyAttribute}>
<h2 id="units-h">Units</h2>
<p>Every unit has a permalink on this page (e.g. <code>#unit-${levels[0].units[0].id}</code>); all of them, with their bounding boxes, are also in the <a href="${api}">JSON document</a> under <code>units</code>.</p>
${sections}</section>
`;
}

/** Returns the further pages of every level's units (page 2 on), by path inside dist/. */
export function unitsPages(context: PageContext, m: Manifest, atlas: CountryAtlas): Map<string, string> {
  const { base } = context;
  const files = new Map<string, string>();
  const country = `${base}${countryPage(m)}`;
  const paged = listedLevels(atlas).filter((level) => level.units.length > UNITS_PAGE);
  if (paged.length === 0) return files;
  const parent = parentNames(m, atlas);
  for (const level of paged) {
    const units = sorted(level.units);
    for (let n = 2; (n - 1) * UNITS_PAGE < units.length; n++) {
      const main = markup`<nav class="breadcrumb" aria-label="Breadcrumb"><ol><li><a href="${base}">Catalogue</a></li>${bodyCrumb(base, m)}<li><a href="${country}">${nameText(m.name.en)}</a></li><li aria-current="page">${level.level} units, page ${n}</li></ol></nav>
<h1>${nameText(m.name.en)}: ${level.level} <span class="units-shown">${shownCount(level, n)}</span></h1>
<p>Each name links to the unit's entry on the <a href="${country}">country page</a>, with the map and downloads.</p>
${table(base, m, parent, level, units.slice((n - 1) * UNITS_PAGE, n * UNITS_PAGE), (id) => `${country}#unit-${id}`)}${pager(base, m, level, n)}`;
      files.set(
        `${unitsPagePath(m, level.level, n)}index.html`,
        renderPage(context, {
          title: `${m.name.en} ${level.level} units, page ${n} (${m.iso_a3})`,
          description: `${level.level} units of ${m.name.en}: ${shownCount(level, n)}, with their codes and parents.`,
          main,
        }),
      );
    }
  }
  return files;
}
