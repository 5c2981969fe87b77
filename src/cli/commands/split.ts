// `geoshelf split`: wires the split stage (build/split.ts) to a manifest:
// writes the parts into a temporary folder, measures them, then swaps the
// folder in and records the parts in the manifest as one step.
import { formatProblem } from '../../../build/core/problem.ts';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Level, Part } from '../../../build/manifest/types.ts';
import { writeManifest } from '../../../build/manifest/update.ts';
import { findManifests, loadManifests } from '../../../build/manifest/load.ts';
import { Measurer } from '../../../build/measure/cache.ts';
import { byCodepoint } from '../../../build/measure/measure.ts';
import { uninterruptible, withFields } from '../../../build/core/staging.ts';
import {
  assignFeatures,
  parentsOf,
  partTexts,
  planSplit,
  SMALL_OVERLAP,
  type Assignment,
} from '../../../build/split/split.ts';
import { readFeatures } from '../../../build/core/read-features.ts';
import { parseCommandArgs, UserError, type Command } from '../command.ts';

const usage = `Usage: geoshelf split --level LEVEL [--root DIR] [--verbose] ISO3

Splits a level (e.g. ADM2) of one country into data/{body}/{ISO3}/{LEVEL}/{code}.geojson,
one file per ADM1 parent, and {LEVEL}/unassigned.geojson for features no
parent can be found for. A feature goes to the parent named by its parentISO
(or adm1ISO) property when that is an ADM1 code of the country, else to the
ADM1 polygon it overlaps most; each feature gets its parent's code in adm1ISO.
Records split_by, parts (with their stats) and unassigned in the manifest; the
level's own file stays. Prints how features were assigned and flags those whose
best overlap is under ${SMALL_OVERLAP * 100}% of their area.

Options:
  --level LEVEL   the level to split: ADM2…ADM5 or QUAD (required)
  --root DIR      folder holding data/ (default: the current folder)
  --verbose       print every feature's assignment`;

export default {
  usage,
  async run(argv) {
    const { values, positionals } = parseCommandArgs(argv, {
      options: {
        root: { type: 'string', default: '.' },
        level: { type: 'string' },
        verbose: { type: 'boolean', default: false },
      },
      allowPositionals: true,
    });
    const root = values.root;
    const level = values.level;
    if (!level || !/^(ADM[0-5]|QUAD)$/.test(level))
      throw new UserError('--level: expected ADM2…ADM5 or QUAD (see --help)');
    if (positionals.length !== 1 || !/^[A-Z]{3}$/.test(positionals[0]!)) {
      throw new UserError('expected one ISO3 code, e.g. "geoshelf split --level ADM2 ARG"');
    }
    const iso = positionals[0]!;
    const files = (await findManifests(root)).filter((f) => f.split('/')[2] === iso);
    if (files.length === 0) throw new UserError(`${iso}: no data/*/${iso}/manifest.json under ${root}`);
    const { manifests, problems } = await loadManifests(root, files);
    if (problems.length > 0) throw new UserError(problems.map(formatProblem).join('\n'));
    const loaded = manifests[0]!;
    const { manifest } = loaded;
    const plan = planSplit(loaded.file, manifest, level as Level);
    const folder = loaded.file.slice(0, -'manifest.json'.length); // e.g. "data/earth/ARG/"

    const features = (await Promise.all(plan.inputs.map((p) => readFeatures(root, p)))).flat();
    const parents = parentsOf(await readFeatures(root, plan.adm1), [manifest.iso_a3, manifest.iso_a2 ?? '']);
    const assignments = assignFeatures(features, parents);
    const parts = partTexts(folder, level as Level, features, assignments);

    // Write and measure the parts in a temporary folder beside the level's folder.
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
      const measurer = new Measurer();
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

      await uninterruptible(async () => {
        const hadOld = await rename(target, old).then(
          () => true,
          (error: NodeJS.ErrnoException) => {
            if (error.code === 'ENOENT') return false;
            throw error;
          },
        );
        try {
          await rename(staging, target);
          await writeManifest(root, loaded.file, updated);
        } catch (error) {
          await rm(target, { recursive: true, force: true });
          if (hadOld) await rename(old, target);
          throw error;
        }
      });
    } finally {
      await rm(staging, { recursive: true, force: true });
      await rm(old, { recursive: true, force: true });
    }
    printSummary(assignments, parts, values.verbose);
    return 0;
  },
} satisfies Command;

function printSummary(
  assignments: Assignment[],
  parts: { code: string; path: string; features: number }[],
  verbose: boolean,
) {
  const count = (how: Assignment['how']) => assignments.filter((a) => a.how === how).length;
  console.log(
    `${assignments.length} features: ${count('code')} by code, ${count('overlap')} by overlap, ${count('unassigned')} unassigned`,
  );
  for (const part of parts) console.log(`  ${part.path}: ${part.features} features`);
  for (const a of assignments) {
    const share = a.share === undefined ? '' : `, best overlap ${(a.share * 100).toFixed(1)}% of its area`;
    const small = a.share !== undefined && a.share < SMALL_OVERLAP;
    if (verbose || small || a.how === 'unassigned' || a.note) {
      const flag = small ? 'small overlap: ' : a.how === 'unassigned' ? 'unassigned: ' : '';
      console.log(
        `  ${flag}#${a.index} "${a.name}" → ${a.code} (${a.how}${share})${a.note ? `; ${a.note}` : ''}`,
      );
    }
  }
}
