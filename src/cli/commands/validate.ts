// `geoshelf validate`: parses flags, runs the validator
// (build/manifest/validate.ts) and reports every problem.
import { resolve } from 'node:path';
import { validateManifests } from '../../../build/manifest/validate.ts';
import { Measurer } from '../../../build/measure/cache.ts';
import { parseCommandArgs, report, type Command } from '../command.ts';

const usage = `Usage: geoshelf validate [--root DIR] [--json] [--no-cache]

Checks every DIR/data/{body}/{ISO3}/manifest.json: the schema (spec 2.2), the
folder, that every path, preview and part exists inside the folder (and, once
symbolic links are followed, inside DIR/data), and that bytes, sha256,
features, bbox, geometry_types, properties and preview_bytes equal what the
files hold. Prints every problem on stderr as "FILE: POINTER: message" and
exits 1 if there is any, 0 if none.

Options:
  --root DIR    folder that holds data/ (default: the current folder)
  --json        print the problems on stdout as a JSON array of
                {file, pointer, rule, severity, message}
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
    const measurer = Measurer.forRoot(root, { noCache: values['no-cache'] });
    const { manifests, problems } = await validateManifests(root, { measurer });
    await measurer.save();
    const code = report(problems, { command: 'validate', json: values.json });
    const datasets = manifests.reduce((n, loaded) => n + loaded.manifest.datasets.length, 0);
    const files = new Set(problems.map((p) => p.file)).size;
    console.error(
      problems.length === 0
        ? `${plural(manifests.length, 'manifest')}, ${plural(datasets, 'dataset')}: no problems`
        : `${plural(problems.length, 'problem')} in ${plural(files, 'file')}`,
    );
    return code;
  },
};

/** Returns e.g. "1 manifest" or "7 manifests". */
function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

export default command;
