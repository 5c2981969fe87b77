// Which unit IDs a build shows, by data file and feature index: those of
// the release the build is a copy of, or, for the root catalogue, those of
// the latest release for every level whose files are byte for byte the ones
// it released. A changed level shows no IDs until it is released: only
// `release` decides a new unit's ID (a merge or a split may give new ones),
// and the catalogue never shows an ID that a later release would not give.
import type { Manifest } from '../core/shared/manifest.ts';

/** Unit IDs by data file (e.g. "data/earth/CHL/CHL_ADM1.geojson"), in feature order, with the release giving them. */
export interface UnitIds {
  release: string; // e.g. "2026.11"
  files: Map<string, { sha256: string; ids: string[] }>;
}

/** The files of one level as the build has them now: path and sha256, in feature order. */
export interface CurrentLevelFiles {
  files: { path: string; sha256: string }[];
  features: number[]; // features in each file, same order
}

/**
 * Returns the IDs of the release `version` for the levels in `current`
 * whose files (paths and sha256s, in order) are those the release recorded;
 * a level's IDs are split over its files by their feature counts.
 */
export function unitIdsOf(
  version: string,
  released: { files: { path: string; sha256: string }[]; ids: string[] }[], // release.json's levels
  current: CurrentLevelFiles[],
): UnitIds {
  const files = new Map<string, { sha256: string; ids: string[] }>();
  const byFiles = new Map(released.map((l) => [key(l.files), l]));
  for (const level of current) {
    const match = byFiles.get(key(level.files));
    const total = level.features.reduce((n, f) => n + f, 0);
    if (!match || match.ids.length !== total) continue;
    let at = 0;
    level.files.forEach((file, i) => {
      const n = level.features[i]!;
      files.set(file.path, { sha256: file.sha256, ids: match.ids.slice(at, at + n) });
      at += n;
    });
  }
  return { release: version, files };
}

function key(files: { path: string; sha256: string }[]): string {
  return JSON.stringify(files.map((f) => [f.path, f.sha256]));
}

/** Returns every level of `manifests` (QUAD aside, as `release` records them) with its files in feature order. */
export function currentLevelFiles(manifests: Manifest[]): CurrentLevelFiles[] {
  return manifests.flatMap((m) =>
    m.datasets
      .filter((d) => d.level !== 'QUAD')
      .map((d) =>
        d.path
          ? { files: [{ path: d.path, sha256: d.sha256! }], features: [d.features] }
          : {
              files: (d.parts ?? []).map((p) => ({ path: p.path, sha256: p.sha256 })),
              features: (d.parts ?? []).map((p) => p.features),
            },
      ),
  );
}
