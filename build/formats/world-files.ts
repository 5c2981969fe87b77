// The world files of `geoshelf build`: per body and level, one GeoJSON, one
// GeoPackage and one GeoParquet joining every country's features of that
// level (its file, or all its parts when it is published only as parts), each
// feature with its own properties plus `country` (ISO3), `license` (the
// dataset's) and `attribution` (as the country page credits it), in the
// body's CRS (bodyCrs). Written by the download writers from the sources, in
// catalogue order, and kept in a cache folder keyed by everything they are
// made of (world-cache.ts): a rebuild makes again only a level whose sources,
// IDs or credits changed. Published at downloads/{body}/world/{LEVEL}.*, by
// `build` only: a release does not freeze them (docs/releases.md).
import { createHash } from 'node:crypto';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileChanged } from '../core/errors.ts';
import { runAll } from '../core/slots.ts';
import { bodyCrs, type CrsDefinition } from '../core/shared/crs.ts';
import type { Body, Level } from '../core/shared/manifest.ts';
import type { UnitIds } from '../identity/unit-ids.ts';
import { compareManifests, datasetAttribution } from '../manifest/summary.ts';
import type { CheckedManifestFile } from '../manifest/validate.ts';
import type { BuiltFile } from '../output/write-dist.ts';
import { FieldCollector, type Field } from './fields.ts';
import { sha256File } from './formats.ts';
import { openGeoJson } from './geojson.ts';
import { openGeoPackage } from './geopackage.ts';
import { openGeoParquet } from './geoparquet.ts';
import { pumpSources, scanSource, type SourceScan } from './source-scan.ts';
import { WorldCache, WORLD_SUFFIX, type WorldFormat, type WorldRecord } from './world-cache.ts';

/** The columns a world file adds to every feature, after the unit's own (which they replace when it has one of the same name). */
const WORLD_COLUMNS = ['country', 'license', 'attribution'] as const;

/** What a world file's features of one source get, e.g. {country: "CHL", license: "CC-BY-4.0", attribution: "… via https://…"}. */
type WorldExtra = Record<(typeof WORLD_COLUMNS)[number], string>;

/** One published world file, e.g. {body: "earth", level: "ADM1", format: "gpkg", url: "downloads/earth/world/ADM1.gpkg", …}. */
export interface WorldFile {
  body: Body;
  level: Level;
  format: WorldFormat;
  url: string; // path inside dist/, relative to the base
  bytes: number;
  sha256: string;
}

export interface WorldFiles {
  files: WorldFile[]; // by body, then level, then format (GeoJSON, GeoPackage, GeoParquet)
  built: Map<string, BuiltFile>; // dist path → the cached file
}

/** One level file or part joined into a world file. */
interface WorldSource {
  path: string; // e.g. "data/earth/CHL/CHL_ADM1.geojson"
  sha256: string;
  ids?: string[]; // the release's unit IDs, when the build has them for this file
  extra: WorldExtra;
}

/** One world file to make: a level of a body, and its sources in catalogue order. */
interface WorldLevel {
  body: Body;
  level: Level;
  layer: string; // e.g. "earth_ADM1", the layer (table) name inside each file
  crs: CrsDefinition;
  sources: WorldSource[];
}

/** Returns the folder of a body's world files inside dist/, e.g. "downloads/earth/world/". */
function worldFolder(body: Body): string {
  return `downloads/${body}/world/`;
}

/**
 * Returns the world files of every body and level of `loaded` (those `only` takes; making what
 * the cache lacks) and removes the cached ones no level uses any more.
 * Each source's sha256 is the one validation measured (`files`).
 */
export async function prepareWorldFiles(
  root: string,
  loaded: CheckedManifestFile[],
  unitIds?: UnitIds,
  only: (body: Body, level: Level) => boolean = () => true, // a shard's share of the levels (build/shard/)
): Promise<WorldFiles> {
  const cache = WorldCache.open(root);
  const levels = worldLevels(loaded, unitIds).filter((l) => only(l.body, l.level));
  const records = new Map<WorldLevel, { dir: string; record: WorldRecord }>();
  const misses: { level: WorldLevel; key: string }[] = [];
  for (const level of levels) {
    const key = worldKey(level);
    const found = await cache.find(key, level.level);
    if (found) records.set(level, found);
    else misses.push({ level, key });
  }
  // One at a time: the per-country conversions are done, and each level uses one core.
  await runAll(misses, 1, async ({ level, key }) => {
    const dir = cache.dir(key);
    const record = await writeWorldLevel(root, level, dir);
    cache.record(key);
    records.set(level, { dir, record });
  });
  cache.finish();
  const files: WorldFile[] = [];
  const built = new Map<string, BuiltFile>();
  for (const level of levels) {
    const { dir, record } = records.get(level)!;
    for (const f of record) {
      const url = `${worldFolder(level.body)}${f.file}`;
      built.set(url, { from: join(dir, f.file), sha256: f.sha256 });
      files.push({
        body: level.body,
        level: level.level,
        format: f.format,
        url,
        bytes: f.bytes,
        sha256: f.sha256,
      });
    }
  }
  return { files, built };
}

/** Orders world files by body, then level (stable: a level's formats keep their order). */
export function compareWorldFiles(
  a: Pick<WorldFile, 'body' | 'level'>,
  b: Pick<WorldFile, 'body' | 'level'>,
): number {
  return a.body !== b.body
    ? a.body < b.body
      ? -1
      : 1
    : a.level !== b.level
      ? a.level < b.level
        ? -1
        : 1
      : 0;
}

/** Returns every body's levels, each with its sources in catalogue order (bodies, then levels, sorted). */
function worldLevels(loaded: CheckedManifestFile[], unitIds: UnitIds | undefined): WorldLevel[] {
  const byLevel = new Map<string, WorldLevel>();
  const sorted = [...loaded].sort((a, b) => compareManifests(a.manifest, b.manifest));
  for (const { manifest: m, files } of sorted) {
    const measured = new Map(files.map((f) => [f.path, f.sha256]));
    for (const d of m.datasets) {
      const id = `${m.body}/${d.level}`; // levels are unique within a manifest (rule level-duplicate)
      let level = byLevel.get(id);
      if (!level) {
        level = {
          body: m.body,
          level: d.level,
          layer: `${m.body}_${d.level}`,
          crs: bodyCrs(m.body),
          sources: [],
        };
        byLevel.set(id, level);
      }
      const extra = { country: m.iso_a3, license: d.license, attribution: datasetAttribution(m, d) };
      // The whole file when there is one; its parts split the same units.
      const paths = d.path ? [d.path] : (d.parts ?? []).map((p) => p.path);
      for (const path of paths) {
        const sha256 = measured.get(path)!; // validate measured every file a dataset names
        const given = unitIds?.files.get(path);
        const ids = given?.sha256 === sha256 ? given.ids : undefined;
        level.sources.push({ path, sha256, ...(ids ? { ids } : {}), extra });
      }
    }
  }
  return [...byLevel.values()].filter((l) => l.sources.length > 0).sort(compareWorldFiles);
}

/** Returns the cache key of a world file: a hash of everything its bytes depend on. */
function worldKey(level: WorldLevel): string {
  const idsHash = (ids?: string[]) => ids && createHash('sha256').update(ids.join('\n')).digest('hex');
  const parts = {
    layer: level.layer,
    crs: `${level.crs.authority}:${level.crs.code}`,
    sources: level.sources.map((s) => [s.sha256, idsHash(s.ids) ?? null, s.extra]),
  };
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** Returns the scans' fields joined: the units' own in first-seen order, then the world's columns. */
function joinedFields(units: FieldCollector, extras: FieldCollector): Field[] {
  const world = new Set<string>(WORLD_COLUMNS);
  return [...units.fields().filter((f) => !world.has(f.name)), ...extras.fields()];
}

/** Returns one scan of all `scans` in turn, as the writers take it (byte offsets run on across the files). */
function joinedScan(scans: SourceScan[], fields: Field[]): SourceScan {
  const count = scans.reduce((n, s) => n + s.count, 0);
  const boxes = new Float64Array(count * 4);
  const starts = new Float64Array(count);
  const ends = new Float64Array(count);
  const bbox: SourceScan['bbox'] = [Infinity, Infinity, -Infinity, -Infinity];
  let at = 0;
  let bytes = 0;
  for (const s of scans) {
    boxes.set(s.boxes, at * 4);
    for (let i = 0; i < s.count; i++) {
      starts[at + i] = bytes + s.starts[i];
      ends[at + i] = bytes + s.ends[i];
    }
    at += s.count;
    bytes += s.count > 0 ? s.ends[s.count - 1] : 0;
    for (let c = 0; c < 2; c++) bbox[c] = Math.min(bbox[c], s.bbox[c]);
    for (let c = 2; c < 4; c++) bbox[c] = Math.max(bbox[c], s.bbox[c]);
  }
  const zAt = scans.find((s) => s.zAt !== undefined)?.zAt;
  return {
    path: '',
    count,
    fields,
    bbox,
    boxes,
    starts,
    ends,
    polygons: scans.reduce((n, s) => n + s.polygons, 0),
    multiPolygons: scans.reduce((n, s) => n + s.multiPolygons, 0),
    ...(zAt === undefined ? {} : { zAt }),
  };
}

/**
 * Writes the world files of `level` into the folder `dir` (replaced; it
 * appears whole or not at all) and returns their record. Throws a UserError
 * (rule file-changed) when a source no longer has the sha256 validated.
 */
async function writeWorldLevel(root: string, level: WorldLevel, dir: string): Promise<WorldRecord> {
  const staging = `${dir}.${process.pid}.tmp`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  try {
    const units = new FieldCollector();
    const extras = new FieldCollector();
    const scans: SourceScan[] = [];
    for (const s of level.sources) {
      scans.push(await scanSource(join(root, s.path), {}, s.ids, units));
      extras.add(s.extra);
    }
    const scan = joinedScan(scans, joinedFields(units, extras));
    const path = (format: WorldFormat) => join(staging, level.level + WORLD_SUFFIX[format]);
    const sinks = [
      await openGeoJson(path('geojson'), level.layer, level.crs),
      openGeoPackage(path('gpkg'), level.layer, scan, level.crs),
      await openGeoParquet(path('parquet'), scan, level.crs),
    ];
    const joined = level.sources.map((s, i) => ({ path: scans[i].path, scan: scans[i], extra: s.extra }));
    await pumpSources(joined, sinks);
    for (const s of level.sources) {
      const now = await sha256File(join(root, s.path));
      if (now !== s.sha256) throw fileChanged(s.path, now, s.sha256);
    }
    const record: WorldRecord = [];
    for (const format of Object.keys(WORLD_SUFFIX) as WorldFormat[]) {
      const file = level.level + WORLD_SUFFIX[format];
      const { size } = await stat(path(format));
      record.push({ format, file, bytes: size, sha256: await sha256File(path(format)) });
    }
    await WorldCache.writeRecord(staging, record);
    await rm(dir, { recursive: true, force: true });
    await rename(staging, dir);
    return record;
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}
