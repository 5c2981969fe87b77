// Facts every listing derives from a manifest: the licences that apply, the
// levels it publishes, and the order manifests are listed in.
import type { License, Manifest } from '../core/shared/manifest.ts';

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
