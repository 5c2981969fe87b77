// The front page's search index, precomputed at build time and split into
// shards by the first two folded letters of each word (search/te.json holds
// every entry with a word starting "te": Texas, Tennessee, Tétouan…), so the
// browser loads one small file per query instead of the whole catalogue.
// Countries are found by every name world-countries (mledoze/countries) gives
// them: common, official, native, alternative spellings and 23 translations.
// That dataset is read here, at build time only; the browser gets the shards.
import { createRequire } from 'node:module';
import type { SearchRecord } from '../../src/shared/api.ts';
import { fold, shardKey, SHARD_PREFIX, words } from '../../src/shared/fold.ts';
import type { Manifest } from '../../src/shared/manifest.ts';
import { countryPage } from './pages/paths.ts';
import type { LoadedManifest } from '../manifest/validate.ts';
import type { CountryAtlas } from './atlas.ts';

interface WorldCountry {
  cca3: string;
  name: { common: string; official: string; native?: Record<string, { common: string; official: string }> };
  altSpellings?: string[];
  translations?: Record<string, { common: string; official: string }>;
  region?: string;
  subregion?: string;
}

let worldCountries: Map<string, WorldCountry> | undefined;

/** Returns world-countries by ISO3, loaded once (about 0.6 MB of JSON, never shipped to the browser). */
function countriesByIso3(): Map<string, WorldCountry> {
  if (!worldCountries) {
    const list = createRequire(import.meta.url)('world-countries/countries.json') as WorldCountry[];
    worldCountries = new Map(list.map((c) => [c.cca3, c]));
  }
  return worldCountries;
}

/** Returns every name of a country: the manifest's, then world-countries' (common, official, alternative, native, translated). */
export function countryNames(m: Manifest): string[] {
  const wc = countriesByIso3().get(m.iso_a3);
  const names = [m.name.en, m.name.es, m.iso_a3, m.iso_a2];
  if (wc) {
    names.push(wc.name.common, wc.name.official, ...(wc.altSpellings ?? []));
    for (const n of Object.values(wc.name.native ?? {})) names.push(n.common, n.official);
    for (const n of Object.values(wc.translations ?? {})) names.push(n.common, n.official);
  }
  return [...new Set(names.filter((n): n is string => !!n && n.trim() !== ''))];
}

/** Returns the M49 region and subregion of a country, e.g. ["South America", "Americas"]. */
function regionsOf(m: Manifest): string[] {
  const wc = countriesByIso3().get(m.iso_a3);
  return [...new Set([m.m49_region, wc?.subregion, wc?.region].filter((r): r is string => !!r))];
}

interface Entry {
  kind: SearchRecord[0];
  name: string;
  level: string;
  country: string;
  parent: string;
  link: string;
  members: string;
  names: string[]; // every name and code it is found by
}

function entries(loaded: LoadedManifest[], atlas: Map<string, CountryAtlas>): Entry[] {
  const out: Entry[] = [];
  const regions = new Map<string, string[]>();
  for (const { file, manifest: m } of loaded) {
    const page = countryPage(m);
    const country = { country: '', parent: '', members: m.iso_a3 };
    out.push({ kind: 'c', name: m.name.en, level: 'ADM0', link: page, ...country, names: countryNames(m) });
    for (const region of regionsOf(m)) regions.set(region, [...(regions.get(region) ?? []), m.iso_a3]);
    const levels = atlas.get(file)?.levels ?? [];
    const namesByCode = new Map<string, string>([[m.iso_a3, m.name.en]]);
    if (m.iso_a2) namesByCode.set(m.iso_a2, m.name.en);
    for (const level of levels) {
      for (const u of level.units) if (u.code && !namesByCode.has(u.code)) namesByCode.set(u.code, u.name);
    }
    for (const level of levels) {
      if (level.level === 'ADM0') continue; // the country itself
      for (const u of level.units) {
        out.push({
          kind: 'u',
          name: u.name || u.code,
          level: level.level,
          country: m.name.en,
          parent: namesByCode.get(u.parent) ?? u.parent,
          link: `${page}#unit-${u.id}`,
          members: '',
          names: [u.name, ...u.names, u.code].filter(Boolean),
        });
      }
    }
  }
  for (const [region, members] of regions) {
    const fields = { level: 'M49', country: '', parent: '', link: '', members: members.join(' ') };
    out.push({ kind: 'r', name: region, ...fields, names: [region] });
  }
  return out;
}

/**
 * Returns the shards of the search index, keyed by their path inside dist/
 * (e.g. "search/te.json"): each holds the records with a word in it, listing
 * only the names that have such a word (the rest are in other shards). Words
 * shorter than SHARD_PREFIX ("d" in "Côte d'Ivoire") shard nothing: a query
 * loads its shard by a word of at least that length.
 */
export function renderSearchIndex(
  loaded: LoadedManifest[],
  atlas: Map<string, CountryAtlas>,
): Map<string, string> {
  const shards = new Map<string, SearchRecord[]>();
  for (const e of entries(loaded, atlas)) {
    const byShard = new Map<string, string[]>();
    for (const name of e.names) {
      for (const word of words(fold(name))) {
        if (word.length < SHARD_PREFIX) continue;
        const key = shardKey(word);
        const list = byShard.get(key) ?? [];
        if (!list.includes(name)) list.push(name);
        byShard.set(key, list);
      }
    }
    for (const [key, names] of byShard) {
      // The matching names; [] when only the displayed name matches (most units), to keep shards small.
      const matched = names.length === 1 && names[0] === e.name ? [] : names;
      const record: SearchRecord = [e.kind, e.name, matched, e.level, e.country, e.parent, e.link, e.members];
      const shard = shards.get(key);
      if (shard) shard.push(record);
      else shards.set(key, [record]);
    }
  }
  const files = new Map<string, string>();
  for (const [key, records] of [...shards].sort(([a], [b]) => (a < b ? -1 : 1))) {
    files.set(`search/${key}.json`, `${JSON.stringify(records)}\n`);
  }
  return files;
}
