// The other names of ISO 3166-2 subdivisions, for the place search: English
// and other languages by code (vendor/subdivision-names.json, made by
// scripts/subdivision-names/ from iso3166-2-db and CLDR). Read at build time
// only, once; the browser gets the search shards.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_DIR } from '../core/files.ts';

/** A subdivision's names: English ones (ranked with the data's own names) and the rest. */
export interface SubdivisionNames {
  en: string[]; // e.g. ["Bavaria", "Free State of Bavaria"]
  other?: string[]; // e.g. ["Bayern", "Baviera", "Bavière", …]
}

/** The vendored file, from the package folder (the tool's own files, not the data). */
export const SUBDIVISION_NAMES_FILE = join(PACKAGE_DIR, 'vendor', 'subdivision-names.json');

let names: Map<string, SubdivisionNames> | undefined;

/** An ISO 3166-2 code: the country's alpha-2 code, a hyphen, 1 to 3 letters or digits, e.g. "DE-BY", "GT-16". */
const ISO_3166_2 = /^[A-Z]{2}-[A-Z0-9]{1,3}$/;

/**
 * Returns the other names of the subdivision `code` of the country `iso_a2`,
 * or undefined when the code is not an ISO 3166-2 code of that country (a
 * FIPS code, another country's code) or the data has no names for it.
 */
export function subdivisionNames(code: string, iso_a2: string | undefined): SubdivisionNames | undefined {
  if (iso_a2 === undefined || !code.startsWith(`${iso_a2}-`) || !ISO_3166_2.test(code)) return undefined;
  names ??= new Map(
    Object.entries(
      JSON.parse(readFileSync(SUBDIVISION_NAMES_FILE, 'utf8')) as Record<string, SubdivisionNames>,
    ),
  );
  return names.get(code);
}
