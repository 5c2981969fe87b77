// The work across countries that a shard makes when the assignment gives
// it some (assign.ts): the world files of some levels, the world map and
// its tiles. Each reads every country's data, as in a single build, so the
// shard reads every manifest of the tree, not only its countries'; each
// file is held to the sha256 its manifest states (the world files hash
// their sources again as they write), and the shard that validates a
// country checks that those are its files' bytes.
import { createHash } from 'node:crypto';
import type { WorldWork } from '../catalogue/country-work.ts';
import { worldWithTiles } from '../catalogue/plan.ts';
import { problem, type Problem } from '../core/problem.ts';
import type { CheckedManifest, MeasuredFile } from '../core/shared/manifest.ts';
import { prepareWorldFiles } from '../formats/world-files.ts';
import type { UnitIds } from '../identity/unit-ids.ts';
import { loadManifests } from '../manifest/load.ts';
import { compareManifests } from '../manifest/summary.ts';
import type { CheckedManifestFile, LoadedManifest } from '../manifest/validate.ts';
import { WORLD_MAP, worldLevelTask } from './assign.ts';

/** Returns a manifest as the world's code takes it, its files as it states them (a valid manifest's are what validate measures). */
function asStated(loaded: LoadedManifest): CheckedManifestFile {
  const files: MeasuredFile[] = [];
  const text = Buffer.from(loaded.text);
  files.push({
    path: loaded.file,
    bytes: text.length,
    sha256: createHash('sha256').update(text).digest('hex'),
  });
  for (const d of loaded.manifest.datasets) {
    if (d.path && d.sha256 && d.bytes !== undefined)
      files.push({ path: d.path, bytes: d.bytes, sha256: d.sha256 });
    for (const p of d.parts ?? []) files.push({ path: p.path, bytes: p.bytes, sha256: p.sha256 });
  }
  return {
    ...loaded,
    manifest: loaded.manifest as CheckedManifest, // a manifest past the schema states bytes and sha256 where it names a path
    files: files.sort((a, b) => (a.path < b.path ? -1 : 1)),
    stamps: new Map(),
  };
}

/**
 * Returns every manifest of the tree as the world's code takes it, sorted
 * as the catalogue lists them, or a problem per manifest that does not pass
 * the schema (the shard that validates it says why).
 */
export function everyManifest(
  root: string,
  files: string[],
): { manifests: CheckedManifestFile[] } | { problems: Problem[] } {
  const loaded = loadManifests(root, files);
  const broken = [...new Set([...loaded.problems.map((p) => p.file), ...loaded.invalid.map((i) => i.file)])];
  if (broken.length) {
    const message =
      'read for the world files and map, which join every country, it does not pass the schema (the shard that makes this country lists why)';
    return { problems: broken.map((file) => problem(file, message, { rule: 'schema' })) };
  }
  return {
    manifests: loaded.manifests.map(asStated).sort((a, b) => compareManifests(a.manifest, b.manifest)),
  };
}

/** Returns the world work of `tasks` (a shard's, assign.ts) over every manifest `all`, as a single build makes it. */
export async function worldWork(
  root: string,
  base: string,
  tasks: string[],
  all: CheckedManifestFile[],
  unitIds: UnitIds | undefined,
  tiles: boolean,
): Promise<WorldWork> {
  const mine = new Set(tasks);
  const files = await prepareWorldFiles(root, all, unitIds, (body, level) =>
    mine.has(worldLevelTask(body, level)),
  );
  if (!mine.has(WORLD_MAP)) return { files };
  const { map, globe } = await worldWithTiles(root, base, all, tiles);
  return { files, map: map ? { svg: map.svg } : null, globe: globe ?? null };
}
