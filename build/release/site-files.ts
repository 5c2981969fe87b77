// A release's catalogue as the ledger stores it (layout 2): the same bytes
// under any base and any version, so that a release whose country did not
// change shares every byte of that country's files with the one before.
// `release` builds the catalogue for BASE_MARK; pages then link relatively,
// and the files that must name their own URL keep the mark, which `build`
// replaces by BASE/releases/VERSION/ when it publishes them.
import { BASE_MARK } from './ledger.ts';

const TOKEN = BASE_MARK.slice(1, -1); // the mark however it is written (a JSON string may escape "/")

/** Returns a page's way back to its release's folder, e.g. "../../" for "earth/CHL/index.html", "./" for "index.html". */
export function relativeBase(path: string): string {
  const depth = path.split('/').length - 1;
  return depth === 0 ? './' : '../'.repeat(depth);
}

/**
 * Returns `bytes` as the ledger stores the file at `path` of a release
 * built for BASE_MARK: pages with relative links, other files holding the
 * mark as templates, the rest as they are. The 404 page stays a template: it
 * is served at any missing path, where relative links would lead nowhere.
 */
export function storedSiteFile(path: string, bytes: Buffer): { bytes: Buffer; template: boolean } {
  if (bytes.indexOf(TOKEN) < 0) return { bytes, template: false };
  const text = bytes.toString('utf8');
  const marks = text.split(TOKEN).length - 1;
  if (text.split(BASE_MARK).length - 1 !== marks) {
    // A renderer wrote the base in another form (escaped, or without its slashes): publishing would leave it.
    throw new Error(`${path}: the release base is written in a form the ledger cannot replace`);
  }
  if (path.endsWith('.html') && path !== '404.html') {
    return { bytes: Buffer.from(text.replaceAll(BASE_MARK, relativeBase(path))), template: false };
  }
  return { bytes, template: true };
}

/** Returns a template's text with its mark replaced by the URL path of the release's folder, e.g. "/sub/releases/2026.11/". */
export function publishedTemplate(text: string, releaseBase: string): string {
  return text.replaceAll(BASE_MARK, releaseBase);
}

/** Returns whether `bytes` hold the mark, which data must not: `release` refuses them. */
export function holdsBaseMark(bytes: Buffer): boolean {
  return bytes.indexOf(TOKEN) >= 0;
}
