// The work of a catalogue's countries (plan.ts planCountries), as a single
// build and the merge of a sharded one (build/shard/) hand it to what is made
// across countries (plan.ts planAcross): one country's work, several
// shards' joined in the catalogue's order.
import type { Downloads } from '../formats/downloads.ts';
import { compareWorldFiles, type WorldFiles } from '../formats/world-files.ts';
import type { CheckedManifestFile } from '../manifest/validate.ts';
import type { BuiltFile } from '../output/write-dist.ts';
import type { CountryAtlas } from '../site/atlas.ts';
import type { CountryRecords } from '../site/search-records.ts';
import type { CountryTiles } from '../tiles/country-tiles.ts';
import type { WorldTiles } from '../tiles/world-tiles.ts';

/**
 * What each country's files and pages are made of: its downloads, its
 * atlas (units and maps), its units' own files and its tiles. Countries are
 * independent, so this is the part a sharded build spreads over machines
 * (build/shard/): any subset of the manifests gives the same work for each.
 */
export interface CountryWork {
  downloads: Downloads;
  atlas: Map<string, CountryAtlas>; // by manifest file
  unitFiles: Map<string, BuiltFile>; // the units' own GeoJSON files, by dist path
  tiles: CountryTiles; // the countries' archives only: the world's are added across
  filesRead: number; // GeoJSON files read to draw the atlas (the tiles count their own)
  bytesRead: number;
  world?: WorldWork; // what the shards made across countries (build/shard/); a single build makes it in planAcross
  pages?: Map<string, BuiltFile>; // the countries' own pages and API documents, when shards made them (countryPages)
  search?: Map<string, CountryRecords>; // the countries' search records by their key, when shards made them
}

/**
 * What spans countries but a shard makes (build/shard/shard.ts), each from
 * every country's data as a single build does: the world files of some
 * levels, and the world map with its tiles.
 */
export interface WorldWork {
  files: WorldFiles; // the world files of the levels made, by body, then level
  map?: { svg: string } | null; // the front page's world map; undefined: not made here, null: nothing to draw
  globe?: WorldTiles | null; // its tiles (none without --tiles or a map)
}

/**
 * Returns the work of several subsets of `manifests` as one, each map in
 * the catalogue's order (by manifest, as `manifests` lists them, or by
 * path): a single build and the merge of shards (build/shard/merge.ts) pass
 * their work through here, so what is made across countries from it is
 * made from the same values in the same order.
 */
export function joinWork(manifests: CheckedManifestFile[], pieces: CountryWork[]): CountryWork {
  const byManifest = <V>(maps: Map<string, V>[]) => {
    const all = new Map(maps.flatMap((m) => [...m]));
    return new Map(manifests.flatMap(({ file }) => (all.has(file) ? [[file, all.get(file)!] as const] : [])));
  };
  const byPath = <V>(maps: Map<string, V>[]) =>
    new Map(maps.flatMap((m) => [...m]).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const sum = (of: (w: CountryWork) => number) => pieces.reduce((n, w) => n + of(w), 0);
  const tiles = pieces.map((w) => w.tiles);
  return {
    downloads: {
      byManifest: byManifest(pieces.map((w) => w.downloads.byManifest)),
      files: byPath(pieces.map((w) => w.downloads.files)),
      converted: sum((w) => w.downloads.converted),
      reused: sum((w) => w.downloads.reused),
      warnings: pieces.flatMap((w) => w.downloads.warnings),
    },
    atlas: byManifest(pieces.map((w) => w.atlas)),
    unitFiles: byPath(pieces.map((w) => w.unitFiles)),
    tiles: {
      byManifest: byManifest(tiles.map((t) => t.byManifest)),
      untiled: byManifest(tiles.map((t) => t.untiled)),
      files: byPath(tiles.map((t) => t.files)),
      built: byPath(tiles.map((t) => t.built)),
      mercator: byManifest(tiles.map((t) => t.mercator)),
      units: byPath(tiles.map((t) => t.units)),
      filesRead: sum((w) => w.tiles.filesRead),
      bytesRead: sum((w) => w.tiles.bytesRead),
    },
    filesRead: sum((w) => w.filesRead),
    bytesRead: sum((w) => w.bytesRead),
    ...(pieces.some((w) => w.world) ? { world: joinWorld(pieces.flatMap((w) => w.world ?? [])) } : {}),
    ...(pieces.some((w) => w.pages) ? { pages: byPath(pieces.flatMap((w) => w.pages ?? [])) } : {}),
    ...(pieces.some((w) => w.search) ? { search: byPath(pieces.flatMap((w) => w.search ?? [])) } : {}),
  };
}

/** Returns the shards' world work as one: the world files by body, then level, and the map of the shard that made it. */
function joinWorld(pieces: WorldWork[]): WorldWork {
  const made = pieces.find((w) => w.map !== undefined);
  return {
    files: {
      files: pieces.flatMap((w) => w.files.files).sort(compareWorldFiles),
      built: new Map(pieces.flatMap((w) => [...w.files.built])),
    },
    map: made?.map ?? null,
    globe: made?.globe ?? null,
  };
}
