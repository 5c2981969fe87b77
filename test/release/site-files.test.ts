// The stored form of a release's files (build/release/site-files.ts): pages
// link relatively from where they are, files that name their own URL keep
// the placeholder for build to fill, and a base written in a form the ledger
// cannot replace is a bug, never a published broken link.
import { describe, expect, it } from 'vitest';
import { BASE_MARK, VERSION_MARK } from '../../build/release/ledger.ts';
import { relativeBase } from '../../build/core/dist-paths.ts';
import { heldMark, publishedTemplate, storedSiteFile } from '../../build/release/site-files.ts';

// Stored from bytes and from text (as the build renders pages): the same file either way.
const stored = (path: string, text: string): { text: string; template: boolean } | { mark: string } => {
  const fromBytes = storedSiteFile(path, Buffer.from(text));
  const fromText = storedSiteFile(path, text);
  if ('mark' in fromText) {
    expect(fromBytes).toEqual(fromText);
    return fromText;
  }
  expect(fromText).toEqual({
    ...fromBytes,
    contents: 'contents' in fromBytes && fromBytes.contents.toString('utf8'),
  });
  return { text: fromText.contents, template: fromText.template };
};

/**
 * The stored form as the rule says it, plainly: the oracle for storedSiteFile,
 * which finds every mark in one pass. Pages, API documents and the world
 * picture link relatively; only the front page and another body's index page
 * may keep the version mark, only the sitemap and the 404 page the base mark,
 * the two citations both; any other mark (however written) is text from the data.
 */
function storedByRule(path: string, text: string): { text: string; template: boolean } | { mark: string } {
  const token = BASE_MARK.slice(1, -1);
  const relative =
    (path.endsWith('.html') && path !== '404.html') ||
    (path.startsWith('api/') && path.endsWith('.json')) ||
    path === 'map-world.svg';
  const out = relative ? text.replaceAll(BASE_MARK, relativeBase(path)) : text;
  const allowed =
    path === 'index.html' || path === 'mars/index.html' || path === 'moon/index.html'
      ? [VERSION_MARK]
      : path === '404.html' || path === 'sitemap.xml'
        ? [BASE_MARK]
        : path === 'CITATION.cff' || path === 'citation.bib'
          ? [BASE_MARK, VERSION_MARK]
          : [];
  const rest = allowed.reduce((t, mark) => t.replaceAll(mark, ''), out);
  if (rest.includes(token)) return { mark: BASE_MARK };
  if (rest.includes(VERSION_MARK)) return { mark: VERSION_MARK };
  return { text: out, template: out !== rest };
}

describe('a release file as the ledger stores it', () => {
  it('a page links back to its release folder relatively, from its own depth', () => {
    expect(relativeBase('index.html')).toBe('./');
    expect(relativeBase('earth/CHL/index.html')).toBe('../../');
    expect(
      stored('earth/CHL/index.html', `<body data-base="${BASE_MARK}"><a href="${BASE_MARK}data/x">`),
    ).toEqual({
      text: '<body data-base="../../"><a href="../../data/x">',
      template: false,
    });
  });

  it('the 404 page and the sitemap keep the placeholder, which build replaces by the release URL under its base', () => {
    for (const path of ['404.html', 'sitemap.xml']) {
      const file = stored(path, `"url":"${BASE_MARK}earth/CHL/"`);
      expect(file).toEqual({ text: `"url":"${BASE_MARK}earth/CHL/"`, template: true });
      expect(publishedTemplate((file as { text: string }).text, '/atlas/releases/1.0.0/', '1.0.0')).toBe(
        '"url":"/atlas/releases/1.0.0/earth/CHL/"',
      );
    }
  });

  it('a JSON document of the API links relatively to itself, so it is the same bytes in every release', () => {
    expect(stored('api/v1/earth/CHL.json', `"url":"${BASE_MARK}earth/CHL/"`)).toEqual({
      text: '"url":"../../../earth/CHL/"',
      template: false,
    });
    expect(stored('api/v1/index.json', `"api":"${BASE_MARK}api/v1/earth/CHL.json"`)).toEqual({
      text: '"api":"../../api/v1/earth/CHL.json"',
      template: false,
    });
  });

  it("the front page's world picture names countries relatively, so it is the same bytes in every release", () => {
    expect(stored('map-world.svg', `<path class="f" data-u="${BASE_MARK}earth/CHL/"/>`)).toEqual({
      text: '<path class="f" data-u="./earth/CHL/"/>',
      template: false,
    });
    // Only the front page's: another SVG naming the base holds text from the data.
    expect(stored('earth/map-world.svg', `data-u="${BASE_MARK}earth/CHL/"`)).toEqual({ mark: BASE_MARK });
  });

  it("another body's index page names its release too: it keeps the version mark; a country page may not", () => {
    const page = `<a href="${BASE_MARK}mars/MCQ/">MCQ</a> This is release <strong>${VERSION_MARK}</strong>`;
    expect(stored('mars/index.html', page)).toEqual({
      text: `<a href="../mars/MCQ/">MCQ</a> This is release <strong>${VERSION_MARK}</strong>`,
      template: true,
    });
    expect(stored('mars/MCQ/index.html', page)).toEqual({ mark: VERSION_MARK });
  });

  it('the citations keep both marks, which build fills in', () => {
    const cff = `version: "${VERSION_MARK}"\nurl: "${BASE_MARK}"\n`;
    expect(stored('CITATION.cff', cff)).toEqual({ text: cff, template: true });
    expect(stored('earth/CITATION.cff', cff)).toEqual({ mark: BASE_MARK });
  });

  it('a page naming its release keeps the version mark, which build replaces by the version', () => {
    const page = `<a href="${BASE_MARK}earth/">x</a> This is release <strong>${VERSION_MARK}</strong>`;
    const file = stored('index.html', page);
    expect(file).toEqual({
      text: `<a href="./earth/">x</a> This is release <strong>${VERSION_MARK}</strong>`,
      template: true,
    });
    expect(publishedTemplate((file as { text: string }).text, '/releases/2026.11/', '2026.11')).toBe(
      '<a href="./earth/">x</a> This is release <strong>2026.11</strong>',
    );
  });

  it('a page holding a mark it may not (a name from the data, decoded from JSON escapes) is refused, not a template', () => {
    // "Fiji geoshelf-release-version-8c1e0\u0066" in a GeoJSON file: the page shows it decoded.
    expect(stored('earth/FJI/index.html', `<li>Fiji ${VERSION_MARK}</li>`)).toEqual({ mark: VERSION_MARK });
    expect(stored('api/v1/earth/FJI.json', `{"name":"Fiji ${VERSION_MARK}"}`)).toEqual({
      mark: VERSION_MARK,
    });
    // The front page names every country: a second mark there is a country's.
    expect(stored('index.html', `${VERSION_MARK} <td>${BASE_MARK.slice(1, -1)}</td>`)).toEqual({
      mark: BASE_MARK,
    });
  });

  it('data holding either mark is named, so that release can refuse it', () => {
    expect(heldMark(Buffer.from(`{"name":"a ${BASE_MARK} b"}`))).toBe(BASE_MARK);
    expect(heldMark(Buffer.from(`{"name":"${VERSION_MARK}"}`))).toBe(VERSION_MARK);
    expect(heldMark(Buffer.from('{"name":"Chile"}'))).toBeUndefined();
  });

  it('files without the placeholder are stored as they are', () => {
    const bytes = Buffer.from([0, 1, 2, 255]);
    expect(storedSiteFile('downloads/x.gpkg', bytes)).toEqual({ contents: bytes, template: false });
  });

  it('marks side by side, sharing a slash, cut or repeated: stored as the plain rule stores them', () => {
    const token = BASE_MARK.slice(1, -1);
    const half = VERSION_MARK.slice(0, 20);
    const texts = [
      `${BASE_MARK}${BASE_MARK}`,
      `/${token}/${token}/`, // two tokens sharing a slash: one BASE_MARK, then a token left
      `${BASE_MARK}x${VERSION_MARK}${BASE_MARK}`,
      `${half}${BASE_MARK}${half}`,
      `${VERSION_MARK}${VERSION_MARK}`,
      `a/${token}`,
      `${token}/`,
      `é ${BASE_MARK} \u{1F30D} ${BASE_MARK}z`,
      'nothing to see',
    ];
    for (const path of [
      'earth/CHL/index.html',
      'index.html',
      'api/v1/earth/CHL.json',
      'sitemap.xml',
      '404.html',
    ]) {
      for (const text of texts)
        expect(stored(path, text), `${path}: ${text}`).toEqual(storedByRule(path, text));
    }
  });

  it('a placeholder written another way (escaped slashes) is a mark the file may not hold', () => {
    const escaped = BASE_MARK.replaceAll('/', '\\/');
    for (const contents of [`"${escaped}x"`, Buffer.from(`"${escaped}x"`)]) {
      expect(storedSiteFile('api/v1/index.json', contents)).toEqual({ mark: BASE_MARK });
    }
  });
});
