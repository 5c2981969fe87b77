// Where each thing lives inside dist/, shared by the pages, the API and the
// sitemap so a link can never point somewhere the build did not write.
import type { Manifest } from './shared/manifest.ts';

/**
 * Returns the URL of a file inside dist/: `base`, then `path` with each of its
 * segments percent-encoded. File names come from data (part codes), which may
 * hold "%", "#", "?", spaces or any letter: a raw "%2e%2e.geojson" in an href
 * would be decoded by the browser and fetch another file.
 */
export function fileUrl(base: string, path: string): string {
  if (UNRESERVED.test(path)) return base + path; // nothing to encode (most paths)
  return base + path.split('/').map(encodeURIComponent).join('/');
}

/**
 * Returns a file's way back to the folder its path is relative to, e.g.
 * "../../" for "earth/CHL/index.html", "./" for "index.html": the base of a
 * page or document that links relatively (a release's; every STAC document).
 */
export function relativeBase(path: string): string {
  const depth = path.split('/').length - 1;
  return depth === 0 ? './' : '../'.repeat(depth);
}

/** A path of segments encodeURIComponent leaves as they are (letters, digits and "-_.!~*'()"). */
const UNRESERVED = /^[A-Za-z0-9\-_.!~*'()/]*$/;

/** A release's world picture, which its front page links (site.ts). */
export const WORLD_PICTURE = 'map-world.svg';

/** Returns a country page's folder URL relative to the base, e.g. "earth/CHL/". */
export function countryPage(m: Pick<Manifest, 'body' | 'iso_a3'>): string {
  return `${m.body}/${m.iso_a3}/`;
}

/** Returns a country's API document relative to the base, e.g. "api/v1/earth/CHL.json". */
export function countryApi(m: Manifest): string {
  return `api/v1/${m.body}/${m.iso_a3}.json`;
}
