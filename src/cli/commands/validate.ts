// `geoshelf validate`: parses flags, runs the validator
// (build/manifest/validate.ts) and reports every problem.
import { resolve } from 'node:path';
import { validateManifests } from '../../../build/manifest/validate.ts';
import { MeasurementCache } from '../../../build/measure/cache.ts';
import { GeometryChecker } from '../../../build/geometry/cache.ts';
import { NestingChecker } from '../../../build/identity/nesting-cache.ts';
import { PreviewChecker } from '../../../build/manifest/preview-cache.ts';
import { plural, problemSummary } from '../../../build/core/report.ts';
import { defineCommand, PER_FILE } from '../command.ts';

const usage = `Usage: geoshelf validate [--root DIR] [--json] [--strict] [--no-cache] [--no-nesting]

Checks every DIR/data/{body}/{ISO3}/manifest.json: the schema (spec 2.2), the
folder, that every path, preview and part exists inside the folder (and, once
symbolic links are followed, inside DIR/data), that bytes, sha256, features,
bbox, geometry_types, properties and preview_bytes equal what the files hold,
and the geometry of every feature of those files (rings closed and of 4+
positions: errors; the OGC validity rules of GEOS, PostGIS and shapely:
warnings), and that every unit lies in its parent in the level above (more
than 1 % of its area outside it: a nesting warning), and that every preview
still matches its data: the same units by code and name, extents its
simplification allows (otherwise a preview-stale warning: run geoshelf preview).
Prints every problem on stderr as "FILE: POINTER: message" (after
${PER_FILE} of one file and rule, a count) and exits 1 if there is any error,
0 if none (warnings alone: 0).

Options:
  --root DIR    folder that holds data/ (default: the current folder)
  --json        print every problem on stdout as a JSON array of
                {file, pointer, rule, severity, message}
  --strict      the OGC geometry, nesting and preview-stale problems are errors too (exit 1), e.g. to gate CI
  --no-cache    measure and check every file again (default: reuse the results
                for unchanged files from DIR/.cache/geoshelf/)
  --no-nesting  skip the nesting check (it reads every level a second time when
                not cached), e.g. for levels drawn from sources at other scales`;

export default defineCommand({
  usage,
  options: {
    root: { type: 'string', default: '.' },
    json: { type: 'boolean', default: false },
    'no-cache': { type: 'boolean', default: false },
    strict: { type: 'boolean', default: false },
    'no-nesting': { type: 'boolean', default: false },
  },
  async run({ values }, out) {
    const root = resolve(values.root);
    const measurer = MeasurementCache.forRoot(root, { noCache: values['no-cache'] });
    const geometry = GeometryChecker.forRoot(root, { noCache: values['no-cache'] });
    const nesting = values['no-nesting']
      ? false
      : NestingChecker.forRoot(root, { noCache: values['no-cache'] });
    const previews = PreviewChecker.forRoot(root, { noCache: values['no-cache'] });
    const strict = values.strict;
    const { manifests, problems } = await validateManifests(root, {
      measurer,
      geometry,
      nesting,
      previews,
      strict,
    });
    await measurer.save();
    await geometry.save();
    if (nesting) await nesting.save();
    await previews.save();
    const code = out.report(problems, { perFile: PER_FILE, strict });
    const datasets = manifests.reduce((n, loaded) => n + loaded.manifest.datasets.length, 0);
    // e.g. "3 problems in 2 files" or "66 problems in 24 files (66 warnings)"
    console.error(
      problems.length === 0
        ? `${plural(manifests.length, 'manifest')}, ${plural(datasets, 'dataset')}: no problems`
        : problemSummary(problems),
    );
    return code;
  },
});
