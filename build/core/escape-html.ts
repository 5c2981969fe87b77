// HTML escaping, for every place that writes text from the data where a
// reader renders HTML: the site's pages (build/site/pages/html.ts) and the
// attribution of the Web Mercator archives and styles, which MapLibre GL JS
// and Leaflet insert as HTML.
const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

const SPECIAL = /[&<>"']/;
const SPECIALS = /[&<>"']/g;

/** Returns `text` escaped for HTML text and quoted attribute values (most text has nothing to escape: returned as is). */
export function escapeHtml(text: string): string {
  return SPECIAL.test(text) ? text.replace(SPECIALS, (c) => ESCAPES[c]) : text;
}
