// The country's JSON document (api/v1/{body}/{ISO3}.json), fetched once and
// shared by the map (to name a unit: code, parent) and the units list.
import type { CountryDocument } from '../../build/core/shared/api.ts';

export type { ApiUnit, CountryDocument } from '../../build/core/shared/api.ts';

let loaded: Promise<CountryDocument | undefined> | undefined;

/** The URL of the document named by #units[data-api], absolute, or undefined when there is none. */
function documentUrl(): string | undefined {
  const url = document.getElementById('units')?.dataset.api;
  return url ? new URL(url, location.href).href : undefined;
}

/**
 * Returns a link of the country document as a URL: a release's documents link
 * relatively to themselves (docs/releases.md), the root's by path; both
 * resolve against the document's own URL, not the page's.
 */
export function documentLink(link: string): string {
  return new URL(link, documentUrl() ?? location.href).href;
}

/** Returns the document named by #units[data-api], or undefined when there is none or it cannot be read. */
export function countryDocument(): Promise<CountryDocument | undefined> {
  if (!loaded) {
    const url = documentUrl();
    loaded = url
      ? fetch(url)
          .then((r) => (r.ok ? (r.json() as Promise<CountryDocument>) : undefined))
          .catch(() => undefined)
      : Promise.resolve(undefined);
  }
  return loaded;
}

const names = new WeakMap<CountryDocument, Map<string, string>>();

/** Returns the name of a parent code (a unit of any level, or the country itself), else the code. */
export function parentName(doc: CountryDocument, code: string): string {
  let byCode = names.get(doc);
  if (!byCode) {
    const m = doc.manifest;
    byCode = new Map([[m.iso_a3, m.name.en]]);
    if (m.iso_a2) byCode.set(m.iso_a2, m.name.en);
    for (const units of Object.values(doc.units)) {
      for (const u of units) if (u.code && !byCode.has(u.code)) byCode.set(u.code, u.name);
    }
    names.set(doc, byCode);
  }
  return byCode.get(code) ?? code;
}

/**
 * Returns the anchor id (ApiUnit.id) of the unit a permalink names: by its
 * release ID (#unit-k3f9a2m7x0qp), else by its anchor (#unit-US-TX, the older
 * permalinks, which keep working).
 */
export function unitAnchor(doc: CountryDocument | undefined, id: string): string {
  for (const units of Object.values(doc?.units ?? {})) {
    const unit = units.find((u) => u.unit_id === id);
    if (unit) return unit.id;
  }
  return id;
}
