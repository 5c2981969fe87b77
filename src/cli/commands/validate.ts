// `geoshelf validate`: checks every manifest under --root against the schema
// and its files; prints one line per problem (or JSON) and exits 1 if any.
import { formatProblem } from '../../../build/core/problem.ts';
import { resolve } from 'node:path';
import { parseCommandArgs, type Command } from '../command.ts';
import { Measurer } from '../../../build/measure/cache.ts';
import { measurementCacheFile, validateManifests } from '../../../build/manifest/validate.ts';

const usage = `Usage: geoshelf validate [--root DIR] [--json] [--no-cache]

Checks every DIR/data/{body}/{ISO3}/manifest.json: the schema (spec 2.2), the
folder, that every path, preview and part exists inside the folder, and that
bytes, sha256, features, bbox, geometry_types, properties and preview_bytes
equal what the files hold. Prints every problem as "FILE: POINTER: message"
and exits 1 if there is any, 0 if none.

Options:
  --root DIR    folder that holds data/ (default: the current folder)
  --json        print the problems as a JSON array of {file, pointer, rule, message}
  --no-cache    measure every file again (default: reuse measurements of
                unchanged files from DIR/.cache/geoshelf/measurements.json)`;

const command: Command = {
  usage,
  async run(argv) {
    const { values } = parseCommandArgs(argv, {
      options: {
        root: { type: 'string', default: '.' },
        json: { type: 'boolean', default: false },
        'no-cache': { type: 'boolean', default: false },
      },
    });
    const root = resolve(values.root);
    const measurer = new Measurer(values['no-cache'] ? {} : { cacheFile: measurementCacheFile(root) });
    const { manifests, problems } = await validateManifests(root, { measurer });
    await measurer.save();
    if (values.json) {
      console.log(JSON.stringify(problems, null, 2));
    } else {
      for (const problem of problems) console.log(formatProblem(problem));
    }
    const datasets = manifests.reduce((n, loaded) => n + loaded.manifest.datasets.length, 0);
    const files = new Set(problems.map((p) => p.file)).size;
    if (problems.length === 0) {
      const summary = `${plural(manifests.length, 'manifest')}, ${plural(datasets, 'dataset')}: no problems`;
      if (values.json) console.error(summary);
      else console.log(summary);
      return 0;
    }
    console.error(
      `${problems.length} problem${problems.length === 1 ? '' : 's'} in ${files} manifest${files === 1 ? '' : 's'}`,
    );
    return 1;
  },
};

/** Returns e.g. "1 manifest" or "7 manifests". */
function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

export default command;
