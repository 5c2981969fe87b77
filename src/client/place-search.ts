// Search everything from a search box (#q): countries by any of their names,
// M49 regions and every unit of every level. Loads one shard of the
// precomputed index per query word prefix (search/t/te.json), once, and shows
// the best results in #results; the countries found (and those of a region
// found) are announced to the index table as an "atlas-countries" event.
import type { SearchRecord } from '../../build/core/shared/api.ts';
import { areaText } from '../../build/core/shared/area-text.ts';
import { fold, SHARD_PREFIX, words } from '../../build/core/shared/fold.ts';
import { correctQuery } from './did-you-mean.ts';
import { queryShardKeys, rank, type Hit } from './place-ranking.ts';
import { loadShards, publishedKeys } from './search-shards.ts';

/** Results shown; the status line counts all. */
const SHOWN = 20;

/**
 * Returns the ISO3 codes the index table shows for `hits`: the countries and
 * regions' members found, or, when only units were found ("Bavaria",
 * "santiago chile"), the countries that contain them, rather than an empty table.
 */
export function tableCountries(hits: Hit[]): Set<string> {
  const countries = new Set<string>();
  const add = (hit: Hit) => hit.record[7].split(' ').forEach((c) => c && countries.add(c));
  hits.filter((hit) => hit.record[0] !== 'u').forEach(add);
  if (countries.size === 0) hits.forEach(add);
  return countries;
}

function describe(hit: Hit): string {
  const [kind, , , level, country, parent, , members] = hit.record;
  if (kind === 'c') return 'Country or territory';
  if (kind === 'r') {
    const n = members.split(' ').length;
    return `Region (M49), ${n} ${n === 1 ? 'entry' : 'entries'}`;
  }
  const within = [parent && parent !== country ? parent : '', country].filter(Boolean).join(', ');
  return `${level}${within ? ` in ${within}` : ''}`;
}

/** Returns a unit's GeoJSON path from the base, from its record's page link and file key (UnitSearchFacts). */
function unitGeojson(link: string, key: string): string {
  return key.startsWith('api/') ? key : `api/v1/${link.slice(0, link.indexOf('#'))}units/${key}.geojson`;
}

function renderHit(base: string, hit: Hit): HTMLLIElement {
  const [kind, name, , , , , link] = hit.record;
  const li = document.createElement('li');
  const a = document.createElement('a');
  a.href = kind === 'r' ? `${base}?q=${encodeURIComponent(name)}` : `${base}${link}`;
  a.textContent = name;
  const what = document.createElement('span');
  what.className = 'result-kind';
  what.textContent = describe(hit);
  li.append(a, ' ', what);
  const facts = hit.record[10];
  if (kind === 'u' && facts) {
    // The unit's area and its own GeoJSON (issue 30 §8).
    const geojson = document.createElement('a');
    geojson.href = `${base}${unitGeojson(link, facts[3])}`;
    geojson.textContent = 'GeoJSON';
    geojson.className = 'result-geojson';
    li.append(
      ' ',
      Object.assign(document.createElement('span'), {
        className: 'result-area',
        textContent: areaText(facts[0]),
      }),
      ' · ',
      geojson,
    );
  }
  if (fold(hit.via) !== fold(name)) {
    const via = document.createElement('span');
    via.className = 'result-via';
    via.textContent = `matched “${hit.via}”`;
    li.append(' ', via);
  }
  return li;
}

/**
 * Returns the hits of `query` among `shards`, or, when there are none, those
 * of the query with its misspelt words corrected ("argentna" → "argentina")
 * and that query; `load` fetches the shards a corrected word needs.
 */
async function findPlaces(
  query: string,
  shards: SearchRecord[][],
  load: (query: string) => Promise<SearchRecord[][]>,
): Promise<{ hits: Hit[]; corrected?: string }> {
  const hits = rank(shards, query);
  if (hits.length > 0) return { hits };
  const corrected = correctQuery(shards, query);
  if (corrected === undefined) return { hits };
  return { hits: rank(await load(corrected), corrected), corrected };
}

/** Returns the status line: how many places were found, for which query. */
function statusLine(query: string, hits: Hit[], corrected: string | undefined): string {
  const count = `${hits.length} ${hits.length === 1 ? 'place' : 'places'}`;
  const shown = hits.length > SHOWN ? `, the first ${SHOWN} shown` : '';
  if (hits.length === 0) return `No place found for “${query.trim()}”.`;
  if (corrected !== undefined)
    return `No place found for “${query.trim()}”; ${count} found for “${corrected}”${shown}.`;
  return `${count} found${shown}`;
}

/** Wires `input` to the results area (#results); returns the function that runs a search (for a query from the URL). */
export function enhanceSearch(input: HTMLInputElement, base: string): () => Promise<void> {
  const box = document.getElementById('results');
  const status = document.getElementById('results-status');
  const list = document.getElementById('results-list');
  if (!box || !status || !list) return async () => {};
  let latest = 0;

  let announced = false;
  const announce = (countries: Set<string> | null) => {
    if (!countries && !announced) return;
    announced = !!countries;
    document.dispatchEvent(new CustomEvent('atlas-countries', { detail: countries }));
  };

  const run = async () => {
    const run = ++latest;
    announce(null); // the last query's countries no longer apply
    const query = input.value;
    const queryWords = words(fold(query));
    if (!queryWords.some((w) => w.length >= SHARD_PREFIX)) {
      box.hidden = queryWords.length === 0;
      status.textContent = queryWords.length ? 'Type two letters or more to search places by name.' : '';
      list.replaceChildren();
      return;
    }
    const published = await publishedKeys(base);
    const load = (q: string) => loadShards(base, queryShardKeys(q, published));
    const { hits, corrected } = await findPlaces(query, await load(query), load);
    if (run !== latest) return; // a newer keystroke already answered
    box.hidden = false;
    status.textContent = statusLine(query, hits, corrected);
    list.replaceChildren(...hits.slice(0, SHOWN).map((hit) => renderHit(base, hit)));
    // Then the table: the countries found, those of a region found, or those containing the units found.
    announce(tableCountries(hits));
  };
  input.addEventListener('input', run);
  input.addEventListener('focus', () => void publishedKeys(base), { once: true }); // before the first letter
  return run;
}
