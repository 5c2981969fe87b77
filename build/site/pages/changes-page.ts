// "What changed" in one release: every change since the previous release
// (the feed of dist/api/releases/VERSION/changes.json), as a page at
// releases-changes/VERSION/, grouped by kind, each unit named with its ID.
import type { ReleaseChange } from '../../core/shared/api.ts';
import type { ReleaseFeed } from '../../core/release-feed.ts';
import { formatInt, markup, type Html } from './html.ts';
import { renderPage, type PageContext } from './layout.ts';

const KINDS: [ReleaseChange['type'], string][] = [
  ['country-added', 'Countries added'],
  ['country-removed', 'Countries removed'],
  ['country-changed', 'Countries described differently'],
  ['level-added', 'Levels added'],
  ['level-removed', 'Levels removed'],
  ['added', 'Added'],
  ['removed', 'Removed'],
  ['merged', 'Merged'],
  ['split', 'Split'],
  ['reorganised', 'Reorganised'],
  ['renamed', 'Renamed'],
  ['recoded', 'Re-coded'],
  ['attributes', 'Attributes changed'],
  ['geometry', 'Geometry changed'],
];

/** Returns a described field's value as the page shows it: text as it is, else its JSON; absent as "(none)". */
function shown(v: unknown): string {
  return v === null ? '(none)' : typeof v === 'string' ? `“${v}”` : JSON.stringify(v);
}

/** Returns the page's path inside dist/, e.g. "releases-changes/2026.11/index.html". */
export function changesPage(version: string): string {
  return `releases-changes/${version}/index.html`;
}

/** Returns the "What changed" page of one release. */
export function renderChangesPage(context: PageContext, feed: ReleaseFeed): string {
  const unit = (id: string) => {
    const u = feed.units.get(id);
    return u
      ? markup`${u.name || '(no name)'} <code>${u.code}</code> <small>${u.country} ${u.level} · ${id}</small>`
      : id;
  };
  const detail = (c: ReleaseChange): Html | string => {
    switch (c.type) {
      case 'country-added':
      case 'country-removed':
        return markup`${c.name} <code>${c.country}</code> <small>${c.body} · ${c.levels.join(', ')}</small>`;
      case 'country-changed':
        return markup`${c.name} <code>${c.country}</code>: ${c.fields.map((f, i) => markup`${i ? '; ' : ''}${f.field} ${shown(f.from)} → ${shown(f.to)}`)}`;
      case 'level-added':
      case 'level-removed':
        return markup`<code>${c.country}</code> ${c.level} <small>${formatInt(c.units)} units, each listed below</small>`;
      case 'added':
        return markup`${unit(c.id)}${c.restored ? ' (restored: the ID it had before its removal)' : ''}`;
      case 'removed':
      case 'attributes':
        return markup`${unit(c.id)}${c.type === 'attributes' ? markup`: ${c.keys.join(', ')}` : ''}`;
      case 'renamed':
      case 'recoded':
        return markup`${unit(c.id)}: ${c.from} → ${c.to}`;
      case 'geometry': {
        const km = c.max_distance_m === null ? '' : ` · up to ${(c.max_distance_m / 1000).toFixed(1)} km`;
        const area = c.area_change === null ? '' : ` · area ${(c.area_change * 100).toFixed(2)} %`;
        const kind = c.kind === 'boundary' ? 'boundary change' : 're-digitised (the same line drawn again)';
        return markup`${unit(c.id)}: ${kind}${area}${km}`;
      }
      default:
        return markup`${joined(c.old.map(unit))} → ${joined(c.new.map(unit))}`;
    }
  };
  const sections = KINDS.map(([type, title]) => {
    const list = feed.changes.filter((c) => c.type === type);
    if (!list.length) return '';
    return markup`<h2>${title} (${formatInt(list.length)})</h2>
<ul class="changes">
${list.map((c) => markup`<li>${detail(c)}</li>\n`)}</ul>
`;
  });
  const since =
    feed.previous === null ? 'the first release: nothing to compare with' : `since ${feed.previous}`;
  const main = markup`<h1>What changed in release ${feed.version}</h1>
<p class="lead">${formatInt(feed.changes.length)} changes ${since}. <a href="${context.base}releases/${feed.version}/">The release</a> · <a href="${context.base}api/releases/${feed.version}/changes.json">as JSON</a></p>
${sections}`;
  return renderPage(context, {
    title: `What changed in ${feed.version}`,
    description: `Every country, level and unit added, removed, merged, split, renamed, re-coded or redrawn in release ${feed.version}.`,
    main,
  });
}

/** Returns the items with " + " between them (markup kept as markup). */
function joined(items: (Html | string)[]): (Html | string)[] {
  return items.flatMap((item, i) => (i ? [' + ', item] : [item]));
}
