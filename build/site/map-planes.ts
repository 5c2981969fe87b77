// The plane of each country's maps, one per country so that every level of
// it lines up (the level switch keeps the reader where they are): framed on
// the first drawable level in the order ADM0, ADM1, ADM2… (the country's own
// outline first), from the file its picture is drawn from. The atlas draws
// every level's SVG in it and the tiles stage cuts every level's tiles in it.
// Cached in <root>/.cache/geoshelf/planes.json by file, size and mtime.
import { readLevelFeatures } from '../geojson/level-features.ts';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Dataset, Manifest } from '../core/shared/manifest.ts';
import { cacheFiles, loadCache, saveCache } from '../output/build-cache.ts';
import { sameStamp, stampOf, type FileStamp } from '../core/files.ts';
import type { LoadedManifest } from '../manifest/validate.ts';
import { OuterRings, planeOf, type Plane } from '../geo/map-plane.ts';
import { drawnSource } from '../geo/map-sources.ts';

/** Bumped when planes are computed differently, so cached ones are redone. */
const VERSION = 1;

type PlaneCache = Record<string, FileStamp & { v: number; plane: Plane | null }>;

const ORDER = ['ADM0', 'ADM1', 'ADM2', 'ADM3', 'ADM4', 'ADM5', 'QUAD'];

/** Returns the file a country's plane is framed on: the drawn file of its first level in ORDER. */
export function planeSource(m: Manifest): string | undefined {
  const sorted = [...m.datasets].sort((a, b) => ORDER.indexOf(a.level) - ORDER.indexOf(b.level));
  return sorted.map((d: Dataset) => drawnSource(d)).find((path) => path !== undefined);
}

/**
 * Returns the plane framed on a level file's polygons (`path` relative to
 * `root`), or undefined when it has none. The file was validated: one that no
 * longer reads is a problem naming it, never a map quietly left out.
 */
async function framedOn(root: string, path: string): Promise<Plane | undefined> {
  const outer = new OuterRings();
  for (const feature of await readLevelFeatures(root, path)) outer.add(feature.geometry);
  return planeOf(outer);
}

/** Returns the plane of every manifest that has a drawable level, keyed by manifest file. */
export async function countryPlanes(root: string, loaded: LoadedManifest[]): Promise<Map<string, Plane>> {
  const cache = await loadCache<PlaneCache>(
    cacheFiles(root).planes,
    {},
    (c) => typeof c === 'object' && c !== null,
  );
  const used: PlaneCache = {};
  const planes = new Map<string, Plane>();
  // Every source stat'ed at once (one after the other, 250 countries waited 30 ms); read in order.
  const sources = loaded.map(({ manifest }) => planeSource(manifest));
  const infos = await Promise.all(
    sources.map((path) => (path ? stat(join(root, path)).catch(() => undefined) : undefined)),
  );
  for (const [i, { file }] of loaded.entries()) {
    const path = sources[i];
    const info = infos[i];
    if (!path || !info) continue;
    let hit = cache.data[path];
    if (!hit || hit.v !== VERSION || !sameStamp(hit, info)) {
      const plane = await framedOn(root, path);
      hit = { v: VERSION, ...stampOf(info), plane: plane ?? null };
    }
    used[path] = hit;
    if (hit.plane) planes.set(file, hit.plane);
  }
  cache.data = used;
  await saveCache(cache);
  return planes;
}
