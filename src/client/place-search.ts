// Search everything from a search box (#q): countries by any of their names,
// M49 regions and every unit of every level. Loads one shard of the
// precomputed index per query word prefix (search/te.json), once, and shows
// the best results in #results; the countries found (and those of a region
// found) are announced to the index table as an "atlas-countries" event.
import { fold, shardKey, SHARD_PREFIX, words } from '../shared/fold.ts';
import type { SearchRecord } from '../shared/api.ts';
import { rank, type Hit } from './place-ranking.ts';

/** Results shown; the status line counts all. */
const SHOWN = 20;

const shards = new Map<string, Promise<SearchRecord[]>>();

/** Returns a shard's records, fetched once; a missing shard (no word starts so) is empty. */
function loadShard(base: string, key: string): Promise<SearchRecord[]> {
  let shard = shards.get(key);
  if (!shard) {
    shard = fetch(`${base}search/${key}.json`)
      .then((r) => (r.ok ? (r.json() as Promise<SearchRecord[]>) : []))
      .catch(() => {
        shards.delete(key); // offline for a moment: try again on the next keystroke
        return [];
      });
    shards.set(key, shard);
  }
  return shard;
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
    const key = queryWords.find((w) => w.length >= SHARD_PREFIX);
    if (!key) {
      box.hidden = queryWords.length === 0;
      status.textContent = queryWords.length ? 'Type two letters or more to search places by name.' : '';
      list.replaceChildren();
      return;
    }
    const records = await loadShard(base, shardKey(key));
    if (run !== latest) return; // a newer keystroke already answered
    const hits = rank(records, query);
    box.hidden = false;
    status.textContent = hits.length
      ? `${hits.length} ${hits.length === 1 ? 'place' : 'places'} found${hits.length > SHOWN ? `, the first ${SHOWN} shown` : ''}`
      : `No place found for “${query.trim()}”.`;
    list.replaceChildren(...hits.slice(0, SHOWN).map((hit) => renderHit(base, hit)));
    // Then the table: the countries found, and those of a region found.
    const countries = new Set<string>();
    for (const hit of hits)
      if (hit.record[0] !== 'u') hit.record[7].split(' ').forEach((c) => countries.add(c));
    announce(countries);
  };
  input.addEventListener('input', run);
  return run;
}
