// The country page's units list, enhanced: the page as built lists each
// level's first UNITS_PAGE units and links further pages (build/site/units-list.ts);
// this script replaces that with one table per level rendered from the
// country's JSON document (a level may hold 50,000 units), filterable,
// sortable and paged, showing one level at a time (a level switch, in step
// with the map's through the geoshelf:level event). Filter, sort, page and
// level live in the URL (?fADM2=tex&sADM2=-code&pADM2=3&ulevel=ADM2). Every
// row is a permalink target (#unit-US-TX): on arrival the script opens the
// row's level and page, then scrolls to it; choosing a unit in the list
// announces it as a geoshelf:select event, and a unit selected elsewhere
// (map, search) is shown in the list.
import {
  countryDocument,
  documentLink,
  parentName,
  unitAnchor,
  type ApiUnit,
  type CountryDocument,
} from './country-data.ts';
import { onLevel, onSelect, select, switchLevel } from './events.ts';
import { permalinkId } from './permalink.ts';
import { showUnitHistory } from './unit-history.ts';
import { UNITS_PAGE } from '../../build/core/shared/api.ts';
import { fold } from '../../build/core/shared/fold.ts';

type Key = 'name' | 'code' | 'parent';
const COLUMNS: [Key, string][] = [
  ['name', 'Name'],
  ['code', 'Code'],
  ['parent', 'Parent'],
];

interface Row {
  unit: ApiUnit;
  parent: string;
  search: string;
  tr?: HTMLTableRowElement;
}

interface LevelTable {
  level: string;
  section: HTMLElement;
  rows: Row[];
  /** Shows the page holding `row` (clearing a filter that hides it); returns its <tr>. */
  reveal: (row: Row) => HTMLTableRowElement;
}

function cell(tr: HTMLTableRowElement, label: string, text: string, tag: 'td' | 'th' = 'td'): HTMLElement {
  const c = document.createElement(tag);
  c.textContent = text || '–';
  c.dataset.label = label; // the narrow-screen card layout (.stack) shows it
  tr.append(c);
  return c;
}

function renderRow(
  row: Row,
  withParts: boolean,
  partUrl: (code: string) => string | undefined,
): HTMLTableRowElement {
  const tr = document.createElement('tr');
  tr.id = `unit-${row.unit.id}`;
  tr.tabIndex = -1;
  const th = cell(tr, 'Name', '', 'th');
  th.setAttribute('scope', 'row');
  const link = document.createElement('a');
  link.href = `#unit-${row.unit.unit_id ?? row.unit.id}`;
  if (row.unit.unit_id) link.id = `unit-${row.unit.unit_id}`;
  link.textContent = row.unit.name || row.unit.code || row.unit.id;
  link.title = 'Permalink';
  th.replaceChildren(link);
  cell(tr, 'Code', row.unit.code);
  cell(tr, 'Parent', row.parent);
  if (!withParts) return tr;
  const part = row.unit.part ? partUrl(row.unit.part) : undefined;
  const td = cell(tr, 'Part file', '');
  if (part && row.unit.part) {
    const a = document.createElement('a');
    a.href = part;
    a.className = 'download';
    a.textContent = `${row.unit.part}.geojson`;
    td.replaceChildren(a);
  }
  return tr;
}

function button(text: string): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  return b;
}

const int = (n: number) => n.toLocaleString('en-US');

/** A table's sort and page, as the URL keeps them (?sADM2=-code&pADM2=3). */
interface TableState {
  sortKey: Key;
  descending: boolean;
  page: number;
}

function stateOf(level: string, params: URLSearchParams): TableState {
  const sortSpec = /^(-?)(name|code|parent)$/.exec(params.get(`s${level}`) ?? '');
  return {
    sortKey: (sortSpec?.[2] as Key) ?? 'name',
    descending: sortSpec?.[1] === '-',
    page: Math.max(1, Number(params.get(`p${level}`)) || 1),
  };
}

/** Puts a table's filter, sort and page in the URL, leaving out what is the default. */
function keepInUrl(level: string, filter: string, state: TableState): void {
  const url = new URL(location.href);
  for (const p of ['f', 's', 'p']) url.searchParams.delete(`${p}${level}`);
  if (filter) url.searchParams.set(`f${level}`, filter);
  if (state.sortKey !== 'name' || state.descending)
    url.searchParams.set(`s${level}`, `${state.descending ? '-' : ''}${state.sortKey}`);
  if (state.page > 1) url.searchParams.set(`p${level}`, String(state.page));
  history.replaceState(history.state, '', url);
}

/** Returns the table with its caption and a header row whose sortable columns are buttons. */
function emptyTable(doc: CountryDocument, level: string, withParts: boolean): HTMLTableElement {
  const table = document.createElement('table');
  table.className = 'units-table stack';
  table.innerHTML = '<caption class="visually-hidden"></caption><thead><tr></tr></thead><tbody></tbody>';
  table.caption!.textContent = `${level} units of ${doc.manifest.name.en}; column buttons sort`;
  const columns = withParts ? [...COLUMNS, ['part', 'Part file'] as const] : COLUMNS;
  for (const [key, text] of columns) {
    const th = document.createElement('th');
    th.scope = 'col';
    if (key === 'part') th.textContent = text;
    else {
      const b = button(text);
      b.dataset.sort = key;
      th.append(b);
    }
    table.tHead!.rows[0]!.append(th);
  }
  return table;
}

/** Returns the filter box (with its label) of a level's table. */
function filterBox(level: string, params: URLSearchParams): [HTMLLabelElement, HTMLInputElement] {
  const label = document.createElement('label');
  const input = document.createElement('input');
  input.type = 'search';
  input.id = `units-filter-${level}`;
  input.value = params.get(`f${level}`) ?? '';
  label.htmlFor = input.id;
  label.textContent = `Filter the ${level} units by name, code or parent`;
  return [label, input];
}

/** Returns the pager of a level's table: Previous, "Page n of m", Next. */
function pagerOf(level: string) {
  const nav = document.createElement('nav');
  nav.className = 'pager';
  nav.setAttribute('aria-label', `Pages of the ${level} units`);
  const prev = button('Previous');
  const next = button('Next');
  const where = document.createElement('span');
  nav.append(prev, where, next);
  return { nav, prev, next, where };
}

/** Returns the status line: which rows are shown, of how many found and in all. */
function countText(from: number, length: number, found: number, all: number): string {
  if (found <= UNITS_PAGE) return `Showing ${int(found)} of ${int(all)}`;
  const of = found < all ? ` found (${int(all)} in all)` : '';
  return `Showing ${int(from + 1)}–${int(from + length)} of ${int(found)}${of}`;
}

function rowsOf(doc: CountryDocument, units: ApiUnit[]): Row[] {
  return units.map((unit) => {
    const parent = unit.parent ? parentName(doc, unit.parent) : '';
    return {
      unit,
      parent,
      search: fold([unit.name, ...(unit.other_names ?? []), unit.code, parent].join(' ')),
    };
  });
}

function levelTable(
  doc: CountryDocument,
  level: string,
  units: ApiUnit[],
  params: URLSearchParams,
): LevelTable {
  const parts = doc.urls.find((u) => u.level === level)?.parts ?? [];
  const partUrl = (code: string) => {
    const url = parts.find((p) => p.code === code)?.url;
    return url === undefined ? undefined : documentLink(url);
  };
  const rows = rowsOf(doc, units);
  const h = document.createElement('h3');
  h.id = `units-${level}`;
  h.textContent = `${level}: ${int(units.length)} ${units.length === 1 ? 'unit' : 'units'}`;
  const [label, input] = filterBox(level, params);
  const count = document.createElement('p');
  count.setAttribute('role', 'status');
  const table = emptyTable(doc, level, parts.length > 0);
  const head = table.tHead!.rows[0]!;
  const tbody = table.tBodies[0]!;
  const pager = pagerOf(level);
  const state = stateOf(level, params);

  let shown: Row[] = [];
  const value = (r: Row) => (state.sortKey === 'parent' ? r.parent : r.unit[state.sortKey]);
  const update = () => {
    const q = fold(input.value);
    shown = rows.filter((r) => !q || r.search.includes(q));
    shown.sort((a, b) => (state.descending ? -1 : 1) * value(a).localeCompare(value(b), 'en'));
    const pages = Math.max(1, Math.ceil(shown.length / UNITS_PAGE));
    state.page = Math.min(state.page, pages);
    const from = (state.page - 1) * UNITS_PAGE;
    const slice = shown.slice(from, from + UNITS_PAGE);
    tbody.replaceChildren(...slice.map((r) => (r.tr ??= renderRow(r, parts.length > 0, partUrl))));
    count.textContent = countText(from, slice.length, shown.length, rows.length);
    pager.nav.hidden = pages === 1;
    pager.where.textContent = `Page ${int(state.page)} of ${int(pages)}`;
    pager.prev.disabled = state.page === 1;
    pager.next.disabled = state.page === pages;
    markSorted(head, state);
    keepInUrl(level, input.value, state);
  };
  head.addEventListener('click', (e) => {
    const key = (e.target as HTMLElement).closest('button')?.dataset.sort as Key | undefined;
    if (!key) return;
    state.descending = key === state.sortKey ? !state.descending : false;
    state.sortKey = key;
    state.page = 1;
    update();
  });
  input.addEventListener('input', () => {
    state.page = 1;
    update();
  });
  const turn = (by: number) => {
    state.page += by;
    update();
    h.scrollIntoView({ block: 'nearest' }); // the new page starts where the reader looks
  };
  pager.prev.addEventListener('click', () => turn(-1));
  pager.next.addEventListener('click', () => turn(1));
  update();
  const reveal = (row: Row) => {
    if (!shown.includes(row)) {
      input.value = ''; // a filter hid it: show everything again
      update();
    }
    const at = Math.floor(shown.indexOf(row) / UNITS_PAGE) + 1;
    if (at !== state.page) {
      state.page = at;
      update();
    }
    return row.tr!;
  };
  const scroll = document.createElement('div');
  scroll.className = 'table-scroll';
  scroll.append(table);
  return { level, section: levelSection(level, h, [label, input, count, scroll, pager.nav]), rows, reveal };
}

/** Marks the header cell of the sorted column (aria-sort), and only it. */
function markSorted(head: HTMLTableRowElement, state: TableState): void {
  for (const th of head.cells) {
    const key = th.querySelector('button')?.dataset.sort;
    if (key === state.sortKey) th.setAttribute('aria-sort', state.descending ? 'descending' : 'ascending');
    else th.removeAttribute('aria-sort');
  }
}

/** Returns a level's section: its heading, then the rest. */
function levelSection(level: string, heading: HTMLElement, rest: HTMLElement[]): HTMLElement {
  const section = document.createElement('section');
  section.className = 'units-level';
  section.dataset.level = level;
  section.setAttribute('aria-labelledby', heading.id);
  section.append(heading, ...rest);
  return section;
}

/** Returns the level switch of the units list: a labelled <select> of `levels`. */
function levelChooser(levels: string[]): { chooser: HTMLElement; picker: HTMLSelectElement } {
  const chooser = document.createElement('p');
  chooser.className = 'units-levels';
  const picker = document.createElement('select');
  picker.id = 'units-level';
  for (const level of levels) picker.add(new Option(level, level));
  const pickerLabel = document.createElement('label');
  pickerLabel.htmlFor = picker.id;
  pickerLabel.textContent = 'Level ';
  chooser.append(pickerLabel, picker);
  return { chooser, picker };
}

/**
 * Replaces the built list of `section` (#units) with the enhanced one, then
 * follows a permalink (#unit-…) and keeps the shown level in step with the map.
 */
export async function enhanceUnits(section: HTMLElement): Promise<void> {
  const doc = await countryDocument();
  if (!doc) return; // the built list stays
  const params = new URLSearchParams(location.search);
  const tables = Object.entries(doc.units)
    .filter(([level, units]) => level !== 'ADM0' && units && units.length > 0)
    .map(([level, units]) => levelTable(doc, level, units, params));
  if (tables.length === 0) return;
  section.querySelectorAll('.units-level').forEach((s) => s.remove());

  // One level at a time: the one in the URL, else the map's, else the first.
  const levels = tables.map((t) => t.level);
  const mapLevel = document.querySelector<HTMLElement>('figure.map')?.dataset.level ?? '';
  const usual = levels.includes(mapLevel) ? mapLevel : levels[0]; // left out of the URL
  let current = [params.get('ulevel'), usual].find((l) => l && levels.includes(l)) ?? usual;
  const { chooser, picker } = levelChooser(levels);
  if (levels.length > 1) section.append(chooser);
  section.append(...tables.map((t) => t.section));

  const show = (level: string) => {
    current = level;
    picker.value = level;
    for (const t of tables) t.section.hidden = t.level !== level;
    const url = new URL(location.href);
    if (level === usual) url.searchParams.delete('ulevel');
    else url.searchParams.set('ulevel', level);
    history.replaceState(history.state, '', url);
  };
  show(current);
  picker.addEventListener('change', () => {
    show(picker.value);
    switchLevel({ level: picker.value });
  });
  onLevel(({ level }) => {
    if (level !== current && levels.includes(level)) show(level);
  });

  /** Shows the unit `id` (of `level` when given) in the list and marks it; returns its level and row. */
  const reveal = (id: string, level?: string) => {
    for (const t of tables) {
      if (level && t.level !== level) continue;
      const row = t.rows.find((r) => r.unit.id === id);
      if (!row) continue;
      if (t.level !== current) show(t.level);
      const tr = t.reveal(row);
      document.querySelector('tr.target')?.classList.remove('target');
      tr.classList.add('target');
      return { level: t.level, tr };
    }
    return undefined;
  };

  const unitOf = (id: string) => tables.flatMap((t) => t.rows).find((r) => r.unit.id === id)?.unit;
  const byUnitId = (unitId: string) =>
    tables.flatMap((t) => t.rows).find((r) => r.unit.unit_id === unitId)?.unit;
  let clicked = ''; // the id of a unit whose link in the list was just followed
  section.addEventListener('click', (e) => {
    const link = (e.target as HTMLElement).closest<HTMLAnchorElement>('tbody th a[href^="#unit-"]');
    const named = link ? permalinkId(link.hash) : undefined;
    if (named !== undefined) clicked = unitAnchor(doc, named);
  });
  const follow = () => {
    const named = permalinkId(location.hash);
    if (named === undefined) return;
    const id = unitAnchor(doc, named);
    const found = reveal(id);
    if (!found) return;
    found.tr.scrollIntoView({ block: 'center' });
    found.tr.focus({ preventScroll: true });
    select({ level: found.level, id, source: clicked === id ? 'list' : 'hash' });
    clicked = '';
    void showUnitHistory(section, unitOf(id), byUnitId);
  };
  onSelect(({ level, id, source }) => {
    if (source === 'map' || source === 'search') reveal(id, level); // shown and marked, the focus stays
  });
  window.addEventListener('hashchange', follow);
  follow();
}
