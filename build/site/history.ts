// A country's history across releases, from the release feeds: each
// release's changes of the country (the country page's history section),
// and each unit's first_seen, last_seen, last_changed, supersedes /
// superseded_by and changes (the history a unit's permalink shows),
// published as api/v1/{body}/{ISO3}/history.json.
import {
  API_VERSION,
  type ApiCountryHistory,
  type ApiUnitHistory,
  type ReleaseChange,
  type UnitChange,
  isUnitChange,
} from '../core/shared/api.ts';
import type { Manifest } from '../core/shared/manifest.ts';
import type { ReleaseFeed } from '../core/release-feed.ts';
import { changesPage } from './pages/changes-page.ts';
import { countryPage, fileUrl } from '../core/dist-paths.ts';

/** Returns the history document's path inside dist/, e.g. "api/v1/earth/CHL/history.json". */
export function historyPath(m: Manifest): string {
  return `api/v1/${m.body}/${m.iso_a3}/history.json`;
}

/** Returns the IDs a change is about (none for a whole country or level: its units have entries of their own). */
function idsOf(c: ReleaseChange): string[] {
  if (!isUnitChange(c)) return [];
  return 'id' in c ? [c.id] : [...c.old, ...c.new];
}

/** Returns one line saying what a change did to the unit `id`. */
function summary(c: UnitChange, id: string, name: (id: string) => string): string {
  switch (c.type) {
    case 'added': {
      const verb = c.restored ? 'restored with its earlier ID' : 'added';
      return c.derived_from ? `${verb}, from ${c.derived_from.map(name).join(' + ')}` : verb;
    }
    case 'removed':
      return 'removed';
    case 'renamed':
      return `renamed: ${c.from} → ${c.to}${c.spelling_only ? ' (spelling only)' : ''}`;
    case 'recoded':
      return `re-coded: ${c.from} → ${c.to}`;
    case 'attributes':
      return `attributes changed: ${c.keys.join(', ')}`;
    case 'geometry':
      return c.kind === 'boundary' ? 'boundary changed' : 're-digitised (the same line drawn again)';
    default: {
      const verb = c.type === 'merged' ? 'merged' : c.type === 'split' ? 'split' : 'reorganised';
      return c.old.includes(id)
        ? `${verb} into ${c.new.map(name).join(' + ')}`
        : `${verb}: made from ${c.old.map(name).join(' + ')}`;
    }
  }
}

/**
 * Returns the history of country `m` from `feeds` (newest first, as
 * build/release/publish.ts gives them), or undefined when there is no
 * release. Units are those of the latest registry (every ID ever given).
 */
export function countryHistory(
  base: string,
  m: Manifest,
  feeds: ReleaseFeed[],
): ApiCountryHistory | undefined {
  const latest = feeds[0];
  if (!latest) return undefined;
  const units: Record<string, ApiUnitHistory> = {};
  // This country's units, then sorted: sorting every unit for each of 250 countries took a second.
  const own = [...latest.units.values()].filter((u) => u.country === m.iso_a3);
  for (const u of own.sort((a, b) => (a.id < b.id ? -1 : 1))) {
    const { file, feature, parent_id, country, last_seen, ...entry } = u;
    void parent_id;
    void country;
    const current = file !== undefined && feature !== undefined;
    // A current unit's last_seen is the latest release, which moves with every release: left out.
    units[u.id] = { ...entry, ...(current ? {} : { last_seen }), current, changes: [] };
  }
  const name = (id: string) => {
    const u = latest.units.get(id);
    return u ? `${u.name || u.code || id} (${id})` : id;
  };
  // The releases in which this country changed, and the first that held it: not one line per
  // release, so that a country that did not change keeps its history, and its page, byte for byte.
  const first = [...feeds].reverse().find((feed) => feed.countries.has(m.iso_a3));
  const releases: ApiCountryHistory['releases'] = [];
  for (const feed of feeds) {
    const counts: ApiCountryHistory['releases'][number]['changes'] = {};
    for (const c of feed.changes) {
      if (c.country !== m.iso_a3) continue;
      counts[c.type] = (counts[c.type] ?? 0) + 1;
    }
    if (Object.keys(counts).length === 0 && feed !== first) continue;
    releases.push({
      version: feed.version,
      changes_page: fileUrl(base, changesPage(feed.version).replace(/index\.html$/, '')),
      // The country as that release published it: none when the release does not hold it (it was removed).
      page: feed.countries.has(m.iso_a3) ? fileUrl(base, `releases/${feed.version}/${countryPage(m)}`) : null,
      ...(feed === first ? { first: true as const } : {}),
      changes: counts,
    });
  }
  for (const feed of [...feeds].reverse()) {
    for (const c of feed.changes) {
      if (c.country !== m.iso_a3 || !isUnitChange(c)) continue;
      for (const id of idsOf(c)) {
        units[id]?.changes.push({ release: feed.version, type: c.type, summary: summary(c, id, name) });
      }
    }
  }
  return { api_version: API_VERSION, country: m.iso_a3, releases, units };
}
