// Browser entry of the catalogue (bundled by vite into dist/assets/): the
// index page's instant search, filters and sorting, and the copy buttons of
// the country pages. Every page works without it; this only enhances.
import './style.css';
import './atlas.css';
import { enhanceSearch } from './atlas-search.ts';
import { comparator, matches, searchKey, type Filters, type RowKeys, type SortKey } from './search.ts';

/** The site's base path or URL, e.g. "/" or "/catalogue/" (from <body data-base>). */
const BASE = document.body.dataset.base ?? '/';

interface Row {
  element: HTMLTableRowElement;
  keys: RowKeys;
}

/**
 * Returns a row's keys, read from its cells (name link, Spanish name, ISO3,
 * ISO2, body, region, status, levels) and its `data-status`/`data-licenses`:
 * the page carries each value once, which keeps it small.
 */
function rowKeys(tr: HTMLTableRowElement): RowKeys {
  const text = (i: number) => (tr.cells[i]?.textContent ?? '').trim();
  const value = (i: number) => (text(i) === '–' ? '' : text(i));
  const name = tr.cells[0].querySelector('a')?.textContent ?? '';
  const es = tr.cells[0].querySelector('.es')?.textContent ?? '';
  return {
    search: searchKey([name, es, text(1), value(2)]),
    name,
    iso3: text(1),
    body: text(3),
    region: value(4),
    status: tr.dataset.status ?? '',
    levels: text(6).split(', '),
    licenses: (tr.dataset.licenses ?? '').split(' '),
  };
}

/** Wires the index's search form to its table; the state lives in the URL (?q=…&status=…). */
function enhanceIndex(form: HTMLFormElement, table: HTMLTableElement): void {
  const tbody = table.tBodies[0];
  const rows: Row[] = [...tbody.rows].map((element) => ({ element, keys: rowKeys(element) }));
  const count = document.getElementById('count');
  const field = (name: string) => form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement;
  let sortKey: SortKey = 'name';
  let descending = false;
  let found: Set<string> | null = null; // ISO3 codes the place search found by other names (UK, Holland…)

  const params = new URLSearchParams(location.search);
  for (const name of ['q', 'body', 'status', 'license', 'level']) {
    const value = params.get(name);
    if (value !== null && field(name)) field(name).value = value;
  }

  const apply = () => {
    const filters: Filters = {
      query: field('q').value,
      body: field('body').value,
      status: field('status').value,
      license: field('license').value,
      level: field('level').value,
    };
    let shown = 0;
    for (const row of rows) {
      const visible =
        matches(row.keys, filters) ||
        (found !== null && found.has(row.keys.iso3) && matches(row.keys, { ...filters, query: '' }));
      row.element.hidden = !visible;
      if (visible) shown++;
    }
    if (count) count.textContent = `Showing ${shown} of ${rows.length}`;
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries({ q: filters.query, ...filters })) {
      if (name !== 'query' && value) query.set(name, value);
    }
    if (sortKey !== 'name' || descending) query.set('sort', `${descending ? '-' : ''}${sortKey}`);
    const search = query.toString();
    history.replaceState(null, '', search ? `?${search}` : location.pathname);
  };

  const sort = (key: SortKey, desc = key === sortKey ? !descending : false) => {
    descending = desc;
    sortKey = key;
    rows.sort((a, b) => comparator(sortKey, descending)(a.keys, b.keys));
    tbody.append(...rows.map((row) => row.element));
    for (const th of table.tHead?.rows[0].cells ?? []) {
      const button = th.querySelector('button');
      if (!button) continue;
      if (button.dataset.sort === sortKey)
        th.setAttribute('aria-sort', descending ? 'descending' : 'ascending');
      else th.removeAttribute('aria-sort');
    }
    apply(); // the sort lives in the URL too
  };

  form.addEventListener('input', apply);
  form.addEventListener('submit', (event) => event.preventDefault());
  form.addEventListener('reset', () => setTimeout(apply));
  for (const button of table.querySelectorAll<HTMLButtonElement>('thead button[data-sort]')) {
    button.addEventListener('click', () => sort(button.dataset.sort as SortKey));
  }
  document.addEventListener('atlas-countries', (event) => {
    found = (event as CustomEvent<Set<string> | null>).detail;
    apply();
  });
  const search = enhanceSearch(field('q') as HTMLInputElement, BASE);
  const sorted = /^(-?)(name|iso3|body|region|status|levels)$/.exec(params.get('sort') ?? '');
  if (sorted) sort(sorted[2] as SortKey, sorted[1] === '-');
  if (location.search) {
    apply(); // a shared link, e.g. ?q=chile&status=ok
    if (field('q').value) void search();
  }
}

/** Copies `text` to the clipboard; falls back to selecting a hidden field where the API is missing (http). */
async function copyText(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('copy refused');
}

/** Makes every `button[data-copy]` copy its value and say so in its live region. */
function enhanceCopyButtons(): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-copy]')) {
    button.hidden = false;
    const label = button.textContent;
    button.addEventListener('click', async () => {
      try {
        await copyText(button.dataset.copy ?? '');
        button.textContent = 'Copied';
      } catch {
        button.textContent = 'Copy failed';
      }
      setTimeout(() => (button.textContent = label), 2000);
    });
  }
}

/**
 * On the 404 page: a lowercase country URL (/earth/chl/) goes to its country
 * (/earth/CHL/) when that page exists; otherwise the search box is wired.
 */
async function enhanceNotFound(form: HTMLFormElement): Promise<void> {
  const path = location.pathname.startsWith(new URL(BASE, location.href).pathname)
    ? location.pathname.slice(new URL(BASE, location.href).pathname.length)
    : '';
  const country = /^([a-z]+)\/([A-Za-z]{3})(\/.*)?$/.exec(path);
  if (country && country[2] !== country[2].toUpperCase()) {
    const target = `${BASE}${country[1]}/${country[2].toUpperCase()}${country[3] ?? '/'}`;
    const response = await fetch(target, { method: 'HEAD' }).catch(() => undefined);
    if (response?.ok) return location.replace(target + location.hash);
  }
  form.addEventListener('submit', (event) => event.preventDefault());
  const input = form.elements.namedItem('q') as HTMLInputElement;
  const search = enhanceSearch(input, BASE);
  const q = new URLSearchParams(location.search).get('q');
  if (q) {
    input.value = q;
    void search();
  }
}

const form = document.getElementById('filters');
const table = document.getElementById('catalogue');
if (form instanceof HTMLFormElement && table instanceof HTMLTableElement) enhanceIndex(form, table);
const siteSearch = document.getElementById('site-search');
if (siteSearch instanceof HTMLFormElement) void enhanceNotFound(siteSearch);
enhanceCopyButtons();
// The map and the units list load only on country pages, as chunks of their own.
const figure = document.querySelector<HTMLElement>('figure.map[data-maps]');
if (figure) void import('./map.ts').then(({ enhanceMap }) => enhanceMap(figure));
const units = document.getElementById('units');
if (units?.dataset.api) void import('./units-table.ts').then(({ enhanceUnits }) => enhanceUnits(units));
