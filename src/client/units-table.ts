// The country page's units list: one table per level, rendered from the
// country's JSON document (a level may hold 50,000 units: the page does not
// carry them as HTML), filterable and sortable, with the filter and sort in
// the URL (?units=tex&usort=code). Every row is a permalink target
// (#unit-US-TX): on arrival the script renders the list, then scrolls to it.
import { countryDocument, parentName, type ApiUnit, type CountryDocument } from './country-data.ts';
import { fold } from '../shared/fold.ts';

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

function cell(tr: HTMLTableRowElement, text: string, tag: 'td' | 'th' = 'td'): HTMLElement {
  const c = document.createElement(tag);
  c.textContent = text || '–';
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
  const th = cell(tr, '', 'th');
  th.setAttribute('scope', 'row');
  const link = document.createElement('a');
  link.href = `#unit-${row.unit.id}`;
  link.textContent = row.unit.name || row.unit.code || row.unit.id;
  link.title = 'Permalink';
  th.replaceChildren(link);
  cell(tr, row.unit.code);
  cell(tr, row.parent);
  if (!withParts) return tr;
  const part = row.unit.part ? partUrl(row.unit.part) : undefined;
  const td = cell(tr, '');
  if (part && row.unit.part) {
    const a = document.createElement('a');
    a.href = part;
    a.className = 'download';
    a.textContent = `${row.unit.part}.geojson`;
    td.replaceChildren(a);
  }
  return tr;
}

function levelTable(doc: CountryDocument, level: string, units: ApiUnit[], params: URLSearchParams) {
  const parts = doc.urls.find((u) => u.level === level)?.parts ?? [];
  const partUrl = (code: string) => parts.find((p) => p.code === code)?.url;
  const rows: Row[] = units.map((unit) => {
    const parent = unit.parent ? parentName(doc, unit.parent) : '';
    return {
      unit,
      parent,
      search: fold([unit.name, ...(unit.other_names ?? []), unit.code, parent].join(' ')),
    };
  });
  const section = document.createElement('section');
  section.className = 'units-level';
  const h = document.createElement('h3');
  h.id = `units-${level}`;
  h.textContent = `${level}: ${units.length.toLocaleString('en-US')} units`;
  const label = document.createElement('label');
  const input = document.createElement('input');
  input.type = 'search';
  input.id = `units-filter-${level}`;
  input.value = params.get(`f${level}`) ?? '';
  label.htmlFor = input.id;
  label.textContent = `Filter the ${level} units by name, code or parent`;
  const count = document.createElement('p');
  count.setAttribute('role', 'status');
  const table = document.createElement('table');
  table.className = 'units-table';
  table.innerHTML = '<caption class="visually-hidden"></caption><thead><tr></tr></thead><tbody></tbody>';
  table.caption!.textContent = `${level} units of ${doc.manifest.name.en}; column buttons sort`;
  const head = table.tHead!.rows[0];
  const sortSpec = /^(-?)(name|code|parent)$/.exec(params.get(`s${level}`) ?? '');
  let sortKey: Key = (sortSpec?.[2] as Key) ?? 'name';
  let descending = sortSpec?.[1] === '-';
  const columns = parts.length ? [...COLUMNS, ['part', 'Part file'] as const] : COLUMNS;
  for (const [key, text] of columns) {
    const th = document.createElement('th');
    th.scope = 'col';
    if (key === 'part') th.textContent = text;
    else {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = text;
      b.dataset.sort = key;
      th.append(b);
    }
    head.append(th);
  }
  const tbody = table.tBodies[0];
  const update = () => {
    const q = fold(input.value);
    const shown = rows.filter((r) => !q || r.search.includes(q));
    const value = (r: Row) => (sortKey === 'parent' ? r.parent : r.unit[sortKey]);
    shown.sort((a, b) => (descending ? -1 : 1) * value(a).localeCompare(value(b), 'en'));
    tbody.replaceChildren(...shown.map((r) => (r.tr ??= renderRow(r, parts.length > 0, partUrl))));
    count.textContent = `Showing ${shown.length.toLocaleString('en-US')} of ${rows.length.toLocaleString('en-US')}`;
    for (const th of head.cells) {
      const key = th.querySelector('button')?.dataset.sort;
      if (key === sortKey) th.setAttribute('aria-sort', descending ? 'descending' : 'ascending');
      else th.removeAttribute('aria-sort');
    }
    const url = new URL(location.href);
    url.searchParams.delete(`f${level}`);
    url.searchParams.delete(`s${level}`);
    if (input.value) url.searchParams.set(`f${level}`, input.value);
    if (sortKey !== 'name' || descending)
      url.searchParams.set(`s${level}`, `${descending ? '-' : ''}${sortKey}`);
    history.replaceState(history.state, '', url);
  };
  head.addEventListener('click', (e) => {
    const key = (e.target as HTMLElement).closest('button')?.dataset.sort as Key | undefined;
    if (!key) return;
    descending = key === sortKey ? !descending : false;
    sortKey = key;
    update();
  });
  input.addEventListener('input', update);
  update();
  const scroll = document.createElement('div');
  scroll.className = 'table-scroll';
  scroll.append(table);
  section.append(h, label, input, count, scroll);
  return { section, rows, input, update };
}

/** Renders the units of every level but ADM0 into `section`, then follows a permalink (#unit-…). */
export async function enhanceUnits(section: HTMLElement): Promise<void> {
  const doc = await countryDocument();
  if (!doc) return;
  section.querySelector('.needs-js')?.remove();
  const params = new URLSearchParams(location.search);
  const tables = Object.entries(doc.units)
    .filter(([level, units]) => level !== 'ADM0' && units.length > 0)
    .map(([level, units]) => levelTable(doc, level, units, params));
  section.append(...tables.map((t) => t.section));

  const follow = () => {
    if (!location.hash.startsWith('#unit-')) return;
    const id = decodeURIComponent(location.hash.slice('#unit-'.length));
    for (const t of tables) {
      const row = t.rows.find((r) => r.unit.id === id);
      if (!row) continue;
      if (!row.tr?.isConnected) {
        t.input.value = ''; // a filter hid it: show everything again
        t.update();
      }
      document.querySelector('tr.target')?.classList.remove('target');
      row.tr!.classList.add('target');
      row.tr!.scrollIntoView({ block: 'center' });
      row.tr!.focus({ preventScroll: true });
      return;
    }
  };
  window.addEventListener('hashchange', follow);
  follow();
}
