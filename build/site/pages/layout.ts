// The frame every page shares: head (title, description, the client bundle),
// skip link, header navigation and footer. All URLs start with the base.
import { markup, raw, type Html } from './html.ts';

export interface PageContext {
  base: string; // e.g. "/" or "/catalogue/"; every link starts with it
  script: string; // client bundle entry inside dist, e.g. "assets/main-Bx3k9aQ1.js"
  styles: string[]; // e.g. ["assets/main-C8f2a1bD.css"]
}

export interface PageOptions {
  title: string; // e.g. "Chile (CHL)"; the site name is appended
  description: string;
  main: Html;
  head?: Html; // extra elements for <head>
  lang?: string;
}

// A tiny inline icon (a globe outline), so no request goes to /favicon.ico.
const ICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Ccircle cx='8' cy='8' r='7' fill='%23cfe3d3' stroke='%232c5e3c'/%3E%3Cpath d='M1 8h14M8 1c3 3 3 11 0 14M8 1c-3 3-3 11 0 14' fill='none' stroke='%232c5e3c'/%3E%3C/svg%3E";

/** Returns a whole HTML document around `options.main`. */
export function renderPage(context: PageContext, options: PageOptions): string {
  const { base } = context;
  return `<!doctype html>\n${markup`<html lang="${options.lang ?? 'en'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · geoshelf</title>
<meta name="description" content="${options.description}">
<link rel="icon" href="${raw(ICON)}">
${context.styles.map((href) => markup`<link rel="stylesheet" href="${base}${href}">\n`)}<script type="module" src="${base}${context.script}"></script>
${options.head ?? ''}</head>
<body data-base="${base}">
<a class="skip" href="#main">Skip to content</a>
<header class="site-header"><div class="wrap">
<a class="brand" href="${base}">geoshelf</a>
<nav aria-label="Site"><ul>
<li><a href="${base}">Catalogue</a></li>
<li><a href="${base}api/v1/">JSON API</a></li>
<li><a href="${base}schema/manifest.v1.json">Manifest schema</a></li>
</ul></nav>
</div></header>
<main id="main" class="wrap">
${options.main}
</main>
<footer class="site-footer"><div class="wrap">
<p>Administrative boundaries published as plain GeoJSON files. Each country page names its sources and licences: please credit them when you reuse the data.</p>
<p>Place search: country names from world-countries (ODbL 1.0); subdivision names from iso3166-2-db (MIT; GeoNames CC BY 4.0, © OpenStreetMap contributors ODbL 1.0, Wikipedia) and Unicode CLDR.</p>
</div></footer>
</body>
</html>
`}`;
}
