// Matching and ranking of search records (the shards written by
// build/site/search-index.ts), and which shards a query needs: pure
// functions, unit-tested in Node (test/build/search-index.test.ts).
import type { SearchRecord } from '../../build/core/shared/api.ts';
import { fold, LITTLE_WORDS, SHARD_PREFIX, shardKey, words } from '../../build/core/shared/fold.ts';

export interface Hit {
  record: SearchRecord;
  /**
   * 0 exact name, 1 a name starts with the query, 2 every query word starts a
   * word (of the words the name matched), 3 the words start words of several
   * of its names ("CL-RM santiago": its code and a name).
   */
  score: number;
  /** True when some query words were matched by the unit's parent or country ("santiago chile") or left out ("salta province"). */
  qualified: boolean;
  via: string; // the name that matched, e.g. "UK" for the United Kingdom
}

/**
 * Words naming a kind of subdivision ("Salta Province", "estado de México"):
 * a query may add them to a unit's name, and the unit is found without them
 * when none of its names has them.
 */
const TYPE_WORDS = new Set([
  ...['province', 'provincia', 'region', 'department', 'departamento', 'departement'],
  ...['state', 'estado', 'prefecture', 'district', 'distrito', 'county', 'municipality', 'municipio'],
  ...['parish', 'governorate', 'territory', 'canton', 'oblast', 'commune', 'borough', 'shire'],
]);

/** A query word that may go unmatched by a unit: a little word or a type word ("de", "province"). */
function optional(word: string): boolean {
  return LITTLE_WORDS.has(word) || TYPE_WORDS.has(word);
}

/**
 * Returns the shard keys a query loads: those of its words of SHARD_PREFIX
 * letters or more, little and type words left out ("provincia de salta" →
 * ["sa"]), or the first such word's when it has no other ("de" → ["de"]);
 * with `published` (search/keys.json), only the shards that exist ("xyzzy"
 * loads nothing: no word starts "xy").
 */
export function queryShardKeys(query: string, published?: ReadonlySet<string>): string[] {
  const long = words(fold(query)).filter((w) => w.length >= SHARD_PREFIX);
  const chosen = long.filter((w) => !optional(w));
  const keys = [...new Set((chosen.length ? chosen : long.slice(0, 1)).map(shardKey))];
  return published ? keys.filter((key) => published.has(key)) : keys;
}

/** Folded words of a name, computed once per name (the shards are ranked again on every keystroke). */
const folded = new Map<string, string[]>();

function nameWords(name: string): string[] {
  let w = folded.get(name);
  if (!w) folded.set(name, (w = words(fold(name))));
  return w;
}

/** Returns whether some word of `names` starts with `word`. */
function anyWordStarts(names: Iterable<string>, word: string): boolean {
  for (const name of names) if (nameWords(name).some((w) => w.startsWith(word))) return true;
  return false;
}

/** How well one name matches the query, as a sort key (see compare()). */
interface Match {
  score: number;
  qualified: boolean;
  lead: number; // index of the first query word the name matched: "santiago chile" prefers Santiago to Chile's units
  tier: number; // 0 own or English name, 1 a name in another language
  via: string;
}

/** What a query needs to match a unit's words outside its name: its parent's and its country's names. */
interface Context {
  query: string[]; // the query's folded words
  countryNames: Map<string, string[]>; // ISO3 → the country's names in the loaded shards
}

/**
 * Returns how `name` matches the query, or undefined. Every query word must
 * start a word of the name; a unit's name may match only some of them when
 * each of the others starts a word of its parent's or country's names or is
 * optional (a little or type word), and at least one word it matched is not.
 */
function matchName(name: string, tier: number, record: SearchRecord, context: Context): Match | undefined {
  const { query } = context;
  const own = nameWords(name);
  const matched = query.map((q) => own.some((w) => w.startsWith(q)));
  const text = own.join(' ');
  const scoreOf = (part: string) => (text === part ? 0 : text.startsWith(part) ? 1 : 2);
  if (matched.every(Boolean)) {
    return { score: scoreOf(query.join(' ')), qualified: false, lead: 0, tier, via: name };
  }
  if (record[0] !== 'u' || !query.some((q, i) => matched[i] && !optional(q))) return undefined;
  const around = [record[5], ...record[7].split(' ').flatMap((iso) => context.countryNames.get(iso) ?? [])];
  for (let i = 0; i < query.length; i++) {
    if (!matched[i] && !optional(query[i]) && !anyWordStarts(around, query[i])) return undefined;
  }
  const part = query.filter((_, i) => matched[i]).join(' ');
  return { score: scoreOf(part), qualified: true, lead: matched.indexOf(true), tier, via: name };
}

/**
 * Returns how the query matches a record across its names, when no one name
 * holds every word: each query word starts a word of one of them (its code
 * "CL-RM" and its name "Santiago"), or, for a unit, of its parent's or
 * country's names as in matchName(). Ranked after any single-name match.
 */
function matchAcross(names: Iterable<string>[], record: SearchRecord, context: Context): Match | undefined {
  const { query } = context;
  const used: string[] = [];
  let tier = 0;
  const matched = query.map((q) => {
    for (const [t, list] of names.entries()) {
      for (const name of list) {
        if (!nameWords(name).some((w) => w.startsWith(q))) continue;
        if (!used.includes(name)) used.push(name);
        tier = Math.max(tier, t);
        return true;
      }
    }
    return false;
  });
  if (used.length < 2 || !query.some((q, i) => matched[i] && !optional(q))) return undefined;
  const around = [record[5], ...record[7].split(' ').flatMap((iso) => context.countryNames.get(iso) ?? [])];
  const rest = query.filter((q, i) => !matched[i]);
  if (rest.length > 0 && record[0] !== 'u') return undefined;
  if (rest.some((q) => !optional(q) && !anyWordStarts(around, q))) return undefined;
  const via = used.filter((name) => name !== record[1]).join(', ');
  return { score: 3, qualified: rest.length > 0, lead: matched.indexOf(true), tier, via: via || record[1] };
}

const KIND_ORDER: Record<string, number> = { c: 0, r: 1, u: 2 };

/** Returns the level's depth for ordering, e.g. "ADM2" → 2; countries (ADM0) come before their units. */
function depth(level: string): number {
  const n = /^ADM(\d)$/.exec(level);
  return n ? Number(n[1]) : 9;
}

/** Orders matches: by score, whole before qualified, earlier lead, own names before other languages. */
function compareMatches(a: Match, b: Match): number {
  return a.score - b.score || +a.qualified - +b.qualified || a.lead - b.lead || a.tier - b.tier;
}

/** One record and every name it has in the loaded shards (each shard lists only its own names). */
interface Candidate {
  record: SearchRecord;
  names: Set<string>;
  others: Set<string>;
}

/** Returns the records of the loaded shards, each once with the names of all its copies. */
function candidates(shards: SearchRecord[][]): Map<string, Candidate> {
  const out = new Map<string, Candidate>();
  for (const shard of shards) {
    for (const record of shard) {
      const key = `${record[0]} ${record[1]} ${record[6]} ${record[7]}`;
      let c = out.get(key);
      if (!c) out.set(key, (c = { record, names: new Set(), others: new Set() }));
      for (const name of record[2].length ? record[2] : [record[1]]) c.names.add(name);
      for (const name of record[8] ?? []) c.others.add(name);
    }
  }
  return out;
}

/** Returns every country's names found in the loaded shards, by ISO3. */
function countryNamesOf(all: Iterable<Candidate>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const { record, names } of all) if (record[0] === 'c') out.set(record[7], [...names]);
  return out;
}

/**
 * Returns the records matching `query` among the loaded `shards` (those of
 * queryShardKeys()), best first: by score (exact name, then prefix, then
 * word prefixes), whole matches before those qualified by a parent, country
 * or type word, then own names before other languages, then countries,
 * regions, then units by level (ADM1 before ADM2), then shorter names, then
 * alphabetically.
 */
export function rank(shards: SearchRecord[][], query: string): Hit[] {
  const context: Context = { query: words(fold(query)), countryNames: new Map() };
  if (context.query.length === 0) return [];
  const all = candidates(shards);
  context.countryNames = countryNamesOf(all.values());
  const hits: (Hit & { match: Match })[] = [];
  for (const { record, names, others } of all.values()) {
    let best: Match | undefined;
    for (const [tier, list] of [names, others].entries()) {
      for (const name of list) {
        const m = matchName(name, tier, record, context);
        if (m && (!best || compareMatches(m, best) < 0)) best = m;
      }
    }
    if (!best && context.query.length > 1) best = matchAcross([names, others], record, context);
    if (best) hits.push({ record, score: best.score, qualified: best.qualified, via: best.via, match: best });
  }
  hits.sort(
    (a, b) =>
      compareMatches(a.match, b.match) ||
      KIND_ORDER[a.record[0]] - KIND_ORDER[b.record[0]] ||
      depth(a.record[3]) - depth(b.record[3]) ||
      a.record[1].length - b.record[1].length ||
      a.record[1].localeCompare(b.record[1], 'en'),
  );
  return hits.map(({ record, score, qualified, via }) => ({ record, score, qualified, via }));
}
