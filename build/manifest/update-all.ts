// Stage of `geoshelf manifest`: recomputes the derived fields of every
// selected manifest and writes those that changed (or, with `check`, only
// says what would change).
import { UserError } from '../core/errors.ts';
import { withLock } from '../core/lock.ts';
import type { Problem } from '../core/problem.ts';
import { MeasurementCache } from '../measure/cache.ts';
import { findManifests, loadManifests, selectManifests, type LoadedManifest } from './load.ts';
import { show } from './schema.ts';
import { schemaProblemsOf, updateDerivedFields, writeManifest } from './update.ts';

export interface UpdateRun {
  manifests: number; // manifests selected
  changed: number; // manifests that changed (or would, with check)
  lines: { file: string; text: string }[]; // e.g. "data/earth/CHL/manifest.json", "updated /datasets/0/bytes"
  problems: Problem[]; // manifests left alone, and why
}

/**
 * Recomputes the derived fields of the manifests under `root` (those of the
 * ISO3 `codes`, or all) and, unless `check`, writes each one that changed.
 * A manifest that fails the schema or names a missing or malformed file is
 * left alone and reported. Throws a UserError for a code with no manifest
 * (a UsageError for one that is not an ISO3 code), or when another command
 * holds the root's lock (a check, which writes only caches, takes none).
 */
export async function updateManifests(
  root: string,
  codes: string[],
  options: { check?: boolean; noCache?: boolean } = {},
): Promise<UpdateRun> {
  if (options.check) return await update(root, codes, options);
  return await withLock(root, 'manifest', () => update(root, codes, options));
}

async function update(
  root: string,
  codes: string[],
  options: { check?: boolean; noCache?: boolean },
): Promise<UpdateRun> {
  const files = selectManifests(await findManifests(root), codes);
  const { manifests, problems } = loadManifests(root, files);
  const measurer = MeasurementCache.forRoot(root, { noCache: options.noCache });
  const run: UpdateRun = { manifests: files.length, changed: 0, lines: [], problems };
  for (const loaded of manifests) {
    const result = await updateOne(root, loaded, measurer, options.check ?? false);
    if ('problems' in result) run.problems.push(...result.problems);
    else if (result.lines.length > 0) {
      run.changed += 1;
      run.lines.push(...result.lines);
    }
  }
  await measurer.save();
  return run;
}

/**
 * Recomputes one manifest and, unless `check`, writes it when it changed.
 * Returns the lines to print (the changes), or why it was left alone.
 */
async function updateOne(
  root: string,
  loaded: LoadedManifest,
  measurer: MeasurementCache,
  check: boolean,
): Promise<{ lines: UpdateRun['lines'] } | { problems: Problem[] }> {
  let update;
  try {
    update = await updateDerivedFields(root, loaded, measurer);
  } catch (error) {
    if (error instanceof UserError) return { problems: error.problems };
    throw error;
  }
  if (update.changes.length === 0) return { lines: [] };
  const invalid = schemaProblemsOf(loaded.file, update.manifest);
  if (invalid.length > 0) {
    return {
      problems: invalid.map((p) => ({
        ...p,
        message: `not written, it would fail the schema: ${p.message}`,
      })),
    };
  }
  if (!check) {
    await writeManifest(root, loaded.file, update.manifest);
    return { lines: [{ file: loaded.file, text: `updated ${update.changes.join(', ')}` }] };
  }
  return {
    lines: update.changes.map((pointer) => {
      const [before, after] = [valueAt(loaded.manifest, pointer), valueAt(update.manifest, pointer)];
      const text = `${pointer}: ${before === undefined ? '(absent)' : show(before)} → ${show(after)}`;
      return { file: loaded.file, text };
    }),
  };
}

/** Returns the value at a JSON pointer (whose keys hold no "/" or "~"). */
function valueAt(value: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], value);
}
