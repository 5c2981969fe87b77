// The world map's tiles: "map-world.pmtiles" at the root of dist/, one unit
// per country of the front page's picture (build/site/world-map.ts), in its
// order and its Equal Earth plane, cut from the full-detail files of the
// level the picture draws (a country over MAX_TILED_BYTES adds its drawn
// file instead, so it is still there when zoomed). Cut on the main thread:
// the world is small (the sample's 241 ADM0 files are 2.3 MB). Cached under
// <root>/.cache/geoshelf/tiles/ like the countries' archives. Beside it,
// the same countries in Web Mercator, "map-world.mercator.pmtiles"
// (mercator.ts), for other maps.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { MAX_TILED_BYTES, type TilesInfo } from '../core/shared/tiles.ts';
import { writeFileAtomic } from '../core/atomic-write.ts';
import { codeIdentity } from '../core/cache.ts';
import { cacheDir } from '../core/files.ts';
import { fileUrl } from '../core/dist-paths.ts';
import { filePolygons, type WorldFrame } from '../geo/world-frame.ts';
import { tileSources } from './country-tiles.ts';
import { LevelRings } from './level-rings.ts';
import { levelArchive, type LevelTiles } from './level-tiles.ts';
import { mercatorArchive, MERCATOR_KEYS } from './mercator.ts';
import { WORLD_MERCATOR } from './mercator-style.ts';
import { isLevelTiles } from './tiles-index.ts';

/** The world archive's path inside dist/. */
const WORLD_TILES = 'map-world.pmtiles';
/**
 * The world's Web Mercator archive stops at this zoom (1.2 km a pixel of a
 * 512 px tile; readers over-zoom past it, and each country's own archive
 * holds its detail). By its countries' detail alone it would go as deep as
 * theirs: full-detail coastlines (25 m between vertices) asked for zoom 12,
 * 4^12 tiles of the globe, and a 300 MB catalogue's build passed 15 GB of
 * memory cutting it (bench:catalogue). The sample's stops at 5 by itself.
 */
const WORLD_MERCATOR_MAX_ZOOM = 6;

export interface WorldTiles {
  info: TilesInfo;
  file: [path: string, bytes: Buffer];
  mercator: { file: [path: string, bytes: Buffer]; maxzoom: number };
  filesRead: number;
  bytesRead: number;
}

/** Returns the files each country's tiles are cut from: the level's full files, else the drawn file when they are too large. */
function sourcesOf(world: WorldFrame): string[][] {
  return world.countries.map(({ dataset, drawn }) => {
    const sources = tileSources(dataset);
    const bytes = dataset.bytes ?? (dataset.parts ?? []).reduce((n, p) => n + p.bytes, 0);
    return sources.length > 0 && bytes <= MAX_TILED_BYTES ? sources : [drawn];
  });
}

/**
 * Returns the world map's archive, from the cache or cut now, or undefined
 * when no country has a polygon. A country whose files cannot be read is an
 * empty unit (the validator reports them), so the numbering still follows
 * `world.ids`.
 */
export async function worldTiles(
  root: string,
  base: string,
  world: WorldFrame,
): Promise<WorldTiles | undefined> {
  const sources = sourcesOf(world);
  const hash = createHash('sha256').update(JSON.stringify([codeIdentity(), world.plane, world.ids]));
  // Each file by its sha256 when the manifest gives it, else by its stamp (stat'ed all at once, hashed in order).
  const named = [...sources.entries()].flatMap(([i, paths]) => {
    const { dataset } = world.countries[i];
    return paths.map((path) => ({
      path,
      sha: path === dataset.path ? dataset.sha256 : dataset.parts?.find((p) => p.path === path)?.sha256,
    }));
  });
  const infos = await Promise.all(
    named.map(({ path, sha }) => (sha ? undefined : stat(join(root, path)).catch(() => undefined))),
  );
  named.forEach(({ path, sha }, i) =>
    hash.update(JSON.stringify([path, sha ?? [infos[i]?.size, infos[i]?.mtimeMs]])),
  );
  const key = `world-${hash.digest('hex').slice(0, 32)}`;
  const dir = join(cacheDir(root), 'tiles');
  await mkdir(dir, { recursive: true });
  let [filesRead, bytesRead] = [0, 0];
  let rings: LevelRings | undefined;
  /** One unit per country: all polygons of its files, so the ids stay aligned with the picture's. */
  const read = async (): Promise<LevelRings> => {
    if (rings) return rings;
    rings = new LevelRings();
    for (const paths of sources) {
      const polygons: unknown[] = [];
      for (const path of paths) {
        polygons.push(...(await filePolygons(join(root, path))));
        filesRead++;
        bytesRead += (await stat(join(root, path)).catch(() => undefined))?.size ?? 0;
      }
      const units = rings.units;
      rings.addFeature({ geometry: { type: 'MultiPolygon', coordinates: polygons } });
      if (rings.units === units) rings.units++; // unreadable: an empty unit keeps the numbering
    }
    return rings;
  };
  const made = await cached(join(dir, key), async () => {
    const level = await read();
    return level.points === 0 ? undefined : levelArchive(level, world.plane, 'world');
  });
  if (!made) return undefined;
  const values = world.countries.map(({ manifest: m }) => [undefined, m.iso_a3, m.name.en]);
  const mKey = createHash('sha256')
    .update(JSON.stringify([key, values, WORLD_MERCATOR_MAX_ZOOM]))
    .digest('hex')
    .slice(0, 32);
  const merc = await cached(join(dir, `world-mercator-${mKey}`), async () =>
    mercatorArchive(
      await read(),
      { keys: MERCATOR_KEYS, values },
      { name: 'world' },
      WORLD_MERCATOR_MAX_ZOOM,
    ),
  );
  await removeOtherWorlds(dir, [key, `world-mercator-${mKey}`]);
  return {
    info: {
      url: fileUrl(base, WORLD_TILES),
      bytes: made.archive.length,
      root: made.tiles.root,
      levels: made.tiles.levels,
      named: true,
      ids: world.ids,
    },
    file: [WORLD_TILES, made.archive],
    mercator: { file: [WORLD_MERCATOR, merc!.archive], maxzoom: merc!.tiles.levels },
    filesRead,
    bytesRead,
  };
}

/** A world archive or its record in the tiles cache folder, e.g. "world-mercator-<key>.json". */
const WORLD_FILE = /^(world-(?:mercator-)?[0-9a-f]{32})\.(?:pmtiles|json)$/;

/**
 * Removes the world archives and records of the cache folder `dir` other
 * than `kept` (their names without extension): every change to any country
 * makes new ones, and before, every cut stayed forever (as the countries'
 * did before tiles-index.ts).
 */
async function removeOtherWorlds(dir: string, kept: string[]): Promise<void> {
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const stem = WORLD_FILE.exec(name)?.[1];
    if (stem && !kept.includes(stem)) await rm(join(dir, name), { force: true });
  }
}

/**
 * Returns the archive cached at `at` (+ ".pmtiles", its record + ".json"),
 * else cuts it with `cut` and caches it; undefined when `cut` finds nothing.
 */
async function cached(
  at: string,
  cut: () => Promise<{ bytes: Buffer; tiles: LevelTiles } | undefined>,
): Promise<{ archive: Buffer; tiles: LevelTiles } | undefined> {
  try {
    const tiles = JSON.parse(await readFile(`${at}.json`, 'utf8')) as LevelTiles;
    const archive = await readFile(`${at}.pmtiles`);
    // A damaged record or an archive cut short is a miss, as in the countries' index.
    if (isLevelTiles(tiles) && tiles.bytes === archive.length) return { archive, tiles };
  } catch {
    // not cached
  }
  const made = await cut();
  if (!made) return undefined;
  await writeFileAtomic(`${at}.pmtiles`, made.bytes);
  await writeFileAtomic(`${at}.json`, JSON.stringify(made.tiles));
  return { archive: made.bytes, tiles: made.tiles };
}
