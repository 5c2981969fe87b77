// Each unit's facts (area, label point: unit-facts.ts) and its own GeoJSON
// file, made once per source file and kept under
// <root>/.cache/geoshelf/units/{sha256}.{body}/ (by the source's content, as
// the downloads are: build/formats/), so a rebuild reads only changed files.
// A unit's file is its feature exactly as the source writes it (the same
// bytes), alone in a FeatureCollection; it is published at
// api/v1/{body}/{ISO3}/units/{LEVEL}/[{part}/]{id}.geojson (unitFilePath).
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { codeIdentity, readCacheFile, saveCacheFile } from '../core/cache.ts';
import { cacheDir } from '../core/files.ts';
import { isObject } from '../core/json-value.ts';
import type { Body, Manifest } from '../core/shared/manifest.ts';
import { runAll } from '../core/slots.ts';
import { readFeatureBytes } from '../geojson/features.ts';
import type { BuiltFile } from '../output/write-dist.ts';
import { unitFacts, type UnitFacts } from './unit-facts.ts';
import type { Unit } from './units.ts';

/** One feature's facts and its file in the cache folder (`{feature}.geojson`). */
interface FeatureFacts extends UnitFacts {
  bytes: number;
  sha256: string;
}

/** A source file's facts, by feature index, and the cache folder holding its features' files. */
export interface SourceFacts {
  dir: string;
  features: (FeatureFacts | null)[]; // null: a feature without geometry
}

/** A source the units are read from: a level file or a part, never a preview. */
export interface FactsSource {
  path: string; // e.g. "data/earth/CHL/CHL_ADM1.geojson"
  sha256: string; // as validate measured it
  body: Body;
}

/** Files made at once when the cache lacks them: each is one streaming pass. */
const AT_ONCE = 2;
/** A unit's files being written at once, per source (a unit in memory each). */
const WRITES_AT_ONCE = 16;

/**
 * Returns the facts of every source's features, by path, making what the
 * cache lacks, and removes the cache folders no source uses any more.
 */
export async function sourceFacts(root: string, sources: FactsSource[]): Promise<Map<string, SourceFacts>> {
  const top = join(cacheDir(root), 'units');
  const found = new Map<string, SourceFacts>();
  const used = new Set<string>();
  await runAll(sources, AT_ONCE, async (source) => {
    const name = `${source.sha256}.${source.body}`;
    used.add(name);
    const dir = join(top, name);
    const cached = await readCacheFile(join(dir, 'facts.json'), null, isFactsList);
    const features = cached.data ?? (await makeFacts(root, source, top, name));
    found.set(source.path, { dir, features });
  });
  for (const name of await readdir(top).catch(() => [])) {
    if (!used.has(name)) await rm(join(top, name), { recursive: true, force: true });
  }
  return found;
}

/**
 * Reads one source feature by feature (any size: one feature in memory at a
 * time), writes each feature's file and the facts into a new folder, and
 * moves it into the cache whole.
 */
async function makeFacts(
  root: string,
  source: FactsSource,
  top: string,
  name: string,
): Promise<(FeatureFacts | null)[]> {
  const temp = join(top, `.${name}.${randomBytes(4).toString('hex')}`);
  await mkdir(temp, { recursive: true });
  try {
    const features: (FeatureFacts | null)[] = [];
    // A few files written at a time while the next features are read (one awaited write per
    // feature left the thread pool idle between them), each write's failure kept for the end.
    const writing: Promise<void>[] = [];
    let failed: { error: unknown } | undefined;
    for await (const { index, bytes } of readFeatureBytes(join(root, source.path))) {
      const text = Buffer.concat([COLLECTION_START, bytes, COLLECTION_END]);
      const feature = JSON.parse(bytes.toString('utf8')) as { geometry?: unknown } | null;
      if (!feature?.geometry) {
        features[index] = null;
        continue;
      }
      writing.push(
        writeFile(join(temp, `${index}.geojson`), text).catch(
          (error: unknown) => void (failed ??= { error }),
        ),
      );
      if (writing.length >= WRITES_AT_ONCE) await writing.shift();
      if (failed) break;
      const sha256 = createHash('sha256').update(text).digest('hex');
      features[index] = { ...unitFacts(feature.geometry, source.body), bytes: text.length, sha256 };
    }
    await Promise.all(writing);
    if (failed) throw failed.error;
    await saveCacheFile({ file: join(temp, 'facts.json'), stamp: codeIdentity(), data: features });
    await rm(join(top, name), { recursive: true, force: true });
    await rename(temp, join(top, name));
    return features;
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
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
    built.set(unit.geojson, { from: join(facts.dir, `${unit.feature}.geojson`), sha256: f.sha256 });
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
          typeof f.bytes === 'number' &&
          typeof f.sha256 === 'string' &&
          /^[0-9a-f]{64}$/.test(f.sha256)),
    )
  );
}
