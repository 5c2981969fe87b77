// Reads what the atlas needs from every level of every manifest, once: its
// units (build/site/units.ts) and, when a preview or a small file can be
// drawn, its map as SVG with one `data-u` per unit (build/site/map-svg.ts). Both
// are cached in <root>/.cache/geoshelf/atlas/ by source file and its stamp
// (build/core/cache.ts), so a rebuild reads only changed files.
import { eachLevelFeature, readLevelFeatures } from '../geojson/level-features.ts';
import type { Stats } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { runAll } from '../core/slots.ts';
import { join } from 'node:path';
import { cacheFiles } from '../output/build-cache.ts';
import { readCacheFile, saveCacheFile, type CacheFile } from '../core/cache.ts';
import { sameStamp, stampOf, type FileStamp } from '../core/files.ts';
import { isObject } from '../core/json-value.ts';
import type { Dataset, Level, Manifest } from '../core/shared/manifest.ts';
import { renderMapSvg } from './map-svg.ts';
import { drawnSource, mapSource, type CountryMap } from '../geo/map-sources.ts';
import type { Plane } from '../geo/map-plane.ts';
import type { TilesInfo } from '../core/shared/tiles.ts';
import type { LoadedManifest } from '../manifest/validate.ts';
import type { UnitIds } from '../identity/unit-ids.ts';
import { levelUnits, unitRow, unitsOfRows, type Unit, type UnitRow } from './units.ts';
import { attachFacts, type SourceFacts } from './unit-files.ts';
import type { BuiltFile } from '../output/write-dist.ts';

/** Largest full file read for units; above it the units come from the preview (bboxes then approximate). */
export const MAX_UNITS_FILE_BYTES = 32 * 2 ** 20;

interface LevelMap {
  svg: string; // from renderMapSvg()
  from: string; // the file drawn, e.g. "data/earth/CHL/preview/CHL_ADM1.preview.geojson"
  preview: boolean;
}

export interface AtlasLevel {
  level: Level; // e.g. "ADM1"
  units: Unit[];
  map?: LevelMap;
}

/** What the atlas knows of one manifest: its levels in manifest order, and the level its page draws first. */
export interface CountryAtlas {
  levels: AtlasLevel[];
  mapLevel?: Level; // e.g. "ADM1"; see mapSource()
  tiles?: Record<string, TilesInfo>; // by level: its full-detail tiles (build/tiles/country-tiles.ts)
  untiled?: Record<string, number>; // by level: the bytes of a drawn level too large to cut into tiles
  webMaps?: Record<string, WebMap>; // by level: its Web Mercator archive and style
}

/** A level's Web Mercator archive and style inside dist/, and the archive's deepest zoom. */
export interface WebMap {
  archive: string; // e.g. "earth/CHL/CHL_ADM1.mercator.pmtiles"
  style: string; // e.g. "earth/CHL/CHL_ADM1.style.json"
  maxzoom: number; // e.g. 7
}

/** Returns the map a country page shows: the atlas's map of its default level. */
export function mainMap(atlas: CountryAtlas): CountryMap | undefined {
  const map = atlas.levels.find((l) => l.level === atlas.mapLevel)?.map;
  return map && { ...map, level: atlas.mapLevel! };
}

type AtlasCache = Record<string, FileStamp & { drawing?: string; units?: Unit[]; svg?: string | null }>;

interface Read {
  filesRead: number;
  bytesRead: number;
}

/** Returns a level file's features (validated by now: a file that no longer reads is a problem naming it). */
async function features(root: string, path: string): Promise<{ features: unknown[] }> {
  return { features: await readLevelFeatures(root, path) };
}

/** The unit facts of each source file (unit-files.ts), and the dist files their units' own GeoJSON adds. */
export interface UnitFactsInput {
  sources: Map<string, SourceFacts>; // by path, e.g. "data/earth/CHL/CHL_ADM1.geojson"
  built: Map<string, BuiltFile>;
}

/** Returns the files a level's units come from: the full file when small enough, else the preview, else the parts. */
export function unitSources(d: Dataset): string[] {
  if (d.path && (d.bytes ?? Infinity) <= MAX_UNITS_FILE_BYTES) return [d.path];
  if (d.preview) return [d.preview];
  if (d.path) return [d.path];
  return (d.parts ?? []).map((p) => p.path);
}

/**
 * Returns the unit rows of a file read for its units alone: one feature
 * parsed at a time, only its names, codes and bboxes kept. A whole parse
 * kept every position of the file alive until its country was done: V8
 * moved that tree to its old generation, where it stayed as garbage until a
 * full collection, and the atlas of a generated 0.3 GiB catalogue
 * (bench:catalogue) held 574 MB of heap for 95 MB live.
 */
async function streamedRows(root: string, path: string): Promise<UnitRow[]> {
  const rows: UnitRow[] = [];
  await eachLevelFeature(root, path, (f) => rows.push(unitRow(f as Parameters<typeof unitRow>[0])));
  return rows;
}

/**
 * Returns the atlas of every manifest, keyed by manifest file, and counts the
 * GeoJSON files (and bytes) it had to read (cache misses). Every level of a
 * country is drawn in its plane from `planes`, when it has one.
 */
export async function readAtlas(
  root: string,
  loaded: LoadedManifest[],
  planes: Map<string, Plane> = new Map(), // by manifest file: map-planes.ts
  unitIds?: UnitIds, // the release IDs the units show (none: no ID)
  facts?: UnitFactsInput, // each source's unit facts; their files are added to `facts.built`
): Promise<{ atlas: Map<string, CountryAtlas> } & Read> {
  const caches = await loadCountryCaches(root, loaded);
  const read: Read = { filesRead: 0, bytesRead: 0 };
  // A file both listed and drawn (a small level without preview) is read once per run.
  const parsed = new Map<string, Promise<{ features: unknown[] }>>();

  /** Returns the Entry reader of one country's cache. */
  const entryIn =
    (cache: CountryCache): Entry =>
    async (path, key, drawing, fill, drawn = drawing !== undefined) => {
      const info = await stamp(path);
      let hit = cache.data[key];
      if (!hit || !sameStamp(hit, info) || hit.drawing !== drawing) {
        // A file read for its units alone streams; one its level draws too is parsed whole, once.
        if (!drawn || !parsed.has(path)) {
          read.filesRead++;
          read.bytesRead += info.size;
        }
        const rows = drawn ? undefined : await streamedRows(root, path);
        if (drawn && !parsed.has(path)) parsed.set(path, features(root, path));
        hit = {
          ...stampOf(info),
          drawing,
          ...fill(drawn ? (await parsed.get(path)!).features : [], rows),
        };
        cache.changed = true;
      }
      cache.used[key] = hit;
      return hit;
    };

  // Every source's size and mtime, many at a time: when little changed, these are nearly all the work.
  const stamps = new Map<string, Promise<Stats>>();
  const stamp = (path: string) => {
    if (!stamps.has(path)) stamps.set(path, stat(join(root, path)));
    return stamps.get(path)!;
  };
  const sources = loaded.flatMap(({ manifest }) =>
    manifest.datasets.flatMap((d) => [...unitSources(d), ...(drawnSource(d) ? [drawnSource(d)!] : [])]),
  );
  await runAll(sources, 16, async (path) => void (await stamp(path).catch(() => undefined)));
  const atlas = new Map<string, CountryAtlas>();
  for (const { file, manifest } of loaded) {
    const levels: AtlasLevel[] = [];
    const entry = entryIn(caches.get(file)!);
    for (const d of manifest.datasets)
      levels.push(await readLevel(manifest, d, entry, planes.get(file), unitIds, facts));
    parsed.clear(); // keep one manifest's files in memory at most
    atlas.set(file, { levels, mapLevel: mapSource(manifest)?.level });
  }
  await saveCountryCaches(root, caches);
  return { atlas, ...read };
}

/**
 * One country's part of the atlas cache, a file of its own
 * (.cache/geoshelf/atlas/{body}.{ISO3}.json), so that a build where one
 * country changed parses them all but writes one. `used`: the entries this
 * run asked for, which replace the file's when `changed` or when the file
 * held others.
 */
interface CountryCache {
  path: string;
  data: AtlasCache;
  used: AtlasCache;
  changed: boolean;
  file: CacheFile<AtlasCache>; // as read
}

/** Returns the atlas cache of each manifest of `loaded`, by manifest file; missing or damaged ones are empty. */
async function loadCountryCaches(root: string, loaded: LoadedManifest[]): Promise<Map<string, CountryCache>> {
  const dir = cacheFiles(root).atlas;
  // The cache of geoshelf before it was split by country: never read again.
  await rm(`${dir}.json`, { force: true });
  const caches = new Map<string, CountryCache>();
  await runAll(loaded, 16, async ({ file }) => {
    const [, body, iso] = file.split('/'); // "data/earth/CHL/manifest.json" (validate checked the folder)
    const path = join(dir, `${body}.${iso}.json`);
    const read = await readCacheFile(path, {}, isAtlasCache);
    caches.set(file, { path, data: read.data, used: {}, changed: false, file: read });
  });
  return caches;
}

/** Writes each country's cache that changed, and removes those of countries no longer built. */
async function saveCountryCaches(root: string, caches: Map<string, CountryCache>): Promise<void> {
  const dir = cacheFiles(root).atlas;
  const kept = new Set<string>();
  await runAll([...caches.values()], 16, async (cache) => {
    kept.add(cache.path);
    const same = Object.keys(cache.used).length === Object.keys(cache.data).length;
    if (cache.changed || !same) await saveCacheFile({ ...cache.file, data: cache.used });
  });
  for (const name of await readdir(dir).catch(() => [])) {
    if (!kept.has(join(dir, name))) await rm(join(dir, name), { force: true, recursive: true });
  }
}

/**
 * Returns the cache entry of `path` (units and/or SVG, as `fill` computes
 * them), read only on a miss: parsed whole when `drawn` (the level's map is
 * drawn from it), else one feature at a time (`rows`). `drawing` is what
 * else an SVG depends on (its title and plane), undefined for units.
 */
type Entry = (
  path: string,
  key: string,
  drawing: string | undefined,
  fill: (features: unknown[], rows?: UnitRow[]) => { units?: Unit[]; svg?: string | null },
  drawn?: boolean, // default: whether `drawing` is given
) => Promise<{ units?: Unit[]; svg?: string | null }>;

/**
 * Returns a copy of a cached unit with its release ID. Every copy has the
 * same fields in the same order (absent ones undefined): a spread plus a
 * field gave each of 10,000 units its own hidden class, and every page, API
 * document and search record reads them.
 */
function unitCopy(u: Unit, unit_id: string | undefined): Unit {
  const { id, name, names, code, parent, bbox, display_bbox, part, feature } = u;
  const [area_km2, label, geojson] = [undefined, undefined, undefined]; // attachFacts gives them
  return {
    id,
    name,
    names,
    code,
    parent,
    bbox,
    display_bbox,
    part,
    feature,
    unit_id,
    area_km2,
    label,
    geojson,
  };
}

async function readLevel(
  m: Manifest,
  d: Dataset,
  entry: Entry,
  plane?: Plane,
  unitIds?: UnitIds,
  facts?: UnitFactsInput,
): Promise<AtlasLevel> {
  const units: Unit[] = [];
  const sources = unitSources(d);
  const bySource: [string, Unit[]][] = [];
  for (const path of sources) {
    const read: Unit[] = [];
    bySource.push([path, read]);
    const hit = await entry(
      path,
      `units ${path}`,
      undefined,
      (fs, rows) => ({
        units: rows ? unitsOfRows(rows, d) : levelUnits(fs as Parameters<typeof levelUnits>[0], d),
      }),
      path === drawnSource(d),
    );
    // Copies: the cache keeps what the file gave. IDs go by feature index, in the released file only (not a preview).
    const ids = unitIds?.files.get(path)?.ids;
    for (const u of hit.units ?? []) read.push(unitCopy(u, ids?.[u.feature] || undefined));
    units.push(...read);
  }
  if (sources.length > 1) dedupeIds(units); // parts of one level: ids unique per file only
  for (const [path, read] of bySource) {
    const found = facts?.sources.get(path); // none for a preview: its features are not the unit's
    if (found) attachFacts(m, d.level, read, found, facts!.built);
  }
  if (d.level === 'ADM1') for (const u of units) u.parent ||= m.iso_a3; // an ADM1 unit's parent is the country
  const drawn = drawnSource(d);
  if (!drawn) return { level: d.level, units };
  const title = `Map of ${m.name.en}, ${d.level} ${drawn === d.preview ? 'preview' : 'boundaries'}`;
  const hit = await entry(drawn, `map ${drawn}`, JSON.stringify([title, plane]), (fs) => {
    const ids = new Map<number, string>();
    const typed = fs as Parameters<typeof levelUnits>[0];
    // Ids by feature index: the units of the drawn file, computed like the list's (same codes, names, ids).
    const drawnUnits = levelUnits(typed, d);
    let u = 0;
    typed.forEach((f, i) => {
      if (u < drawnUnits.length && hasPosition(f?.geometry)) ids.set(i, drawnUnits[u++].id);
    });
    return {
      svg:
        renderMapSvg(
          { features: fs },
          title,
          [...typed.keys()].map((i) => ids.get(i)),
          plane,
        )?.svg ?? null,
    };
  });
  const map = hit.svg ? { svg: hit.svg, from: drawn, preview: drawn === d.preview } : undefined;
  return { level: d.level, units, ...(map ? { map } : {}) };
}

function hasPosition(geometry: unknown): boolean {
  let found = false;
  const walk = (v: unknown): void => {
    if (found || !Array.isArray(v)) return;
    if (typeof v[0] === 'number') found = true;
    else v.forEach(walk);
  };
  const g = geometry as { coordinates?: unknown; geometries?: { coordinates?: unknown }[] } | null;
  walk(g?.coordinates);
  (g?.geometries ?? []).forEach((x) => walk(x?.coordinates));
  return found;
}

function dedupeIds(units: Unit[]): void {
  const seen = new Set<string>();
  for (const unit of units) {
    const base = unit.id;
    for (let n = 2; seen.has(unit.id); n++) unit.id = `${base}-${n}`;
    seen.add(unit.id);
  }
}

/** Whether `value` is a country's atlas cache, every entry whole (it is used as it stands). */
function isAtlasCache(value: unknown): value is AtlasCache {
  return isObject(value) && Object.values(value).every(isAtlasEntry);
}

function isAtlasEntry(e: unknown): boolean {
  if (!isObject(e) || !['ino', 'size', 'mtimeMs', 'ctimeMs'].every((key) => typeof e[key] === 'number'))
    return false;
  const { drawing, units, svg } = e;
  return (
    (drawing === undefined || typeof drawing === 'string') &&
    (svg === undefined || svg === null || typeof svg === 'string') &&
    (units === undefined || (Array.isArray(units) && units.every(isUnit)))
  );
}

function isUnit(u: unknown): boolean {
  const box = (b: unknown) => Array.isArray(b) && b.length === 4 && b.every((n) => typeof n === 'number');
  return (
    isObject(u) &&
    ['id', 'name', 'code', 'parent'].every((key) => typeof u[key] === 'string') &&
    Array.isArray(u.names) &&
    u.names.every((n) => typeof n === 'string') &&
    box(u.bbox) &&
    box(u.display_bbox) &&
    (u.part === undefined || typeof u.part === 'string') &&
    typeof u.feature === 'number'
  );
}
