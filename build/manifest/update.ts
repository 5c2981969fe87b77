// Recomputes a manifest's derived fields from its files, and writes manifests
// back the way people keep them: key order kept, 2-space indent, final
// newline, atomically, and never when the result fails the schema.
import type { Problem } from '../core/problem.ts';
import type { ManifestRule } from '../core/rules.ts';
import { join } from 'node:path';
import { UserError } from '../core/errors.ts';
import { setFields } from './key-order.ts';
import { writeFileAtomic } from '../core/atomic-write.ts';
import { DataFiles } from './data-files.ts';
import { type LoadedManifest } from './load.ts';
import type { Dataset, FileStats, Manifest, Part } from '../core/shared/manifest.ts';
import type { MeasurementCache } from '../measure/cache.ts';
import { checkManifest } from './schema.ts';
import { combineStats, sameGeometryTypes, sameProperties } from './validate-dataset.ts';

/** Returns the text of `manifest` as written: 2-space indent, keys in their order, final newline. */
export function manifestText(manifest: Manifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** Returns the schema problems `manifest` would have once written to `file`; none when it is valid. */
export function schemaProblemsOf(file: string, manifest: Manifest): Problem[] {
  const result = checkManifest(JSON.parse(manifestText(manifest)));
  return result.ok ? [] : result.problems.map((p) => ({ file, rule: 'schema', severity: 'error', ...p }));
}

/**
 * Writes `manifest` to `file` (relative to `root`, e.g.
 * "data/earth/CHL/manifest.json") atomically, keeping its key order. Throws a
 * UserError listing the schema problems, and writes nothing, if it fails the schema.
 */
export async function writeManifest(root: string, file: string, manifest: Manifest): Promise<void> {
  const problems = schemaProblemsOf(file, manifest);
  if (problems.length > 0) {
    throw new UserError(
      problems.map((p) => ({ ...p, message: `not written, it would fail the schema: ${p.message}` })),
    );
  }
  await writeFileAtomic(join(root, file), manifestText(manifest));
}

/**
 * Returns a copy of `loaded.manifest` whose derived fields are recomputed from
 * the files: for `path` and each part, bytes, sha256, features, bbox,
 * geometry_types and properties; preview_bytes from the preview's size; a
 * parts-only dataset's stats from its parts; `unassigned` (when present) from
 * `{LEVEL}/unassigned.geojson`. Every other field and the key order are kept,
 * and an equal value keeps its old form (e.g. properties' order). `changes`
 * lists the JSON pointers whose value changed. Throws a UserError naming
 * every missing or malformed file (no number is invented for them).
 */
export async function updateDerivedFields(
  root: string,
  loaded: LoadedManifest,
  measurer: Pick<MeasurementCache, 'measure'>,
): Promise<{ manifest: Manifest; changes: string[] }> {
  const manifest = structuredClone(loaded.manifest);
  const files = new ListedFiles(loaded.file, new DataFiles(root, measurer));
  const changes: string[] = [];
  await Promise.all(
    manifest.datasets.map((dataset, i) => updateDataset(dataset, `/datasets/${i}`, files, changes)),
  );
  const inOrder = compareDocumentOrder(manifest);
  if (files.errors.length > 0) {
    const errors = files.errors.sort((a, b) => inOrder(a.pointer, b.pointer));
    throw new UserError(errors.map((e) => ({ file: loaded.file, severity: 'error', ...e })));
  }
  return { manifest, changes: changes.sort(inOrder) };
}

/** Sets the derived fields of `dataset` (at `at`, e.g. "/datasets/2") and of its parts. */
async function updateDataset(dataset: Dataset, at: string, files: ListedFiles, changes: string[]) {
  const set = setter(dataset, at, changes);
  const parts = await Promise.all(
    (dataset.parts ?? []).map(async (part, j) => {
      const stats = await files.stats(`${at}/parts/${j}/path`, part.path);
      if (stats) applyStats(part, stats, setter(part, `${at}/parts/${j}`, changes));
      return stats;
    }),
  );
  if (dataset.path !== undefined) {
    const stats = await files.stats(`${at}/path`, dataset.path);
    if (stats) applyStats(dataset, stats, set);
  } else if (dataset.parts && parts.every((stats) => stats !== undefined)) {
    applyStats(dataset, combineStats(parts), set); // published only as parts
  }
  if (dataset.preview !== undefined) {
    const state = await files.find(`${at}/preview`, dataset.preview);
    if (state) set('preview_bytes', state.size, 'preview');
  }
  if (dataset.unassigned !== undefined) {
    const stats = await files.stats(`${at}/unassigned`, `${files.folder}${dataset.level}/unassigned.geojson`);
    if (stats) set('unassigned', stats.features);
  }
}

/** The files one manifest names, with the reasons those that can't be used can't. */
class ListedFiles {
  readonly folder: string; // e.g. "data/earth/ARG/"
  readonly errors: { pointer: string; rule: ManifestRule; message: string; paths?: string[] }[] = [];

  constructor(
    manifestFile: string,
    private readonly data: DataFiles,
  ) {
    this.folder = manifestFile.slice(0, -'manifest.json'.length);
  }

  /** Returns the size of `path` (listed at `pointer`), or records why it can't be read. */
  async find(pointer: string, path: string): Promise<{ size: number } | undefined> {
    const found = await this.data.find(this.folder, path);
    if (!('rule' in found)) return found;
    this.errors.push({ pointer, ...found });
    return undefined;
  }

  /** Returns the stats of `path` (listed at `pointer`), or records why there are none. */
  async stats(pointer: string, path: string): Promise<FileStats | undefined> {
    const found = await this.data.stats(this.folder, path);
    if (!('rule' in found)) return found.stats;
    this.errors.push({ pointer, ...found });
    return undefined;
  }
}

type Setter = (key: string, value: unknown, after?: string) => void;

/** Sets the stats of one file on a dataset or part (bytes and sha256 added after `path` if absent). */
function applyStats(
  target: Dataset | Part,
  stats: Omit<FileStats, 'bytes' | 'sha256'> & Partial<FileStats>,
  set: Setter,
) {
  if (stats.bytes !== undefined && 'path' in target && target.path !== undefined) {
    set('bytes', stats.bytes, 'path');
    set('sha256', stats.sha256, 'bytes');
  }
  set('features', stats.features);
  set('bbox', stats.bbox);
  if (!sameGeometryTypes(target.geometry_types, stats.geometry_types))
    set('geometry_types', stats.geometry_types);
  if (!sameProperties(target.properties, stats.properties)) set('properties', stats.properties);
}

/**
 * Returns a function that sets `object[key]` to `value` when it differs,
 * recording the pointer; an absent key is inserted right after `after` (or
 * at the end), so the manifest's key order is kept.
 */
function setter(target: Dataset | Part, at: string, changes: string[]): Setter {
  const object = target as unknown as Record<string, unknown>;
  return (key, value, after) => {
    if (JSON.stringify(object[key]) === JSON.stringify(value)) return;
    changes.push(`${at}/${key}`);
    setFields(object, { [key]: value }, after === undefined ? [] : [after]);
  };
}

/** Orders pointers as their values appear when `manifest` is written. */
function compareDocumentOrder(manifest: Manifest): (a: string, b: string) => number {
  const order = new Map<string, number>();
  const walk = (value: unknown, pointer: string) => {
    order.set(pointer, order.size);
    if (typeof value === 'object' && value !== null) {
      for (const [k, v] of Object.entries(value)) walk(v, `${pointer}/${k}`);
    }
  };
  walk(manifest, '');
  return (a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0);
}
