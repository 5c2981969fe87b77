// The build's tiles stage: one PMTiles archive per drawn level of every
// country, "<body>/<ISO3>/map-<LEVEL>.pmtiles" beside its page, cut from the
// level's published full-detail file(s) in the country's plane. Archives are
// cached under <root>/.cache/geoshelf/tiles/, named by what they are made
// from (the code's identity, build/core/cache.ts; the sources' sha256 or
// stamp; the plane), so a rebuild cuts only the levels whose data changed.
// Levels are cut on a worker thread (cut-level.ts), while the main thread
// draws the atlas. Earth's levels also get a Web Mercator archive,
// "<body>/<ISO3>/<ISO3>_<LEVEL>.mercator.pmtiles" (mercator.ts), for other
// maps, cut in the same job and cached the same way.
import type { BuiltFile } from '../output/write-dist.ts';
import { createHash } from 'node:crypto';
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Dataset, Manifest } from '../core/shared/manifest.ts';
import { MAX_TILED_BYTES, type TilesInfo } from '../core/shared/tiles.ts';
import { codeIdentity } from '../core/cache.ts';
import { cacheDir } from '../core/files.ts';
import type { LoadedManifest } from '../manifest/validate.ts';
import type { UnitIds } from '../identity/unit-ids.ts';
import { countryPage, fileUrl } from '../core/dist-paths.ts';
import type { Plane } from '../geo/map-plane.ts';
import { drawnSource } from '../geo/map-sources.ts';
import { cutLevelInWorker } from './cut-level.ts';
import { TilesIndex, type CachedLevel } from './tiles-index.ts';

export interface CountryTiles {
  /** By manifest file, then level: what the page's map needs to load the level's tiles. */
  byManifest: Map<string, Record<string, TilesInfo>>;
  /** By manifest file, then level: the bytes of each drawn level too large to cut (over MAX_TILED_BYTES). */
  untiled: Map<string, Record<string, number>>;
  /** Path inside dist → archive bytes (the world's, world-tiles.ts). */
  files: Map<string, Buffer>;
  /** Path inside dist → the cached archive published there (never read into memory). */
  built: Map<string, BuiltFile>; // dist path → the cached archive
  /** By manifest file, then level: the level's Web Mercator archive (Earth's levels only). */
  mercator: Map<string, Record<string, MercatorTiles>>;
  /** By "<manifest file>#<level>": the units (features with a position) in the level's tiles. */
  units: Map<string, number>;
  filesRead: number;
  bytesRead: number;
}

/** A level's (or the world's) Web Mercator archive, as its style and page link it. */
export interface MercatorTiles {
  path: string; // inside dist, e.g. "earth/CHL/CHL_ADM1.mercator.pmtiles"
  bytes: number;
  maxzoom: number;
}

/** Returns the path inside dist/ of a level's Web Mercator archive, e.g. "earth/CHL/CHL_ADM1.mercator.pmtiles". */
function mercatorFile(m: Pick<Manifest, 'body' | 'iso_a3'>, level: string): string {
  return `${countryPage(m)}${m.iso_a3}_${level}.mercator.pmtiles`;
}

/** Returns the path inside dist/ of a level's tiles, e.g. "earth/CHL/map-ADM1.pmtiles". */
function tilesFile(m: Manifest, level: string): string {
  return `${countryPage(m)}map-${level}.pmtiles`;
}

/** Returns the full-detail files a level's tiles are cut from, in units-list order, or [] when it has none. */
export function tileSources(d: Dataset): string[] {
  if (d.path) return [d.path];
  return (d.parts ?? []).map((p) => p.path);
}

/** Returns what an archive is made from (its sources, and `how`: the plane…), as a file name: the same key means the same bytes. */
async function cacheKey(root: string, d: Dataset, sources: string[], how: unknown): Promise<string> {
  const hash = createHash('sha256').update(JSON.stringify([codeIdentity(), how]));
  for (const path of sources) {
    const sha = path === d.path ? d.sha256 : d.parts?.find((p) => p.path === path)?.sha256;
    const stamp = sha ? undefined : await stat(join(root, path)); // only for a file the manifest gives no sha256
    hash.update(JSON.stringify([path, sha ?? [stamp!.size, stamp!.mtimeMs]]));
  }
  return hash.digest('hex').slice(0, 32);
}

/** A level's archive, read from the cache or being cut on the worker thread. */
interface PendingLevel {
  file: string;
  level: string;
  path: string; // inside dist, e.g. "earth/CHL/map-ADM1.pmtiles"
  mercatorPath: string; // e.g. "earth/CHL/CHL_ADM1.mercator.pmtiles"
  made: Promise<{ plane?: CachedLevel; mercator?: CachedLevel } | undefined>;
}

/** What levelArchives() needs of a level and of the build. */
interface LevelJob {
  root: string;
  dir: string; // the tiles cache folder
  index: TilesIndex;
  out: CountryTiles; // counts the files read
  manifest: Manifest;
  d: Dataset;
  sources: string[];
  bytes: number;
  plane: Plane;
  unitIds?: UnitIds;
}

/** Returns a level's archives (its Web Mercator one only on Earth) from the cache, else cut on the tiles worker. */
async function levelArchives(job: LevelJob): Promise<{ plane?: CachedLevel; mercator?: CachedLevel }> {
  const { root, dir, index, out, manifest, d, sources, bytes, plane, unitIds } = job;
  const key = await cacheKey(root, d, sources, plane);
  // Earth's only: Web Mercator is a projection of Earth's ellipsoid. Made from the units' ids too.
  const ids = sources.map((path) => unitIds?.files.get(path)?.ids);
  const attribution = manifest.source.name;
  const mKey =
    manifest.body === 'earth' ? await cacheKey(root, d, sources, ['mercator', ids, attribution]) : undefined;
  const [hit, mHit] = [await index.find(key), mKey ? await index.find(mKey) : undefined];
  if (hit && (!mKey || mHit)) return { plane: hit, mercator: mHit };
  const [archivePath, infoPath] = [join(dir, `${key}.pmtiles`), join(dir, `${key}.json`)];
  const name = `${manifest.iso_a3}_${d.level}`;
  const absolute = sources.map((p) => join(root, p));
  const mercator =
    mKey && !mHit
      ? {
          archivePath: join(dir, `${mKey}.pmtiles`),
          infoPath: join(dir, `${mKey}.json`),
          ids,
          attribution,
        }
      : undefined;
  const cut = await cutLevelInWorker({
    sources: absolute,
    plane,
    name,
    archivePath,
    infoPath,
    planeCached: hit !== undefined,
    mercator,
  });
  out.filesRead += sources.length;
  out.bytesRead += bytes;
  return {
    plane: hit ?? (cut.tiles ? await index.add(key, cut.tiles) : undefined),
    mercator: mHit ?? (mKey && cut.mercator ? await index.add(mKey, cut.mercator) : undefined),
  };
}

/** Tiles of no level: what a build without tiles (or before any are cut) holds. */
export function noCountryTiles(): CountryTiles {
  return {
    byManifest: new Map(),
    untiled: new Map(),
    files: new Map(),
    built: new Map(),
    mercator: new Map(),
    units: new Map(),
    filesRead: 0,
    bytesRead: 0,
  };
}

/**
 * Returns the archives of every level that the atlas draws (it has a
 * picture to upgrade) of every country with a plane, from the cache or cut
 * now on the tiles worker thread (every level is posted before any is
 * awaited, so the thread works through them while the caller goes on). A
 * level that cannot be read is left without tiles: the validator reports
 * data files, and the page keeps its picture.
 */
export async function countryTiles(
  root: string,
  base: string,
  loaded: LoadedManifest[],
  planes: Map<string, Plane>,
  unitIds?: UnitIds,
): Promise<CountryTiles> {
  const dir = join(cacheDir(root), 'tiles');
  await mkdir(dir, { recursive: true });
  const index = new TilesIndex(dir);
  const out = noCountryTiles();
  const levels: PendingLevel[] = [];
  for (const { file, manifest } of loaded) {
    const plane = planes.get(file);
    if (!plane) continue;
    for (const d of manifest.datasets) {
      const sources = tileSources(d);
      const bytes = d.bytes ?? (d.parts ?? []).reduce((n, p) => n + p.bytes, 0);
      if (!drawnSource(d) || sources.length === 0) continue;
      if (bytes > MAX_TILED_BYTES) {
        out.untiled.set(file, { ...out.untiled.get(file), [d.level]: bytes });
        continue;
      }
      const made = levelArchives({
        root,
        dir,
        index,
        out,
        manifest,
        d,
        sources,
        bytes,
        plane,
        unitIds,
      }).catch(
        () => undefined, // unreadable data: reported by the validator; this level keeps its picture
      );
      levels.push({
        file,
        level: d.level,
        path: tilesFile(manifest, d.level),
        mercatorPath: mercatorFile(manifest, d.level),
        made,
      });
    }
  }
  for (const { file, level, path, mercatorPath, made } of levels) {
    const both = await made;
    const [got, merc] = [both?.plane, both?.mercator];
    if (merc) {
      out.built.set(mercatorPath, { from: merc.archive, sha256: merc.sha256 });
      const info = { path: mercatorPath, bytes: merc.bytes, maxzoom: merc.tiles.levels };
      out.mercator.set(file, { ...out.mercator.get(file), [level]: info });
    }
    if (!got) continue;
    out.built.set(path, { from: got.archive, sha256: got.sha256 });
    out.byManifest.set(file, {
      ...out.byManifest.get(file),
      [level]: {
        url: fileUrl(base, path),
        bytes: got.bytes,
        root: got.tiles.root,
        levels: got.tiles.levels,
        named: false, // nameTiles() says, once the units lists are read
      },
    });
    out.units.set(`${file}#${level}`, got.tiles.units);
  }
  try {
    index.save();
  } catch {
    // e.g. a read-only cache folder: the next build finds its levels by their records
  }
  return out;
}

/**
 * Sets each level's `named`: its tile features are numbered like its units
 * list only when both were read from the same files, which they were when
 * they count the same units (`unitCounts` gives the list's length).
 */
export function nameTiles(
  tiles: CountryTiles,
  unitCounts: (file: string, level: string) => number | undefined,
): void {
  for (const [file, levels] of tiles.byManifest) {
    for (const [level, info] of Object.entries(levels)) {
      info.named = unitCounts(file, level) === tiles.units.get(`${file}#${level}`);
    }
  }
}
