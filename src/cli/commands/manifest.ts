// `geoshelf manifest`: recomputes the derived fields of manifests from their
// files and rewrites them (or, with --check, lists what would change).
import { formatProblem } from '../../../build/core/problem.ts';
import { resolve } from 'node:path';
import { parseCommandArgs, UserError, type Command } from '../command.ts';
import { schemaProblemsOf, updateDerivedFields, writeManifest } from '../../../build/manifest/update.ts';
import { findManifests, loadManifests, type LoadedManifest } from '../../../build/manifest/load.ts';
import { Measurer } from '../../../build/measure/cache.ts';
import { show } from '../../../build/manifest/schema.ts';
import { measurementCacheFile } from '../../../build/manifest/validate.ts';

const usage = `Usage: geoshelf manifest [--root DIR] [--check] [--no-cache] [ISO3…]

Recomputes the derived fields of DIR/data/{body}/{ISO3}/manifest.json (all of
them, or those of the ISO3 codes given) from the files: bytes, sha256,
features, bbox, geometry_types, properties of each dataset and part,
preview_bytes, and unassigned. Every other field, the key order, the 2-space
indentation and the final newline are kept; a manifest whose numbers are
already right is not touched. A manifest that fails the schema, or names a
missing or malformed file, is left alone and reported (exit 1).

Options:
  --root DIR    folder that holds data/ (default: the current folder)
  --check       write nothing; list each field that would change as
                "FILE: POINTER: old → new" and exit 1 if there is any
  --no-cache    measure every file again (default: reuse measurements of
                unchanged files from DIR/.cache/geoshelf/measurements.json)`;

const command: Command = {
  usage,
  async run(argv) {
    const { values, positionals } = parseCommandArgs(argv, {
      allowPositionals: true,
      options: {
        root: { type: 'string', default: '.' },
        check: { type: 'boolean', default: false },
        'no-cache': { type: 'boolean', default: false },
      },
    });
    const root = resolve(values.root);
    const files = selectFiles(await findManifests(root), positionals);
    const { manifests, problems } = await loadManifests(root, files);
    const failures = problems.map(formatProblem); // manifests refused: invalid JSON or schema
    const measurer = new Measurer(values['no-cache'] ? {} : { cacheFile: measurementCacheFile(root) });
    let changed = 0;
    for (const loaded of manifests) {
      const result = await updateOne(root, loaded, measurer, values.check);
      if ('failure' in result) failures.push(result.failure);
      else if (result.lines.length > 0) {
        changed += 1;
        for (const line of result.lines) console.log(line);
      }
    }
    await measurer.save();
    for (const failure of failures) console.error(failure);
    const refused = countFiles(failures);
    const verb = values.check ? 'would change' : 'updated';
    console.error(`${plural(files.length, 'manifest')}: ${changed} ${verb}, ${refused} with errors`);
    return failures.length > 0 || (values.check && changed > 0) ? 1 : 0;
  },
};

/**
 * Recomputes one manifest and, unless `check`, writes it when it changed.
 * Returns the lines to print (the changes), or why it was left alone.
 */
async function updateOne(
  root: string,
  loaded: LoadedManifest,
  measurer: Measurer,
  check: boolean,
): Promise<{ lines: string[] } | { failure: string }> {
  let update;
  try {
    update = await updateDerivedFields(root, loaded, measurer);
  } catch (error) {
    if (error instanceof UserError) return { failure: error.message };
    throw error;
  }
  if (update.changes.length === 0) return { lines: [] };
  const problems = schemaProblemsOf(loaded.file, update.manifest);
  if (problems.length > 0) {
    return { failure: [`${loaded.file}: not written, it would fail the schema:`, ...problems].join('\n') };
  }
  if (!check) {
    await writeManifest(root, loaded.file, update.manifest);
    return { lines: [`${loaded.file}: updated ${update.changes.join(', ')}`] };
  }
  return {
    lines: update.changes.map((pointer) => {
      const [before, after] = [valueAt(loaded.manifest, pointer), valueAt(update.manifest, pointer)];
      return `${loaded.file}: ${pointer}: ${before === undefined ? '(absent)' : show(before)} → ${show(after)}`;
    }),
  };
}

/** Returns the manifests of the given ISO3 codes (all when none), or throws naming a code with none. */
function selectFiles(files: string[], codes: string[]): string[] {
  if (codes.length === 0) return files;
  for (const code of codes) {
    if (!/^[A-Z]{3}$/.test(code))
      throw new UserError(`${code}: not an ISO3 code (3 capital letters, e.g. CHL)`);
    if (!files.some((file) => file.split('/')[2] === code))
      throw new UserError(`${code}: no data/*/${code}/manifest.json`);
  }
  return files.filter((file) => codes.includes(file.split('/')[2]!));
}

/** Returns e.g. "1 manifest" or "7 manifests". */
function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function countFiles(lines: string[]): number {
  return new Set(lines.map((line) => line.slice(0, line.indexOf(': ')))).size;
}

/** Returns the value at a JSON pointer (whose keys hold no "/" or "~"). */
function valueAt(value: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], value);
}

export default command;
