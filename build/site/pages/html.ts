// HTML building blocks shared by every page: an auto-escaping template tag,
// number and size formats, licence links and URLs under the base path.
import { escapeHtml } from '../../core/escape-html.ts';
import type { License } from '../../core/shared/manifest.ts';

/** Markup that is already safe; anything else put into `markup` is escaped. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

function render(value: unknown): string {
  if (typeof value === 'string') return escapeHtml(value); // most values
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === undefined || value === null || value === false) return '';
  return escapeHtml(String(value));
}

/**
 * Template tag: markup`<td>${name}</td>` escapes `name`; nested Html, arrays of
 * either, and empty values (undefined, null, false → "") are inserted as is.
 * (Not named `html`: Prettier would reformat the HTML inside, whitespace and all.)
 */
export function markup(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new Html(out);
}

/** Marks trusted markup (e.g. a rendered SVG) as safe. */
export function raw(markup: string): Html {
  return new Html(markup);
}

/** Returns an integer with thousands separators, e.g. 4367927 → "4,367,927", as `n.toLocaleString('en-US')`. */
export function formatInt(n: number): string {
  // Grouped here: toLocaleString builds an ICU formatter on each call. -0 and fractions go to it ("-0", "1.5").
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en-US');
  return String(n).replace(THOUSANDS, ',');
}

/** The places between digits where a thousands separator goes, e.g. "4|367|927". */
const THOUSANDS = /\B(?=(\d{3})+$)/g;

/** Returns a byte count for people, e.g. 107974 → "105.4 KB" (1 KB = 1024 bytes). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** Each licence's text, where it has one. */
export const LICENSE_URLS: Partial<Record<License, string>> = {
  'CC0-1.0': 'https://creativecommons.org/publicdomain/zero/1.0/',
  'CC-BY-2.5': 'https://creativecommons.org/licenses/by/2.5/',
  'CC-BY-3.0': 'https://creativecommons.org/licenses/by/3.0/',
  'CC-BY-3.0-IGO': 'https://creativecommons.org/licenses/by/3.0/igo/',
  'CC-BY-4.0': 'https://creativecommons.org/licenses/by/4.0/',
  'DL-DE-BY-2.0': 'https://www.govdata.de/dl-de/by-2-0',
  'Etalab-2.0': 'https://www.etalab.gouv.fr/licence-ouverte-open-licence/',
  'ODC-By-1.0': 'https://opendatacommons.org/licenses/by/1-0/',
  'OGL-Canada-2.0': 'https://open.canada.ca/en/open-government-licence-canada',
  'OGL-UK-3.0': 'https://www.nationalarchives.gov.uk/doc/open-government-licence/version/3/',
};

/** Returns a licence identifier linked to its text ("public-domain" has none). */
export function licenseLink(license: License | 'mixed'): Html {
  const href = LICENSE_URLS[license as License];
  return href ? markup`<a href="${href}" rel="license">${license}</a>` : markup`${license}`;
}

/**
 * Returns `base` in canonical form: "/" , "/sub/" or "https://cdn.example.org/x/",
 * always ending with "/"; throws on anything else (e.g. "sub" without a slash
 * is accepted as "/sub/").
 */
export function normaliseBase(base: string): string {
  let b = base.trim();
  if (/^https?:\/\//.test(b)) return b.endsWith('/') ? b : `${b}/`;
  if (!b.startsWith('/')) b = `/${b}`;
  if (!b.endsWith('/')) b = `${b}/`;
  if (/\/\.\.?\//.test(b) || /[?#\s"<>\\]/.test(b)) throw new Error(`unusable base path "${base}"`);
  return b;
}

/** Names longer than this are clamped to a few lines on the page (the `clamp` class), whole in a title. */
const LONG_NAME = 80;

/**
 * Returns a name from data as page text: as it is when short; else in a span
 * the style sheet clamps to three lines (wrapping anywhere, so a name without
 * spaces cannot widen the page), with the whole name in its title.
 */
export function nameText(name: string): Html {
  return name.length > LONG_NAME
    ? markup`<span class="clamp" title="${name}">${name}</span>`
    : markup`${name}`;
}
