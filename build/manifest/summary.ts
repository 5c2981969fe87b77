// Facts every listing derives from a manifest: the licences that apply, the
// levels it publishes, who to credit, and the order manifests are listed in.
import type { Dataset, License, Manifest } from '../core/shared/manifest.ts';

/** Returns every licence that applies to a manifest: the listed ones when "mixed", sorted. */
export function manifestLicenses(m: Manifest): License[] {
  const all = new Set<License>(m.source.license === 'mixed' ? (m.source.licenses ?? []) : [m.source.license]);
  for (const dataset of m.datasets) all.add(dataset.license);
  return [...all].sort();
}

/** Returns the manifest's levels in order, e.g. ["ADM0", "ADM1"]. */
export function manifestLevels(m: Manifest): string[] {
  return [...new Set(m.datasets.map((d) => d.level))].sort();
}

/** Orders manifests by body, then English name, then ISO3 (the order of every listing). */
export function compareManifests(a: Manifest, b: Manifest): number {
  return (
    a.body.localeCompare(b.body) ||
    a.name.en.localeCompare(b.name.en, 'en') ||
    a.iso_a3.localeCompare(b.iso_a3)
  );
}

/** Returns who to credit for `datasets` of a manifest: their providers (`src_provider`), else the source's name. */
export function creditedName(m: Manifest, datasets: readonly Dataset[] = m.datasets): string {
  const providers = [...new Set(datasets.map((d) => d.src_provider).filter(Boolean))].join('; ');
  return providers || m.source.name;
}

/**
 * Returns a dataset's attribution in one line, as the country page credits
 * it: e.g. "geoBoundaries via https://www.geoboundaries.org (retrieved 2026-08-11)".
 */
export function datasetAttribution(m: Manifest, d: Dataset): string {
  return `${creditedName(m, [d])} via ${m.source.url} (retrieved ${m.source.retrieved})`;
}
