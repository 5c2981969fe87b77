// A release's catalogue as the ledger stores it (layout 2): the same bytes
// under any base and any version, so that a release whose country did not
// change shares every byte of that country's files with the one before.
// `release` builds the catalogue for BASE_MARK and VERSION_MARK; pages, JSON
// documents and the front page's world picture then link relatively, and the
// files that must name their own URL (the sitemap, the 404 page) or their
// release (the front page) keep the marks, which `build` replaces by
// BASE/releases/VERSION/ and VERSION when it publishes them.
import { relativeBase, WORLD_PICTURE } from '../core/dist-paths.ts';
import { BASE_MARK, VERSION_MARK } from './ledger.ts';

const TOKEN = BASE_MARK.slice(1, -1); // the mark however it is written (a JSON string may escape "/")
/** What both marks begin with, e.g. "geoshelf-release-": text without it holds neither. */
const MARKS = commonStart(TOKEN, VERSION_MARK);

/** A release's citation files (build/site/citation.ts): templates holding both marks. */
export const CITATIONS = new Set(['CITATION.cff', 'citation.bib']);

/**
 * The files of a release that name its own URL or version, and are stored
 * with the marks in place (`template`): the sitemap and the 404 page (served
 * at any missing path, where relative links would lead nowhere) hold
 * BASE_MARK, the front page and another body's index page VERSION_MARK, the
 * citations both. No other file may hold a mark: `build` replaces the marks
 * in these only.
 */
const TEMPLATES = new Set(['index.html', '404.html', 'sitemap.xml', ...CITATIONS]);

/** The front page, and another body's index page (e.g. "mars/index.html"): each says which release it is. */
const INDEX_PAGE = /^(?:[a-z]+\/)?index\.html$/;

/** Whether `path` is a template: a file that names its release's URL or version. */
const isTemplate = (path: string) => TEMPLATES.has(path) || INDEX_PAGE.test(path);

/** A file as the ledger stores it, or the mark it holds where no mark may be. */
export type StoredForm<T> = { contents: T; template: boolean } | { mark: string };

/**
 * Returns `contents` (text, as the build renders pages and documents, or
 * bytes) as the ledger stores the generated file at `path` of a release
 * built for BASE_MARK and VERSION_MARK, in the same kind: pages, API
 * documents and the world picture with relative links, the TEMPLATES with
 * their marks, the rest as they are. A file that still holds a mark where
 * none may be (text that came from the data: a name or a code holding it,
 * perhaps written with JSON escapes) returns that mark instead: publishing
 * would replace it.
 */
export function storedSiteFile<T extends string | Buffer>(path: string, contents: T): StoredForm<T> {
  if (contents.indexOf(MARKS) < 0) return { contents, template: false }; // most files: one look
  const text = typeof contents === 'string' ? contents : contents.toString('utf8');
  const relative =
    (path.endsWith('.html') && path !== '404.html') || isApiDocument(path) || path === WORLD_PICTURE;
  const stored = relative ? text.replaceAll(BASE_MARK, relativeBase(path)) : text;
  const held = heldMark(stored);
  if (held === undefined) {
    if (stored === text) return { contents, template: false };
    return { contents: (typeof contents === 'string' ? stored : Buffer.from(stored)) as T, template: false };
  }
  // The marks a template may hold: its own; anything else is the data's.
  const allowed = INDEX_PAGE.test(path)
    ? [VERSION_MARK]
    : CITATIONS.has(path)
      ? [BASE_MARK, VERSION_MARK]
      : isTemplate(path)
        ? [BASE_MARK]
        : [];
  const rest = allowed.reduce((t, mark) => t.replaceAll(mark, ''), stored);
  const stray = heldMark(rest);
  if (stray !== undefined || !isTemplate(path)) return { mark: stray ?? held };
  if (stored === text) return { contents, template: true };
  return { contents: (typeof contents === 'string' ? stored : Buffer.from(stored)) as T, template: true };
}

function commonStart(a: string, b: string): string {
  let n = 0;
  while (n < a.length && a[n] === b[n]) n++;
  return a.slice(0, n);
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

/**
 * Returns a citation template published: the marks replaced by the
 * release's absolute URL and its version; without an absolute URL (a build
 * with neither --site-url nor an absolute --base) the lines naming the URL
 * are left out, as CFF accepts only an absolute one.
 */
export function publishedCitation(text: string, releaseUrl: string | undefined, version: string): string {
  const kept = releaseUrl
    ? text
    : text
        .split('\n')
        .filter((line) => !line.includes(TOKEN))
        .join('\n');
  return publishedTemplate(kept, releaseUrl ?? '', version);
}

/** Returns the mark `text` holds (however written), or undefined. */
export function heldMark(text: string | Buffer): string | undefined {
  if (text.indexOf(TOKEN) >= 0) return BASE_MARK;
  if (text.indexOf(VERSION_MARK) >= 0) return VERSION_MARK;
  return undefined;
}

/** A JSON escape: `\uXXXX` or one character, e.g. `\u0066` (f), `\/`, `\\`. */
const JSON_ESCAPE = /\\(?:u([0-9a-fA-F]{4})|(.))/gs;
const ESCAPED: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/**
 * Returns the mark the JSON text `bytes` holds as written or once its
 * escapes are read (`geoshelf-release-base-8c1e0\u0066` is the mark a page
 * shows), or undefined. Inside a template page a data's base mark cannot be
 * told from the page's own: it must be found here, in the data.
 */
export function heldMarkInJson(bytes: Buffer): string | undefined {
  const raw = heldMark(bytes);
  if (raw !== undefined || bytes.indexOf('\\') < 0) return raw;
  const decoded = bytes
    .toString('utf8')
    .replace(JSON_ESCAPE, (_, hex: string | undefined, char: string) =>
      hex !== undefined ? String.fromCharCode(parseInt(hex, 16)) : (ESCAPED[char] ?? char),
    );
  return heldMark(decoded);
}
