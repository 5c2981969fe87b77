// One country's part of the search index (search-index.ts): its records, as
// the JSON text each shard holds, made from a SearchInput only, i.e. from the
// few fields of the manifest and of the units that the records show or are
// found by, and from the two word lists read here: world-countries
// (mledoze/countries), every name of a country (common, official, native,
// alternative spellings and 23 translations), and the other names of ISO
// 3166-2 subdivisions (subdivision-names.ts). searchKey() hashes exactly
// these, so records kept under a key are those the input would make.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { SearchRecord, UnitSearchFacts } from '../core/shared/api.ts';
import { fold, nameShardKeys, words } from '../core/shared/fold.ts';
import type { Manifest } from '../core/shared/manifest.ts';
import { countryPage } from '../core/dist-paths.ts';
import type { CountryAtlas } from './atlas.ts';
import type { Unit } from './units.ts';
import { SUBDIVISION_NAMES_FILE, subdivisionNames } from './subdivision-names.ts';

/**
 * Returns a unit's GeoJSON link as a search record keeps it: short, since
 * every search shard holds it for each unit it names. Under the country's
 * units folder it is the rest without ".geojson" (e.g. "ADM1/UY-AR" for
 * api/v1/earth/URY/units/ADM1/UY-AR.geojson, with the record's page
 * "earth/URY/"); any other link is kept whole (it starts with "api/").
 */
function unitFileKey(page: string, geojson: string): string {
  const folder = `api/v1/${page}units/`;
  return geojson.startsWith(folder) && geojson.endsWith('.geojson')
    ? geojson.slice(folder.length, -'.geojson'.length)
    : geojson;
}

/** A label coordinate as a search record keeps it: 4 decimals (about 11 m; the API keeps 7). */
function round4(value: number | undefined): number | null {
  return value === undefined ? null : Math.round(value * 1e4) / 1e4;
}

/** What a country's records are made from, besides the word lists. */
export interface SearchInput {
  country: Pick<Manifest, 'body' | 'iso_a3' | 'iso_a2' | 'm49_region'> & {
    name: Pick<Manifest['name'], 'en' | 'es'>;
  };
  levels: {
    level: string;
    units: Pick<
      Unit,
      'id' | 'unit_id' | 'name' | 'names' | 'code' | 'parent' | 'area_km2' | 'label' | 'geojson'
    >[];
  }[];
}

/** Returns the search input of a country: a copy of the fields its records use, nothing else. */
export function searchInput(m: Manifest, atlas: CountryAtlas | undefined): SearchInput {
  const { body, iso_a3, iso_a2, m49_region } = m;
  return {
    country: { body, iso_a3, iso_a2, m49_region, name: { en: m.name.en, es: m.name.es } },
    levels: (atlas?.levels ?? []).map((l) => ({
      level: l.level,
      units: l.units.map(({ id, unit_id, name, names, code, parent, area_km2, label, geojson }) => ({
        id,
        unit_id,
        name,
        names,
        code,
        parent,
        area_km2,
        label,
        geojson,
      })),
    })),
  };
}

/** A country's part of the index: by shard key, its records as JSON texts joined by commas; and the M49 regions it is in. */
export interface CountryRecords {
  shards: [string, string][]; // e.g. [["te", '["c","Texas",…],["u","Texas",…]'], …]
  regions: string[]; // e.g. ["Northern America", "Americas"]
}

const require = createRequire(import.meta.url);
const WORLD_COUNTRIES_FILE = require.resolve('world-countries/countries.json');

let dataIdentity: string | undefined;

/**
 * Returns the key of a country's records: a hash of its input, of the word
 * lists' bytes and of the runtime's Unicode version (folding and the word
 * rules depend on it). The code that makes the records is the cache's to
 * check (search-cache.ts).
 */
export function searchKey(input: SearchInput): string {
  if (dataIdentity === undefined) {
    const hash = createHash('sha256').update(JSON.stringify([process.version, process.versions.unicode]));
    for (const file of [WORLD_COUNTRIES_FILE, SUBDIVISION_NAMES_FILE]) hash.update(readFileSync(file));
    dataIdentity = hash.digest('hex');
  }
  return createHash('sha256').update(dataIdentity).update(JSON.stringify(input)).digest('hex');
}

interface WorldCountry {
  cca3: string;
  name: { common: string; official: string; native?: Record<string, { common: string; official: string }> };
  altSpellings?: string[];
  translations?: Record<string, { common: string; official: string }>;
  region?: string;
  subregion?: string;
}

let worldCountries: Map<string, WorldCountry> | undefined;

/** Returns world-countries by ISO3, loaded once (about 1.4 MB of JSON, never shipped to the browser). */
function countriesByIso3(): Map<string, WorldCountry> {
  if (!worldCountries) {
    const list = require(WORLD_COUNTRIES_FILE) as WorldCountry[];
    worldCountries = new Map(list.map((c) => [c.cca3, c]));
  }
  return worldCountries;
}

type SearchCountry = SearchInput['country'];

/** Returns world-countries' entry of an Earth manifest; none for another body's, whose code may be an Earth country's too. */
function earthCountry(m: SearchCountry): WorldCountry | undefined {
  return m.body === 'earth' ? countriesByIso3().get(m.iso_a3) : undefined;
}

/** Returns every name of a country: the manifest's, then world-countries' (common, official, alternative, native, translated). */
function countryNames(m: SearchCountry): string[] {
  const wc = earthCountry(m);
  const names = [m.name.en, m.name.es, m.iso_a3, m.iso_a2];
  if (wc) {
    names.push(wc.name.common, wc.name.official, ...(wc.altSpellings ?? []));
    for (const n of Object.values(wc.name.native ?? {})) names.push(n.common, n.official);
    for (const n of Object.values(wc.translations ?? {})) names.push(n.common, n.official);
  }
  return [...new Set(names.filter((n): n is string => !!n && n.trim() !== ''))];
}

/** Returns the M49 region and subregion of a country, e.g. ["South America", "Americas"]. */
function regionsOf(m: SearchCountry): string[] {
  const wc = earthCountry(m);
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
  facts?: UnitSearchFacts; // a unit's area, label point and own GeoJSON
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
function unitEntries({ country: m, levels }: SearchInput): Entry[] {
  const page = countryPage(m);
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
        facts:
          u.area_km2 !== undefined && u.geojson
            ? [u.area_km2, round4(u.label?.[0]), round4(u.label?.[1]), unitFileKey(page, u.geojson)]
            : undefined,
      });
    }
  }
  return out;
}

/** Returns the entry of a country, found by all its names (countryNames). */
function countryEntry(m: SearchCountry): Entry {
  return {
    kind: 'c',
    name: m.name.en,
    level: 'ADM0',
    country: '',
    parent: '',
    link: countryPage(m),
    countries: m.iso_a3,
    names: countryNames(m).map(indexed),
    others: [],
  };
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

/** Adds the records of `e` to `shards`: one in each shard its names are in, as JSON text. */
function addRecords(shards: Map<string, string[]>, e: Entry): void {
  const own = byShard(e.names);
  const others = byShard(e.others);
  const keys = others.size === 0 ? own.keys() : new Set([...own.keys(), ...others.keys()]);
  for (const key of keys) {
    const names = own.get(key) ?? [];
    // The matching names; [] when only the displayed name matches (most units), to keep shards small.
    const matched = names.length === 1 && names[0] === e.name ? [] : names;
    const record: SearchRecord = [e.kind, e.name, matched, e.level, e.country, e.parent, e.link, e.countries];
    if (others.has(key) || e.unitId || e.facts) record.push(others.get(key) ?? []);
    if (e.unitId || e.facts) record.push(e.unitId ?? '');
    if (e.facts) record.push(e.facts);
    // Its JSON at once: arrays kept until the last shard is written are more for the garbage collector to copy.
    const text = JSON.stringify(record);
    const shard = shards.get(key);
    if (shard) shard.push(text);
    else shards.set(key, [text]);
  }
}

/** Returns the records of a country and of its units, and the M49 regions it is in. */
export function countryRecords(input: SearchInput): CountryRecords {
  const shards = new Map<string, string[]>();
  addRecords(shards, countryEntry(input.country));
  for (const e of unitEntries(input)) addRecords(shards, e);
  return {
    shards: [...shards].map(([key, texts]) => [key, texts.join(',')]),
    regions: regionsOf(input.country),
  };
}

/** Adds the record of an M49 region, listing its member countries (ISO3 codes), to `shards`. */
export function addRegionRecords(shards: Map<string, string[]>, region: string, members: string[]): void {
  addRecords(shards, {
    kind: 'r',
    name: region,
    level: 'M49',
    country: '',
    parent: '',
    link: '',
    countries: members.join(' '),
    names: [indexed(region)],
    others: [],
  });
}
