// The GeoJSON files' unit IDs, in a sidecar per file: the publisher's files
// are published byte for byte (their sha256 is in the manifest), so the
// release IDs cannot be written into them. One JSON file per level file or
// part, the IDs by feature index, with the sha256 of the file they belong to.
import { API_VERSION, type ApiUnitIds } from '../core/shared/api.ts';
import type { Dataset, Manifest } from '../core/shared/manifest.ts';
import { UNIT_ID_PROPERTY } from '../core/shared/api.ts';
import type { UnitIds } from '../identity/unit-ids.ts';
import { fileUrl } from '../core/dist-paths.ts';

/** Returns the sidecar of a level file or part, relative to the base, e.g. "api/v1/earth/CHL/CHL_ADM1.unit-ids.json". */
export function unitIdsPath(m: Manifest, d: Dataset, partCode?: string): string {
  const layer = `${m.iso_a3}_${d.level}${partCode === undefined ? '' : `_${partCode}`}`; // as the downloads' layers
  return `api/v1/${m.body}/${m.iso_a3}/${layer}.unit-ids.json`;
}

/** Returns the sidecars of every file of `m` that has IDs: dist path → text. */
export function renderUnitIdsFiles(
  base: string,
  m: Manifest,
  unitIds: UnitIds | undefined,
): Map<string, string> {
  const out = new Map<string, string>();
  if (!unitIds) return out;
  const add = (path: string, sidecar: string) => {
    const given = unitIds.files.get(path);
    if (!given) return;
    const doc: ApiUnitIds = {
      api_version: API_VERSION,
      file: fileUrl(base, path),
      sha256: given.sha256,
      property: UNIT_ID_PROPERTY,
      ids: given.ids,
    };
    out.set(sidecar, `${JSON.stringify(doc)}\n`);
  };
  for (const d of m.datasets) {
    if (d.path) add(d.path, unitIdsPath(m, d));
    for (const p of d.parts ?? []) add(p.path, unitIdsPath(m, d, p.code));
  }
  return out;
}
