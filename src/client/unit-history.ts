// A unit's history across releases, shown under the units heading when a
// permalink (#unit-…) opens a unit that has a release ID: the releases it
// was in, its last change, what it supersedes or was superseded by (links),
// and its changes per release. Read from the country's history document
// (api/v1/{body}/{ISO3}/history.json, #units[data-history]), fetched once.
import type { ApiCountryHistory, ApiUnit } from '../../build/core/shared/api.ts';

let loaded: Promise<ApiCountryHistory | undefined> | undefined;

function historyDocument(url: string): Promise<ApiCountryHistory | undefined> {
  loaded ??= fetch(url)
    .then((r) => (r.ok ? (r.json() as Promise<ApiCountryHistory>) : undefined))
    .catch(() => undefined);
  return loaded;
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, text = ''): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  e.textContent = text;
  return e;
}

/**
 * Shows the history of `unit` in the units section (`section`), or hides it
 * when the unit has no release ID or no history; `current` finds a unit of
 * this page by its release ID (a link to it stays on the page).
 */
export async function showUnitHistory(
  section: HTMLElement,
  unit: ApiUnit | undefined,
  current: (id: string) => ApiUnit | undefined,
): Promise<void> {
  let box = section.querySelector<HTMLElement>('#unit-history');
  const url = section.dataset.history;
  const doc = url && unit?.unit_id ? await historyDocument(url) : undefined;
  const entry = unit?.unit_id ? doc?.units[unit.unit_id] : undefined;
  if (!doc || !entry || !unit) {
    if (box) box.hidden = true;
    return;
  }
  if (!box) {
    box = element('section');
    box.id = 'unit-history';
    box.className = 'unit-history';
    box.setAttribute('aria-live', 'polite');
    section.querySelector('#units-h')?.nextElementSibling?.after(box);
  }
  box.hidden = false;
  const title = element('h3', `History of ${unit.name || unit.code || unit.id} `);
  title.append(element('code', entry.id));
  // A current unit has no last_seen (it would move with every release): it is "since" its first.
  const changed = entry.last_changed === entry.first_seen ? '' : `; last changed in ${entry.last_changed}`;
  const seen = element(
    'p',
    entry.current
      ? `Since release ${entry.first_seen}${changed}.`
      : entry.first_seen === entry.last_seen
        ? `In release ${entry.first_seen}.`
        : `In the releases ${entry.first_seen} to ${entry.last_seen}${changed}.`,
  );
  if (!entry.current) seen.append(' No longer in the latest release.');
  const link = (id: string) => {
    const a = element('a');
    const here = current(id);
    const other = doc.units[id];
    const page = doc.releases.find((r) => r.version === other?.last_seen)?.page;
    a.href = here ? `#unit-${id}` : page ? `${page}#unit-${id}` : `#unit-${id}`;
    a.textContent = `${here?.name || other?.name || id} (${id})`;
    return a;
  };
  const links = (label: string, ids: string[] | undefined) => {
    if (!ids?.length) return [];
    const p = element('p', `${label}: `);
    ids.forEach((id, i) => p.append(...(i ? [', '] : []), link(id)));
    return [p];
  };
  const changes = element('ul');
  changes.className = 'changes';
  for (const c of entry.changes) {
    const li = element('li');
    const page = doc.releases.find((r) => r.version === c.release)?.changes_page;
    const a = element('a', c.release);
    if (page) a.href = page;
    li.append(a, `: ${c.summary}`);
    changes.append(li);
  }
  if (!entry.changes.length) changes.append(element('li', `No change since ${entry.first_seen}.`));
  box.replaceChildren(
    title,
    seen,
    ...links('Supersedes', entry.supersedes),
    ...links('Superseded by', entry.superseded_by),
    changes,
  );
}
