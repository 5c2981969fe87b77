// Each unit's facts (area, label point: unit-facts.ts) and its own GeoJSON
// file. A unit's file is its feature exactly as the source writes it (the
// same bytes), alone in a FeatureCollection, published at
// api/v1/{body}/{ISO3}/units/{LEVEL}/[{part}/]{id}.geojson (unitFilePath).
// The facts, with each feature's place in its source, are made once per
// source file and kept in <root>/.cache/geoshelf/units/{sha256}.{body}.json
// (by the source's content, as the downloads are: build/formats/), so a
// rebuild reads only changed files. The units' files are not kept in the
// cache: dist/ and a release read each from its level file's bytes
// (BuiltFile's slice), checked against the sha256 measured here. Before,
// every feature was written to the cache as a file of its own and then
// copied: a second copy of the data, and twice as many files made.
import { createHash } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { readCacheFile, saveCacheFile } from '../core/cache.ts';
import { cacheDir, type FileSlice } from '../core/files.ts';
import { isCount, isObject } from '../core/json-value.ts';
import type { Body, Manifest } from '../core/shared/manifest.ts';
import { runAll } from '../core/slots.ts';
import { readFeatureBytes } from '../geojson/features.ts';
import type { BuiltFile } from '../output/write-dist.ts';
import { unitFacts, type UnitFacts } from './unit-facts.ts';
import type { Unit } from './units.ts';

/** One feature's facts, and its own file: bytes [start, end) of the source, framed (`bytes` long, hashing to `sha256`). */
interface FeatureFacts extends UnitFacts {
  start: number;
  end: number;
  bytes: number;
  sha256: string;
}

/** A source file's facts, by feature index, and where the source is. */
export interface SourceFacts {
  path: string; // the source, absolute: the units' files are read from it
  features: (FeatureFacts | null)[]; // null: a feature without geometry
}

/** A source the units are read from: a level file or a part, never a preview. */
export interface FactsSource {
  path: string; // e.g. "data/earth/CHL/CHL_ADM1.geojson"
  sha256: string; // as validate measured it
  body: Body;
}

/** Files read at once when the cache lacks their facts: each is one streaming pass. */
const AT_ONCE = 2;

/**
 * Returns the facts of every source's features, by path, making what the
 * cache lacks, and removes the cache files no source uses any more.
 */
export async function sourceFacts(root: string, sources: FactsSource[]): Promise<Map<string, SourceFacts>> {
  const top = join(cacheDir(root), 'units');
  const found = new Map<string, SourceFacts>();
  const used = new Set<string>();
  await runAll(sources, AT_ONCE, async (source) => {
    const name = `${source.sha256}.${source.body}.json`;
    used.add(name);
    const path = join(root, source.path);
    const file = await readCacheFile(join(top, name), null, isFactsList);
    const features = file.data ?? (await makeFacts(path, source.body));
    if (!file.data) await saveCacheFile({ ...file, data: features });
    found.set(source.path, { path, features });
  });
  // Facts no source uses, and the folders of the earlier layout (a file per unit).
  for (const name of await readdir(top).catch(() => [])) {
    if (!used.has(name)) await rm(join(top, name), { recursive: true, force: true });
  }
  return found;
}

/** Reads the source at `path` feature by feature (any size: one feature in memory at a time) and returns their facts. */
async function makeFacts(path: string, body: Body): Promise<(FeatureFacts | null)[]> {
  const features: (FeatureFacts | null)[] = [];
  for await (const { index, start, end, bytes } of readFeatureBytes(path)) {
    const feature = JSON.parse(bytes.toString('utf8')) as { geometry?: unknown } | null;
    if (!feature?.geometry) {
      features[index] = null;
      continue;
    }
    const sha256 = createHash('sha256')
      .update(COLLECTION_START)
      .update(bytes)
      .update(COLLECTION_END)
      .digest('hex');
    const framed = COLLECTION_START.length + bytes.length + COLLECTION_END.length;
    features[index] = { ...unitFacts(feature.geometry, body), start, end, bytes: framed, sha256 };
  }
  return features;
}

const COLLECTION_START = Buffer.from('{"type":"FeatureCollection","features":[');
const COLLECTION_END = Buffer.from(']}\n');

/** Returns the dist path of a unit's own GeoJSON, e.g. "api/v1/earth/USA/units/ADM2/US-AL/01001.geojson". */
export function unitFilePath(m: Pick<Manifest, 'body' | 'iso_a3'>, level: string, unit: Unit): string {
  return `api/v1/${m.body}/${m.iso_a3}/units/${level}/${unit.part ? `${unit.part}/` : ''}${unit.id}.geojson`;
}

/**
 * Gives each unit of `units` read from `source` (by feature index) its facts
 * and the dist path of its own file, and adds that file to `built`.
 */
export function attachFacts(
  m: Pick<Manifest, 'body' | 'iso_a3'>,
  level: string,
  units: Unit[],
  facts: SourceFacts,
  built: Map<string, BuiltFile>,
): void {
  for (const unit of units) {
    const f = facts.features[unit.feature];
    if (!f) continue;
    unit.area_km2 = f.area_km2;
    unit.label = f.label ?? undefined;
    unit.geojson = unitFilePath(m, level, unit);
    const slice: FileSlice = { start: f.start, end: f.end, head: COLLECTION_START, tail: COLLECTION_END };
    built.set(unit.geojson, { from: facts.path, sha256: f.sha256, slice });
  }
}

/** Whether `value` is a cached list of feature facts (untrusted JSON: every field used is checked). */
function isFactsList(value: unknown): value is (FeatureFacts | null)[] {
  const isPoint = (p: unknown) =>
    p === null || (Array.isArray(p) && p.length === 2 && p.every((n) => typeof n === 'number'));
  return (
    Array.isArray(value) &&
    value.every(
      (f) =>
        f === null ||
        (isObject(f) &&
          typeof f.area_km2 === 'number' &&
          isPoint(f.label) &&
          isCount(f.start) &&
          isCount(f.end) &&
          f.end >= f.start &&
          typeof f.bytes === 'number' &&
          typeof f.sha256 === 'string' &&
          /^[0-9a-f]{64}$/.test(f.sha256)),
    )
  );
}
