// `geoshelf validate`: checks every manifest under --root against the schema
// and its files; prints one line per problem (or JSON) and exits 1 if any.
import { hasErrors } from '../../../build/core/problem.ts';
import { problemLines, SHOWN_PER_FILE } from '../../../build/geometry/report.ts';
import { GeometryChecker, geometryCacheFile } from '../../../build/geometry/cache.ts';
import { resolve } from 'node:path';
import { parseCommandArgs, type Command } from '../command.ts';
import { Measurer } from '../../../build/measure/cache.ts';
import { measurementCacheFile, validateManifests } from '../../../build/manifest/validate.ts';

const usage = `Usage: geoshelf validate [--root DIR] [--json] [--strict] [--no-cache]

Checks every DIR/data/{body}/{ISO3}/manifest.json: the schema (spec 2.2), the
folder, that every path, preview and part exists inside the folder, that
bytes, sha256, features, bbox, geometry_types, properties and preview_bytes
equal what the files hold, and the geometry of every feature of those files
(rings closed and of 4+ positions: errors; the OGC validity rules of GEOS,
PostGIS and shapely: warnings). Prints every problem as "FILE: POINTER:
message" (after ${SHOWN_PER_FILE} invalid features of one file, a count) and exits 1 if
there is any error, 0 if none (warnings alone: 0).

Options:
  --root DIR    folder that holds data/ (default: the current folder)
  --json        print all problems as a JSON array of {file, pointer, rule, severity, message}
  --strict      OGC geometry problems are errors too (exit 1), e.g. to gate CI
  --no-cache    measure and check every file again (default: reuse results for
                unchanged files from DIR/.cache/geoshelf/)`;

const command: Command = {
  usage,
  async run(argv) {
    const { values } = parseCommandArgs(argv, {
      options: {
        root: { type: 'string', default: '.' },
        json: { type: 'boolean', default: false },
        'no-cache': { type: 'boolean', default: false },
        strict: { type: 'boolean', default: false },
      },
    });
    const root = resolve(values.root);
    const noCache = values['no-cache'];
    const measurer = new Measurer(noCache ? {} : { cacheFile: measurementCacheFile(root) });
    const geometry = new GeometryChecker(noCache ? {} : { cacheFile: geometryCacheFile(root) });
    const { manifests, problems } = await validateManifests(root, {
      measurer,
      geometry,
      strict: values.strict,
    });
    await measurer.save();
    await geometry.save();
    if (values.json) {
      console.log(JSON.stringify(problems, null, 2));
    } else {
      for (const line of problemLines(problems)) console.log(line);
    }
    const datasets = manifests.reduce((n, loaded) => n + loaded.manifest.datasets.length, 0);
    const files = new Set(problems.map((p) => p.file)).size;
    if (problems.length === 0) {
      const summary = `${plural(manifests.length, 'manifest')}, ${plural(datasets, 'dataset')}: no problems`;
      if (values.json) console.error(summary);
      else console.log(summary);
      return 0;
    }
    const errors = problems.filter((p) => p.severity === 'error').length;
    const warnings = problems.length - errors;
    // e.g. "6 errors in 1 file", "66 warnings in 24 files", "1 error, 3 warnings in 2 files"
    const counts = [errors ? plural(errors, 'error') : '', warnings ? plural(warnings, 'warning') : ''];
    console.error(`${counts.filter(Boolean).join(', ')} in ${plural(files, 'file')}`);
    return hasErrors(problems) ? 1 : 0;
  },
};

/** Returns e.g. "1 manifest" or "7 manifests". */
function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

export default command;
