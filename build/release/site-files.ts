// A release's catalogue as the ledger stores it (layout 2): the same bytes
// under any base and any version, so that a release whose country did not
// change shares every byte of that country's files with the one before.
// `release` builds the catalogue for BASE_MARK and VERSION_MARK; pages and
// JSON documents then link relatively, and the files that must name their
// own URL (the sitemap, the 404 page) or their release (the front page) keep
// the marks, which `build` replaces by BASE/releases/VERSION/ and VERSION
// when it publishes them.
import { BASE_MARK, VERSION_MARK } from './ledger.ts';

const TOKEN = BASE_MARK.slice(1, -1); // the mark however it is written (a JSON string may escape "/")

/** Returns a page's way back to its release's folder, e.g. "../../" for "earth/CHL/index.html", "./" for "index.html". */
export function relativeBase(path: string): string {
  const depth = path.split('/').length - 1;
  return depth === 0 ? './' : '../'.repeat(depth);
}

/**
 * Returns `bytes` as the ledger stores the file at `path` of a release
 * built for BASE_MARK and VERSION_MARK: pages and API documents with relative
 * links, files still holding a mark as templates, the rest as they are. The
 * 404 page stays a template: it is served at any missing path, where
 * relative links would lead nowhere.
 */
export function storedSiteFile(path: string, bytes: Buffer): { bytes: Buffer; template: boolean } {
  const version = bytes.indexOf(VERSION_MARK) >= 0;
  if (bytes.indexOf(TOKEN) < 0) return { bytes, template: version };
  const text = bytes.toString('utf8');
  const marks = text.split(TOKEN).length - 1;
  if (text.split(BASE_MARK).length - 1 !== marks) {
    // A renderer wrote the base in another form (escaped, or without its slashes): publishing would leave it.
    throw new Error(`${path}: the release base is written in a form the ledger cannot replace`);
  }
  if ((path.endsWith('.html') && path !== '404.html') || isApiDocument(path)) {
    return { bytes: Buffer.from(text.replaceAll(BASE_MARK, relativeBase(path))), template: version };
  }
  return { bytes, template: true };
}

/**
 * Whether `path` is one of the release's JSON API documents. Like its pages,
 * they link relatively (to the document, as a STAC self-contained catalogue
 * does), so that a country's documents are the same bytes in every release
 * until it changes; the root's API, which the release does not freeze, keeps
 * absolute paths.
 */
function isApiDocument(path: string): boolean {
  return path.startsWith('api/') && path.endsWith('.json');
}

/**
 * Returns a template's text with its marks replaced: the base by the URL
 * path of the release's folder, e.g. "/sub/releases/2026.11/", the version by
 * the release's.
 */
export function publishedTemplate(text: string, releaseBase: string, version: string): string {
  return text.replaceAll(BASE_MARK, releaseBase).replaceAll(VERSION_MARK, version);
}

/** Returns the mark `bytes` hold, which data must not (`release` refuses them), or undefined. */
export function heldMark(bytes: Buffer): string | undefined {
  if (bytes.indexOf(TOKEN) >= 0) return BASE_MARK;
  if (bytes.indexOf(VERSION_MARK) >= 0) return VERSION_MARK;
  return undefined;
}
