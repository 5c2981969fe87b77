// Search everything from a search box (#q): countries by any of their names,
// M49 regions and every unit of every level. Loads one shard of the
// precomputed index per query word prefix (search/te.json), once, and shows
// the best results in #results; the countries found (and those of a region
// found) are announced to the index table as an "atlas-countries" event.
import { fold, words } from '../../build/core/shared/fold.ts';
import { queryShardKeys, rank, type Hit } from './place-ranking.ts';
import { loadShards } from './search-shards.ts';

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
  if (fold(hit.via) !== fold(name)) {
    const via = document.createElement('span');
    via.className = 'result-via';
    via.textContent = `matched “${hit.via}”`;
    li.append(' ', via);
  }
  return li;
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
    const keys = queryShardKeys(query);
    if (keys.length === 0) {
      box.hidden = queryWords.length === 0;
      status.textContent = queryWords.length ? 'Type two letters or more to search places by name.' : '';
      list.replaceChildren();
      return;
    }
    const shards = await loadShards(base, keys);
    if (run !== latest) return; // a newer keystroke already answered
    const hits = rank(shards, query);
    box.hidden = false;
    status.textContent = hits.length
      ? `${hits.length} ${hits.length === 1 ? 'place' : 'places'} found${hits.length > SHOWN ? `, the first ${SHOWN} shown` : ''}`
      : `No place found for “${query.trim()}”.`;
    list.replaceChildren(...hits.slice(0, SHOWN).map((hit) => renderHit(base, hit)));
    // Then the table: the countries found, those of a region found, or those containing the units found.
    announce(tableCountries(hits));
  };
  input.addEventListener('input', run);
  return run;
}
