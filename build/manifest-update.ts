// Recomputes a manifest's derived fields from its files, and writes manifests
// back the way people keep them: key order kept, 2-space indent, final
// newline, atomically, and never when the result fails the schema.
import { join } from 'node:path';
import { UserError } from '../src/cli/command.ts';
import { writeFileAtomic } from './atomic-write.ts';
import { DataFiles } from './data-files.ts';
import { formatProblem, type LoadedManifest } from './manifests.ts';
import type { Dataset, FileStats, Manifest, Part } from './manifest-types.ts';
import type { Measurer } from './measure-cache.ts';
import { checkManifest } from './schema.ts';
import { combineStats, isInside, sameGeometryTypes, sameProperties } from './validate-dataset.ts';

/** Returns the text of `manifest` as written: 2-space indent, keys in their order, final newline. */
export function manifestText(manifest: Manifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/**
 * Returns the schema problems `manifest` would have once written to `file`,
 * as "FILE: POINTER: message" lines; none when it is valid.
 */
export function schemaProblemsOf(file: string, manifest: Manifest): string[] {
  const result = checkManifest(JSON.parse(manifestText(manifest)));
  return result.ok ? [] : result.problems.map((p) => formatProblem({ file, rule: 'schema', ...p }));
}

/**
 * Writes `manifest` to `file` (relative to `root`, e.g.
 * "data/earth/CHL/manifest.json") atomically, keeping its key order. Throws a
 * UserError listing the schema problems, and writes nothing, if it fails the schema.
 */
export async function writeManifest(root: string, file: string, manifest: Manifest): Promise<void> {
  const problems = schemaProblemsOf(file, manifest);
  if (problems.length > 0) {
    throw new UserError(`${file}: not written, it would fail the schema:\n${problems.join('\n')}`);
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
  measurer: Pick<Measurer, 'measure'>,
): Promise<{ manifest: Manifest; changes: string[] }> {
  const data = new DataFiles(root, measurer);
  const manifest = structuredClone(loaded.manifest);
  const folder = loaded.file.slice(0, -'manifest.json'.length); // e.g. "data/earth/ARG/"
  const errors: string[] = [];
  const changes: string[] = [];

  /** Returns the state of `path`, or records why it cannot be read (outside the folder, missing). */
  const find = async (pointer: string, path: string) => {
    if (!isInside(folder, path)) {
      errors.push(`${loaded.file}: ${pointer}: file ${path} is not inside the manifest's folder ${folder}`);
      return undefined;
    }
    const state = await data.state(path);
    if (state.kind === 'file') return state;
    errors.push(
      `${loaded.file}: ${pointer}: file ${path} ${state.kind === 'missing' ? 'does not exist' : 'is not a file'}`,
    );
    return undefined;
  };
  const stats = async (pointer: string, path: string): Promise<FileStats | undefined> => {
    if (!(await find(pointer, path))) return undefined;
    const measured = await data.measure(path);
    if (!measured.ok)
      errors.push(`${loaded.file}: ${pointer}: file ${path} is not valid GeoJSON: ${measured.reason}`);
    return measured.ok ? measured.stats : undefined;
  };

  await Promise.all(
    manifest.datasets.map(async (dataset, i) => {
      const at = `/datasets/${i}`;
      const set = setter(dataset as unknown as Record<string, unknown>, at, changes);
      const parts = await Promise.all(
        (dataset.parts ?? []).map(async (part, j) => {
          const found = await stats(`${at}/parts/${j}/path`, part.path);
          if (found)
            applyStats(
              part,
              found,
              setter(part as unknown as Record<string, unknown>, `${at}/parts/${j}`, changes),
            );
          return found;
        }),
      );
      if (dataset.path !== undefined) {
        const found = await stats(`${at}/path`, dataset.path);
        if (found) applyStats(dataset, found, set);
      } else if (dataset.parts && parts.every((p) => p !== undefined)) {
        applyStats(dataset, combineStats(parts as FileStats[]), set);
      }
      if (dataset.preview !== undefined) {
        const state = await find(`${at}/preview`, dataset.preview);
        if (state) set('preview_bytes', state.size, 'preview');
      }
      if (dataset.unassigned !== undefined) {
        const found = await stats(`${at}/unassigned`, `${folder}${dataset.level}/unassigned.geojson`);
        if (found) set('unassigned', found.features);
      }
    }),
  );
  if (errors.length > 0) throw new UserError([...new Set(errors)].join('\n'));
  return { manifest, changes: changes.sort(compareDocumentOrder(manifest)) };
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
function setter(object: Record<string, unknown>, at: string, changes: string[]): Setter {
  return (key, value, after) => {
    if (JSON.stringify(object[key]) === JSON.stringify(value)) return;
    changes.push(`${at}/${key}`);
    if (key in object || after === undefined || !(after in object)) {
      object[key] = value;
      return;
    }
    const entries = Object.entries(object);
    for (const k of Object.keys(object)) delete object[k];
    for (const [k, v] of entries) {
      object[k] = v;
      if (k === after) object[key] = value;
    }
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
