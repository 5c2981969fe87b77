// The index page's table of every country: the filter form and the place
// search narrow it, its column buttons sort it, and the state lives in the
// URL (?q=chile&status=ok&sort=-iso3), so a filtered view can be shared.
import { showPlaces } from './events.ts';
import { enhanceSearch } from './place-search.ts';
import {
  comparator,
  matches,
  searchKey,
  type Filters,
  type RowKeys,
  type SortKey,
} from './catalogue-filters.ts';

interface Row {
  element: HTMLTableRowElement;
  keys: RowKeys;
  page: string; // the country page's URL as linked, e.g. "/earth/CHL/": the world map's unit id
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
export function enhanceIndex(form: HTMLFormElement, table: HTMLTableElement, base: string): void {
  const tbody = table.tBodies[0];
  const rows: Row[] = [...tbody.rows].map((element) => ({
    element,
    keys: rowKeys(element),
    page: element.cells[0].querySelector('a')?.getAttribute('href') ?? '',
  }));
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
    const shown: string[] = [];
    for (const row of rows) {
      const visible =
        matches(row.keys, filters) ||
        (found !== null && found.has(row.keys.iso3) && matches(row.keys, { ...filters, query: '' }));
      row.element.hidden = !visible;
      if (visible) shown.push(row.page);
    }
    if (count) count.textContent = `Showing ${shown.length} of ${rows.length}`;
    showPlaces(shown.length === rows.length ? null : shown); // the world map highlights them
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
  const search = enhanceSearch(field('q') as HTMLInputElement, base);
  const sorted = /^(-?)(name|iso3|body|region|status|levels)$/.exec(params.get('sort') ?? '');
  if (sorted) sort(sorted[2] as SortKey, sorted[1] === '-');
  if (location.search) {
    apply(); // a shared link, e.g. ?q=chile&status=ok
    if (field('q').value) void search();
  }
}
