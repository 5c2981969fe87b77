// The search box of the 404 page and the results area the script fills on
// both the index and the 404 page (src/client/place-search.ts).
import { markup, type Html } from './pages/html.ts';

/** Returns the results area: a status line (live region) and the list of results. */
export function searchResults(): Html {
  return markup`<div id="results" class="results" hidden>
<p id="results-status" role="status" aria-live="polite"></p>
<ol id="results-list"></ol>
</div>
<noscript><p class="needs-js">Searching places needs JavaScript; the table below lists every country.</p></noscript>`;
}

/** Returns a search form of its own (the 404 page's), with its results area. */
export function searchBox(label: string): Html {
  return markup`<form id="site-search" class="site-search" role="search" aria-label="${label}">
<div class="search"><label for="q">${label}: countries, regions and their units, by any name or code</label><input id="q" name="q" type="search" placeholder="e.g. Texas, Santiago, UK, Fiyi" autocomplete="off" spellcheck="false"></div>
</form>
${searchResults()}`;
}
