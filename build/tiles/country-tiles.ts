// The build's tiles stage: one PMTiles archive per drawn level of every
// country, "<body>/<ISO3>/map-<LEVEL>.pmtiles" beside its page, cut from the
// level's published full-detail file(s) in the country's plane. Archives are
// cached under <root>/.cache/geoshelf/tiles/, named by what they are made
// from (the sources' sha256 or stamp, the plane, TILES_VERSION), so a rebuild
// cuts only the levels whose data changed.
import { createHash } from 'node:crypto';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Dataset, Manifest } from '../../src/shared/manifest.ts';
import type { TilesInfo } from '../../src/shared/tiles.ts';
import { writeFileAtomic } from '../core/atomic-write.ts';
import { cacheDir } from '../core/files.ts';
import type { LoadedManifest } from '../manifest/validate.ts';
import { countryPage, fileUrl } from '../site/pages/paths.ts';
import type { Plane } from '../site/map-plane.ts';
import { drawnSource } from '../site/maps.ts';
import { levelArchive, TILES_VERSION, type LevelTiles } from './level-tiles.ts';
import { readLevelRings } from './level-rings.ts';

/**
 * Largest level (its full files together) cut into tiles: cutting runs on the
 * main thread and holds every position in memory several times over, so a
 * larger level keeps its static picture only (until cutting moves to a worker).
 */
export const MAX_TILED_BYTES = 16 * 2 ** 20;

export interface CountryTiles {
  /** By manifest file, then level: what the page's map needs to load the level's tiles. */
  byManifest: Map<string, Record<string, TilesInfo>>;
  /** Path inside dist → archive bytes. */
  files: Map<string, Buffer>;
  filesRead: number;
  bytesRead: number;
}

/** Returns the path inside dist/ of a level's tiles, e.g. "earth/CHL/map-ADM1.pmtiles". */
export function tilesFile(m: Manifest, level: string): string {
  return `${countryPage(m)}map-${level}.pmtiles`;
}

/** Returns the full-detail files a level's tiles are cut from, in units-list order, or [] when it has none. */
export function tileSources(d: Dataset): string[] {
  if (d.path) return [d.path];
  return (d.parts ?? []).map((p) => p.path);
}

/** Returns what an archive is made from, as a file name: the same key means the same bytes. */
async function cacheKey(root: string, d: Dataset, sources: string[], plane: Plane): Promise<string> {
  const hash = createHash('sha256').update(JSON.stringify([TILES_VERSION, plane]));
  for (const path of sources) {
    const info = await stat(join(root, path));
    const sha = path === d.path ? d.sha256 : d.parts?.find((p) => p.path === path)?.sha256;
    hash.update(JSON.stringify([path, sha ?? [info.size, info.mtimeMs]]));
  }
  return hash.digest('hex').slice(0, 32);
}

/**
 * Returns the archives of every level that the atlas draws (it has a
 * picture to upgrade) of every country with a plane, from the cache or cut
 * now. A level that cannot be read is left without tiles: the validator
 * reports data files, and the page keeps its picture.
 */
export async function countryTiles(
  root: string,
  base: string,
  loaded: LoadedManifest[],
  planes: Map<string, Plane>,
  unitCounts: (file: string, level: string) => number | undefined,
): Promise<CountryTiles> {
  const dir = join(cacheDir(root), 'tiles');
  await mkdir(dir, { recursive: true });
  const out: CountryTiles = { byManifest: new Map(), files: new Map(), filesRead: 0, bytesRead: 0 };
  for (const { file, manifest } of loaded) {
    const plane = planes.get(file);
    if (!plane) continue;
    const levels: Record<string, TilesInfo> = {};
    for (const d of manifest.datasets) {
      const sources = tileSources(d);
      const bytes = d.bytes ?? (d.parts ?? []).reduce((n, p) => n + p.bytes, 0);
      if (!drawnSource(d) || sources.length === 0 || bytes > MAX_TILED_BYTES) continue;
      let made: { archive: Buffer; tiles: LevelTiles } | undefined;
      try {
        const key = await cacheKey(root, d, sources, plane);
        const [archivePath, infoPath] = [join(dir, `${key}.pmtiles`), join(dir, `${key}.json`)];
        try {
          const tiles = JSON.parse(await readFile(infoPath, 'utf8')) as LevelTiles;
          made = { archive: await readFile(archivePath), tiles };
        } catch {
          const rings = await readLevelRings(sources.map((p) => join(root, p)));
          out.filesRead += sources.length;
          out.bytesRead += bytes;
          if (rings.points === 0) continue;
          const cut = levelArchive(rings, plane, `${manifest.iso_a3}_${d.level}`);
          made = { archive: cut.bytes, tiles: cut.tiles };
          await writeFileAtomic(archivePath, cut.bytes);
          await writeFileAtomic(infoPath, JSON.stringify(cut.tiles));
        }
      } catch {
        continue; // unreadable data: reported by the validator; this level keeps its picture
      }
      const path = tilesFile(manifest, d.level);
      out.files.set(path, made.archive);
      levels[d.level] = {
        url: fileUrl(base, path),
        bytes: made.archive.length,
        root: made.tiles.root,
        levels: made.tiles.levels,
        // Tile features are numbered like the units list only when both were read from the same files.
        named: unitCounts(file, d.level) === made.tiles.units,
      };
    }
    if (Object.keys(levels).length > 0) out.byManifest.set(file, levels);
  }
  return out;
}
