// `geoshelf manifest`: parses flags, runs the update stage
// (build/manifest/update-all.ts) and prints what changed or would change.
import { resolve } from 'node:path';
import { updateManifests } from '../../../build/manifest/update-all.ts';
import { capitals, defineCommand } from '../command.ts';

const usage = `Usage: geoshelf manifest [--root DIR] [--check] [--no-cache] [--json] [ISO3…]

Recomputes the derived fields of DIR/data/{body}/{ISO3}/manifest.json (all of
them, or those of the ISO3 codes given, in any letter case) from the files: bytes, sha256,
features, bbox, geometry_types, properties of each dataset and part,
preview_bytes, and unassigned. Every other field, the key order, the 2-space
indentation and the final newline are kept; a manifest whose numbers are
already right is not touched. A manifest that fails the schema, or names a
missing, malformed or outside file, is left alone and reported (exit 1).

Options:
  --root DIR    folder that holds data/ (default: the current folder)
  --check       write nothing; list each field that would change as
                "FILE: POINTER: old → new" and exit 1 if there is any
  --no-cache    measure every file again (default: reuse measurements of
                unchanged files from DIR/.cache/geoshelf/measurements.json)
  --json        print problems as a JSON array`;

export default defineCommand({
  usage,
  options: {
    root: { type: 'string', default: '.' },
    check: { type: 'boolean', default: false },
    'no-cache': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
  positionals: true,
  async run({ values, positionals }, out) {
    const run = await updateManifests(resolve(values.root), capitals(positionals), {
      check: values.check,
      noCache: values['no-cache'],
    });
    for (const { file, text } of run.lines) console.log(`${out.path(file)}: ${text}`);
    const code = out.report(run.problems);
    const refused = new Set(run.problems.map((p) => p.file)).size;
    const verb = values.check ? 'would change' : 'updated';
    const n = run.manifests;
    console.error(`${n} manifest${n === 1 ? '' : 's'}: ${run.changed} ${verb}, ${refused} with errors`);
    return code || (values.check && run.changed > 0 ? 1 : 0);
  },
});
