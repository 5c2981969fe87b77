// Pure helpers of the index page's search, filters and sorting: no DOM here,
// so the rules are unit-tested in Node (test/build/catalogue-filters.test.ts).

/** One index row as the client sees it (read from the row's cells by main.ts). */
export interface RowKeys {
  search: string; // normalised "chile chile chl cl", see searchKey()
  name: string; // e.g. "Chile"
  iso3: string;
  body: string;
  region: string;
  status: string;
  levels: string[]; // e.g. ["ADM0", "ADM1"]
  licenses: string[]; // e.g. ["CC-BY-2.5", "public-domain"]; a "mixed" manifest lists its licences
}

export interface Filters {
  query: string;
  body: string; // "" = any
  status: string;
  license: string;
  level: string;
}

/**
 * Returns `text` lowercased without diacritics, so "aland" finds "Åland"
 * and "peru" finds "Perú".
 */
export function normalise(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();
}

/** Returns the search key of a row: its names in every language and its codes, normalised. */
export function searchKey(parts: (string | undefined)[]): string {
  return normalise(parts.filter(Boolean).join(' '));
}

/**
 * Returns whether a row passes the filters. The query matches when every
 * word of it starts a word of the key ("rep cong" finds "Republic of the
 * Congo"), or appears inside a name when longer than two letters.
 */
export function matches(row: RowKeys, filters: Filters): boolean {
  if (filters.body && row.body !== filters.body) return false;
  if (filters.status && row.status !== filters.status) return false;
  if (filters.license && !row.licenses.includes(filters.license)) return false;
  if (filters.level && !row.levels.includes(filters.level)) return false;
  const words = normalise(filters.query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const keyWords = row.search.split(' ');
  return words.every(
    (word) => keyWords.some((k) => k.startsWith(word)) || (word.length > 2 && row.search.includes(word)),
  );
}

export type SortKey = 'name' | 'iso3' | 'body' | 'region' | 'status' | 'levels';

const STATUS_ORDER: Record<string, number> = { ok: 0, review: 1, deprecated: 2 };

/** Returns a comparator of rows by `key` (ties broken by name), reversed when `descending`. */
export function comparator(key: SortKey, descending: boolean): (a: RowKeys, b: RowKeys) => number {
  const sign = descending ? -1 : 1;
  const byName = (a: RowKeys, b: RowKeys) => a.name.localeCompare(b.name, 'en');
  const primary: Record<SortKey, (a: RowKeys, b: RowKeys) => number> = {
    name: byName,
    iso3: (a, b) => a.iso3.localeCompare(b.iso3),
    body: (a, b) => a.body.localeCompare(b.body),
    region: (a, b) => a.region.localeCompare(b.region, 'en'),
    status: (a, b) => (STATUS_ORDER[a.status] ?? 9) - (STATUS_ORDER[b.status] ?? 9),
    levels: (a, b) => a.levels.length - b.levels.length,
  };
  return (a, b) => sign * primary[key](a, b) || byName(a, b);
}
