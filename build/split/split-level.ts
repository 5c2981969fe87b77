// Stage of `geoshelf split`: splits one level of one country into part files.
// Writes the parts into a staging folder beside the level's folder, measures
// them, then swaps the folder in and records the parts in the manifest as
// one step that Ctrl-C cannot cut in half.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '../core/errors.ts';
import { withLock } from '../core/lock.ts';
import { problem } from '../core/problem.ts';
import { readLevelFeatures } from '../geojson/level-features.ts';
import { uninterruptible } from '../core/uninterruptible.ts';
import { withFields } from '../manifest/key-order.ts';
import { findManifests, loadManifests } from '../manifest/load.ts';
import type { Level, Part } from '../core/shared/manifest.ts';
import { writeManifest } from '../manifest/update.ts';
import { MeasurementCache } from '../measure/cache.ts';
import { byCodepoint } from '../measure/measure.ts';
import { assignFeatures, parentsOf, partTexts, planSplit, type Assignment } from './split.ts';

export interface SplitResult {
  assignments: Assignment[];
  parts: { code: string; path: string; features: number }[];
}

/**
 * Splits `level` (e.g. "ADM2") of the country `iso` under `root` into one
 * file per ADM1 parent plus `unassigned.geojson`, replaces the level's part
 * folder, and records split_by, parts and unassigned in the manifest.
 * Returns how each feature was assigned. Throws a UserError when the
 * manifest or its files are wrong, or another command holds the root's
 * lock; then nothing is changed.
 */
export async function splitLevel(root: string, iso: string, level: Level): Promise<SplitResult> {
  return await withLock(root, `split --level ${level} ${iso}`, () => split(root, iso, level));
}

async function split(root: string, iso: string, level: Level): Promise<SplitResult> {
  const files = (await findManifests(root)).filter((f) => f.split('/')[2] === iso);
  if (files.length === 0)
    throw new UserError(problem('', `${iso}: no data/*/${iso}/manifest.json under ${root}`));
  const { manifests, problems } = loadManifests(root, files);
  if (problems.length > 0) throw new UserError(problems);
  const loaded = manifests[0]!;
  const { manifest } = loaded;
  const plan = planSplit(loaded.file, manifest, level);
  const folder = loaded.file.slice(0, -'manifest.json'.length); // e.g. "data/earth/ARG/"

  const features = (await Promise.all(plan.inputs.map((p) => readLevelFeatures(root, p)))).flat();
  const parents = parentsOf(await readLevelFeatures(root, plan.adm1), [
    manifest.iso_a3,
    manifest.iso_a2 ?? '',
  ]);
  const assignments = assignFeatures(features, parents);
  const parts = partTexts(folder, level, features, assignments);

  const target = join(root, folder, level);
  const staging = join(root, folder, `.${level}.split-${randomBytes(4).toString('hex')}`);
  const old = `${staging}.old`;
  // Staging folders left by a run killed outright (SIGKILL, power loss) are never read: remove them.
  for (const name of await readdir(join(root, folder))) {
    if (name.startsWith(`.${level}.split-`))
      await rm(join(root, folder, name), { recursive: true, force: true });
  }
  try {
    await mkdir(staging, { recursive: true });
    const measurer = new MeasurementCache();
    const records: Part[] = [];
    for (const part of parts) {
      const file = join(staging, `${part.code}.geojson`);
      await writeFile(file, part.text);
      const stats = await measurer.measure(file);
      records.push({ path: part.path, ...stats, code: part.code } as Part);
    }
    const unassigned = assignments.filter((a) => a.how === 'unassigned').length;
    let dataset = withFields(manifest.datasets[plan.index]!, { split_by: 'ADM1' }, [
      'preview_bytes',
      'properties',
    ]);
    dataset = withFields(dataset, { unassigned: unassigned || undefined }, [
      'src_year',
      'src_provider',
      'license',
    ]);
    dataset = withFields(dataset, { parts: records }, []);
    if (!dataset.path) {
      // Published only as parts: the level's property names are those of its parts, now with adm1ISO.
      dataset.properties = [...new Set(records.flatMap((r) => r.properties))].sort(byCodepoint);
    }
    const updated = structuredClone(manifest);
    updated.datasets[plan.index] = dataset;
    await uninterruptible(() => swapIn(root, loaded.file, updated, { staging, target, old }));
  } finally {
    await rm(staging, { recursive: true, force: true });
    await rm(old, { recursive: true, force: true });
  }
  return { assignments, parts };
}

/** Moves the staged parts to `target` (the previous folder aside) and writes the manifest; undoes both on failure. */
async function swapIn(
  root: string,
  file: string,
  manifest: Parameters<typeof writeManifest>[2],
  { staging, target, old }: { staging: string; target: string; old: string },
): Promise<void> {
  const hadOld = await rename(target, old).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false;
      throw error;
    },
  );
  try {
    await rename(staging, target);
    await writeManifest(root, file, manifest);
  } catch (error) {
    await rm(target, { recursive: true, force: true });
    if (hadOld) await rename(old, target);
    throw error;
  }
}
