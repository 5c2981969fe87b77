// Where each thing lives inside dist/, shared by the pages, the API and the
// sitemap so a link can never point somewhere the build did not write.
import type { Manifest } from '../../manifest/types.ts';

/** Returns a country page's folder URL relative to the base, e.g. "earth/CHL/". */
export function countryPage(m: Manifest): string {
  return `${m.body}/${m.iso_a3}/`;
}

/** Returns a country's API document relative to the base, e.g. "api/v1/earth/CHL.json". */
export function countryApi(m: Manifest): string {
  return `api/v1/${m.body}/${m.iso_a3}.json`;
}
