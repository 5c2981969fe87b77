// Writes vendor/subdivision-names.json: for every ISO 3166-2 code iso3166-2-db
// or CLDR knows, the subdivision's English names and its names in other
// languages, for the place search (build/site/subdivision-names.ts reads it).
// The package is 42,268 files (283 MB) for the three JSON files read here, so
// the catalogue ships this extract instead and only this folder installs it.
// Run: cd scripts/subdivision-names && npm ci && npm run extract
//
// Sources (see vendor/README.md for their licences):
//   iso3166-2-db  iso3166-2.json            regions: name (English), names {en, de, es, fr, it, ru, zh, ar, geonames},
//                                           reference {wikipedia, openstreetmap, geonames}
//                 names_osm.json            more names by OpenStreetMap relation id (ja, pt, he, hi…)
//                 names_geonames.json  more names by GeoNames id
//   (the three files of iso3166-2-db's data folder)
//   cldr-subdivisions-full  subdivisions/en/en.json: English names, only for codes
//                 none of whose equivalents iso3166-2-db has (CL-NB, GT-01…, NO-46, GB councils)
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from '../../build/core/atomic-write.ts';
import { fold, words } from '../../build/core/shared/fold.ts';
import { CODE_GROUPS, RENAMED, equivalents } from './aliases.ts';

const require = createRequire(import.meta.url);
const OUT = fileURLToPath(new URL('../../vendor/subdivision-names.json', import.meta.url));

type Names = Record<string, string>; // language → name, e.g. { de: "Bayern" }
interface Region {
  name?: string;
  iso: string;
  names?: Names;
  reference?: { wikipedia?: string; openstreetmap?: number; geonames?: number };
}
interface Country {
  iso: string;
  names?: Names;
  regions?: Region[];
}
interface Found {
  en: string[];
  other: string[];
}

function readJson<T>(spec: string): T {
  return JSON.parse(readFileSync(require.resolve(spec), 'utf8')) as T;
}

/** Returns a name's comparison key: folded words, e.g. "Washington, D.C." → "washington dc". */
function key(name: string): string {
  return words(fold(name)).join(' ');
}

/**
 * Returns a name as the search should index it: whitespace collapsed, a
 * trailing qualifier dropped ("New York (Bundesstaat)" → "New York", "La
 * Rioja Province, Argentina" → "La Rioja Province" when Argentina is the
 * country), or "" for nothing left.
 */
function cleanName(name: unknown, countryKeys: Set<string>): string {
  if (typeof name !== 'string') return '';
  let n = name.replace(/\s+/g, ' ').trim();
  n = n.replace(/\s*\([^()]*\)$/, ''); // "Capital District (Venezuela)" → "Capital District"
  const comma = n.lastIndexOf(', ');
  if (comma > 0 && countryKeys.has(key(n.slice(comma + 2)))) n = n.slice(0, comma);
  return n.trim();
}

/** Returns the English Wikipedia title a reference names ("en:Washington,_D.C." → "Washington, D.C."). */
function wikipediaTitle(ref: string | undefined): string | undefined {
  const m = /^en:(.+)$/.exec(ref ?? '');
  if (!m) return undefined;
  let title = m[1];
  try {
    title = decodeURIComponent(title);
  } catch {
    // not percent-encoded: keep it as it is
  }
  return title.replace(/_/g, ' ');
}

/** Returns iso3166-2-db's names by code: English first (default layer, en, GeoNames, Wikipedia), then the rest. */
function fromIso31662Db(): Map<string, Found> {
  const data = readJson<Record<string, Country>>('iso3166-2-db/data/iso3166-2.json');
  const osm = readJson<Record<string, Names>>('iso3166-2-db/data/names_osm.json');
  const geonames = readJson<Record<string, Names>>('iso3166-2-db/data/names_geonames.json');
  const out = new Map<string, Found>();
  for (const country of Object.values(data)) {
    const countryKeys = new Set(Object.values(country.names ?? {}).map(key));
    for (const r of country.regions ?? []) {
      const found: Found = { en: [], other: [] };
      const add = (language: string, name: unknown) => {
        const clean = cleanName(name, countryKeys);
        if (clean) (language === 'en' || language === 'geonames' ? found.en : found.other).push(clean);
      };
      add('en', r.name); // the dataset's default layer is English
      for (const [language, name] of Object.entries(r.names ?? {})) add(language, name);
      add('en', wikipediaTitle(r.reference?.wikipedia));
      for (const more of [osm[r.reference?.openstreetmap ?? ''], geonames[r.reference?.geonames ?? '']]) {
        for (const [language, name] of Object.entries(more ?? {})) add(language, name);
      }
      out.set(`${country.iso}-${r.iso}`, found);
    }
  }
  return out;
}

/** Returns CLDR's English names by code ("deby" → "DE-BY"). */
function fromCldr(): Map<string, Found> {
  const en = readJson<{ subdivisions: { localeDisplayNames: { subdivisions: Record<string, string> } } }>(
    'cldr-subdivisions-full/subdivisions/en/en.json',
  ).subdivisions.localeDisplayNames.subdivisions;
  const out = new Map<string, Found>();
  for (const [id, name] of Object.entries(en)) {
    const clean = cleanName(name, new Set());
    if (clean) out.set(`${id.slice(0, 2)}-${id.slice(2)}`.toUpperCase(), { en: [clean], other: [] });
  }
  return out;
}

/** Returns `names` without repeats by folded words, keeping the first spelling and leaving out `except`'s. */
function distinct(names: string[], except: Set<string> = new Set()): string[] {
  const seen = new Set(except);
  return names.filter((n) => {
    const k = key(n);
    if (!k || seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Returns every code's names, merged over its equivalents; CLDR only where iso3166-2-db has none of them. */
function subdivisionNames(): Map<string, Found> {
  const db = fromIso31662Db();
  const cldr = fromCldr();
  const codes = new Set([...db.keys(), ...cldr.keys(), ...CODE_GROUPS.flat()]);
  const out = new Map<string, Found>();
  for (const code of [...codes].sort()) {
    const group = equivalents(code);
    const source = group.some((c) => db.has(c)) ? db : cldr;
    const en = [...group.flatMap((c) => RENAMED[c] ?? []), ...group.flatMap((c) => source.get(c)?.en ?? [])];
    const other = group.flatMap((c) => source.get(c)?.other ?? []);
    const english = distinct(en, new Set([key(code)]));
    if (english.length === 0 && other.length === 0) continue;
    const others = distinct(other, new Set([key(code), ...english.map(key)]));
    out.set(code, others.length ? { en: english, other: others } : { en: english, other: [] });
  }
  return out;
}

const names = subdivisionNames();
// One code per line, so a regenerated file diffs line by line.
const lines = [...names].map(
  ([code, { en, other }]) =>
    `${JSON.stringify(code)}:${JSON.stringify(other.length ? { en, other } : { en })}`,
);
await writeFileAtomic(OUT, `{\n${lines.join(',\n')}\n}\n`);
console.log(`wrote ${OUT}: ${names.size} codes`);
