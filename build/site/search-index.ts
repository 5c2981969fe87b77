// The front page's search index, precomputed at build time and split into
// shards by the first two folded letters of each word (search/te.json holds
// every entry with a word starting "te": Texas, Tennessee, Tétouan…), so the
// browser loads one small file per query instead of the whole catalogue.
// Countries are found by every name world-countries (mledoze/countries) gives
// them: common, official, native, alternative spellings and 23 translations;
// ISO 3166-2 subdivisions also by their English and other-language names
// (subdivision-names.ts). Both are read here, at build time only; the browser
// gets the shards.
import { createRequire } from 'node:module';
import type { SearchRecord } from '../../src/shared/api.ts';
import { fold, nameShardKeys, words } from '../../src/shared/fold.ts';
import type { Manifest } from '../../src/shared/manifest.ts';
import { countryPage } from './pages/paths.ts';
import type { LoadedManifest } from '../manifest/validate.ts';
import type { CountryAtlas } from './atlas.ts';
import { subdivisionNames } from './subdivision-names.ts';

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
  countries: string; // see SearchRecord: a region's members, a country's or a unit's country's ISO3
  names: IndexedName[]; // every name and code it is found by
  others: IndexedName[]; // names in other languages, ranked after `names`
  unitId?: string; // a unit's release ID
}

/** A name folded once: its folded words joined, which tell repeats apart ("Québec" = "Quebec"), and its shards. */
interface IndexedName {
  text: string; // e.g. "Québec"
  key: string; // e.g. "quebec"
  shards: string[]; // e.g. ["qu"] (nameShardKeys)
}

function indexed(text: string): IndexedName {
  const folded = words(fold(text));
  return { text, key: folded.join(' '), shards: nameShardKeys(folded) };
}

/** Returns `names` without repeats by folded words ("Québec" = "Quebec"), and without those in `except`. */
function distinct(names: string[], except: IndexedName[] = []): IndexedName[] {
  const seen = new Set(except.map((n) => n.key));
  const out: IndexedName[] = [];
  for (const text of names) {
    const name = indexed(text);
    if (!name.key || seen.has(name.key)) continue;
    seen.add(name.key);
    out.push(name);
  }
  return out;
}

/** Returns the entries of one country's units (every level but ADM0), named and ranked by their names. */
function unitEntries(m: Manifest, atlas: CountryAtlas | undefined): Entry[] {
  const page = countryPage(m);
  const levels = atlas?.levels ?? [];
  const namesByCode = new Map<string, string>([[m.iso_a3, m.name.en]]);
  if (m.iso_a2) namesByCode.set(m.iso_a2, m.name.en);
  for (const level of levels) {
    for (const u of level.units) if (u.code && !namesByCode.has(u.code)) namesByCode.set(u.code, u.name);
  }
  const out: Entry[] = [];
  for (const level of levels) {
    if (level.level === 'ADM0') continue; // the country itself
    for (const u of level.units) {
      const more = subdivisionNames(u.code, m.iso_a2);
      const names = distinct([u.name, ...u.names, u.code, ...(more?.en ?? [])]);
      out.push({
        kind: 'u',
        name: u.name || u.code,
        level: level.level,
        country: m.name.en,
        parent: namesByCode.get(u.parent) ?? u.parent,
        link: `${page}#unit-${u.unit_id ?? u.id}`,
        countries: m.iso_a3,
        names,
        others: more?.other ? distinct(more.other, names) : [],
        unitId: u.unit_id,
      });
    }
  }
  return out;
}

/** Yields every entry: each country, then its units; last the M49 regions with their member countries. */
function* entries(loaded: LoadedManifest[], atlas: Map<string, CountryAtlas>): Generator<Entry> {
  const regions = new Map<string, string[]>();
  for (const { file, manifest: m } of loaded) {
    const country = { country: '', parent: '', countries: m.iso_a3, others: [] };
    yield {
      kind: 'c',
      name: m.name.en,
      level: 'ADM0',
      link: countryPage(m),
      ...country,
      names: countryNames(m).map(indexed),
    };
    for (const region of regionsOf(m)) regions.set(region, [...(regions.get(region) ?? []), m.iso_a3]);
    yield* unitEntries(m, atlas.get(file));
  }
  for (const [region, members] of regions) {
    const fields = {
      level: 'M49',
      country: '',
      parent: '',
      link: '',
      countries: members.join(' '),
      others: [],
    };
    yield { kind: 'r', name: region, ...fields, names: [indexed(region)] };
  }
}

/** Returns `names` grouped by the shards they are stored under (nameShardKeys). */
function byShard(names: IndexedName[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const { text, shards } of names) {
    for (const key of shards) {
      const texts = out.get(key);
      if (texts) texts.push(text);
      else out.set(key, [text]);
    }
  }
  return out;
}

/**
 * Returns the shards of the search index, keyed by their path inside dist/
 * (e.g. "search/te.json"): each holds the records with a word in it, listing
 * only the names that have such a word (the rest are in other shards). Words
 * shorter than SHARD_PREFIX ("d" in "Côte d'Ivoire") and little words after
 * a name's first ("de" in "Santiago de Cuba") shard nothing: a query loads
 * the shards of its other words.
 */
export function renderSearchIndex(
  loaded: LoadedManifest[],
  atlas: Map<string, CountryAtlas>,
): Map<string, string> {
  const shards = new Map<string, string[]>(); // shard key → its records' JSON texts
  for (const e of entries(loaded, atlas)) {
    const own = byShard(e.names);
    const others = byShard(e.others);
    const keys = others.size === 0 ? own.keys() : new Set([...own.keys(), ...others.keys()]);
    for (const key of keys) {
      const names = own.get(key) ?? [];
      // The matching names; [] when only the displayed name matches (most units), to keep shards small.
      const matched = names.length === 1 && names[0] === e.name ? [] : names;
      const record: SearchRecord = [
        e.kind,
        e.name,
        matched,
        e.level,
        e.country,
        e.parent,
        e.link,
        e.countries,
      ];
      if (others.has(key) || e.unitId) record.push(others.get(key) ?? []);
      if (e.unitId) record.push(e.unitId);
      // Its JSON at once: arrays kept until the last shard is written are more for the garbage collector to copy.
      const text = JSON.stringify(record);
      const shard = shards.get(key);
      if (shard) shard.push(text);
      else shards.set(key, [text]);
    }
  }
  const files = new Map<string, string>();
  for (const [key, records] of [...shards].sort(([a], [b]) => (a < b ? -1 : 1))) {
    files.set(`search/${key}.json`, `[${records.join(',')}]\n`);
  }
  return files;
}
