// The plane of each country's maps, one per country so that every level of
// it lines up (the level switch keeps the reader where they are): framed on
// the first drawable level in the order ADM0, ADM1, ADM2… (the country's own
// outline first), from the file its picture is drawn from. The atlas draws
// every level's SVG in it and the tiles stage cuts every level's tiles in it.
// Cached in <root>/.cache/geoshelf/planes.json by file and its stamp
// (build/core/cache.ts).
import { readLevelFeatures } from '../geojson/level-features.ts';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Body, Dataset, Manifest } from '../core/shared/manifest.ts';
import { cacheFiles } from '../output/build-cache.ts';
import { readCacheFile, saveCacheFile } from '../core/cache.ts';
import { sameStamp, stampOf, type FileStamp } from '../core/files.ts';
import { isObject } from '../core/json-value.ts';
import type { LoadedManifest } from '../manifest/validate.ts';
import { OuterRings, planeOf, type Plane } from '../geo/map-plane.ts';
import { drawnSource } from '../geo/map-sources.ts';

type PlaneCache = Record<string, FileStamp & { plane: Plane | null }>;

const ORDER = ['ADM0', 'ADM1', 'ADM2', 'ADM3', 'ADM4', 'ADM5', 'QUAD'];

/** Returns the file a country's plane is framed on: the drawn file of its first level in ORDER. */
function planeSource(m: Manifest): string | undefined {
  const sorted = [...m.datasets].sort((a, b) => ORDER.indexOf(a.level) - ORDER.indexOf(b.level));
  return sorted.map((d: Dataset) => drawnSource(d)).find((path) => path !== undefined);
}

/**
 * Returns the plane framed on a level file's polygons (`path` relative to
 * `root`), or undefined when it has none. The file was validated: one that no
 * longer reads is a problem naming it, never a map quietly left out.
 */
async function framedOn(root: string, path: string, body: Body): Promise<Plane | undefined> {
  const outer = new OuterRings();
  for (const feature of await readLevelFeatures(root, path)) outer.add(feature.geometry);
  // Another body's schemes tile the globe as latitude/longitude boxes: drawn as its body map is.
  return planeOf(outer, body === 'earth' ? undefined : 'plate-carree');
}

/** Returns the plane of every manifest that has a drawable level, keyed by manifest file. */
export async function countryPlanes(root: string, loaded: LoadedManifest[]): Promise<Map<string, Plane>> {
  const cache = await readCacheFile(cacheFiles(root).planes, {}, isPlaneCache);
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
    if (!hit || !sameStamp(hit, info)) {
      const plane = await framedOn(root, path, loaded[i]!.manifest.body); // the path names the body: cache keys stay apart
      hit = { ...stampOf(info), plane: plane ?? null };
    }
    used[path] = hit;
    if (hit.plane) planes.set(file, hit.plane);
  }
  cache.data = used;
  await saveCacheFile(cache);
  return planes;
}

function isPlaneCache(value: unknown): value is PlaneCache {
  const stamped = (e: Record<string, unknown>) =>
    ['ino', 'size', 'mtimeMs', 'ctimeMs'].every((key) => typeof e[key] === 'number');
  return (
    isObject(value) &&
    Object.values(value).every((e) => isObject(e) && stamped(e) && (e.plane === null || isPlane(e.plane)))
  );
}

/** Whether `value` is a plane as planeOf() makes it (read back from a cache file). */
export function isPlane(value: unknown): value is Plane {
  if (!isObject(value) || !isObject(value.projection)) return false;
  const { projection: p, extent } = value;
  const numbers = (o: Record<string, unknown>, keys: string[]) =>
    keys.every((key) => typeof o[key] === 'number' && Number.isFinite(o[key]));
  return (
    (p.name === 'equal-earth' ||
      p.name === 'plate-carree' ||
      (p.name === 'laea' && numbers(p, ['lon0', 'lat0']))) &&
    numbers(value, ['height', 'scale', 'x0', 'y1', 'offsetX', 'offsetY']) &&
    Array.isArray(extent) &&
    extent.length === 4 &&
    extent.every((n) => typeof n === 'number' && Number.isFinite(n))
  );
}
