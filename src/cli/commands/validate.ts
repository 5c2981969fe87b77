// `geoshelf validate`: parses flags, runs the validator
// (build/manifest/validate.ts) and reports every problem.
import { resolve } from 'node:path';
import { validateManifests } from '../../../build/manifest/validate.ts';
import { MeasurementCache } from '../../../build/measure/cache.ts';
import { GeometryChecker } from '../../../build/geometry/cache.ts';
import { NestingChecker } from '../../../build/identity/nesting-cache.ts';
import { PreviewChecker } from '../../../build/manifest/preview-cache.ts';
import { LevelReader } from '../../../build/identity/level.ts';
import { CoverageChecker } from '../../../build/coverage/cache.ts';
import { GAP_WIDTH_M } from '../../../build/coverage/coverage.ts';
import { plural, problemSummary, ruleCounts } from '../../../build/core/report.ts';
import { capitals, defineCommand, parseIntegerFlag, PER_FILE } from '../command.ts';

const usage = `Usage: geoshelf validate [--root DIR] [--json] [--strict] [--verbose] [--no-cache]
                        [--no-nesting] [--no-coverage] [--gap-width METRES] [ISO3…]

Checks every DIR/data/{body}/{ISO3}/manifest.json (or those of the ISO3 codes
given, in any letter case, e.g. to gate with --strict only the countries you
changed): the schema (spec 2.2), the
folder, that every path, preview and part exists inside the folder (and, once
symbolic links are followed, inside DIR/data), that bytes, sha256, features,
bbox, geometry_types, properties and preview_bytes equal what the files hold,
and the geometry of every feature of those files (rings closed and of 4+
positions: errors; the OGC validity rules of GEOS, PostGIS and shapely:
warnings), how each level lies in the level above (one nesting warning per
pair of levels when units lie more than 1 % outside their parents; a line of
its own for a unit entirely outside, or mostly in another parent than its
data's), that each level's units form a coverage (overlaps, gaps at most
--gap-width wide, neighbours' edges that do not match vertex for vertex: a
coverage warning each), and that every preview still matches its data: the
same units by code and name, extents its simplification allows (otherwise a
preview-stale warning: run geoshelf preview). Prints every problem on
stderr as "FILE: POINTER: message" (after
${PER_FILE} of one file and rule, a count), then a count of them by rule, and
exits 1 if there is any error, 0 if none (warnings alone: 0).

Options:
  --root DIR    folder that holds data/ (default: the current folder)
  --json        print every problem on stdout as a JSON array of
                {file, pointer, rule, severity, message}, coverage problems
                with a detail {kind, features, area_m2, point}
  --strict      the OGC geometry, nesting, coverage and preview-stale problems are errors too (exit 1), e.g. to gate CI
  --verbose     a nesting warning for every unit more than 1 % outside its parent
  --gap-width METRES  holes in a level's units at most this wide (and covered by
                the level above) are gaps (default ${GAP_WIDTH_M})
  --no-cache    measure and check every file again (default: reuse the results
                for unchanged files from DIR/.cache/geoshelf/)
  --no-nesting  skip the nesting check (it reads every level a second time when
                not cached), e.g. for levels drawn from sources at other scales
  --no-coverage skip the coverage check`;

export default defineCommand({
  usage,
  options: {
    root: { type: 'string', default: '.' },
    json: { type: 'boolean', default: false },
    'no-cache': { type: 'boolean', default: false },
    strict: { type: 'boolean', default: false },
    'no-nesting': { type: 'boolean', default: false },
    'no-coverage': { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
    'gap-width': { type: 'string', default: String(GAP_WIDTH_M) },
  },
  positionals: true,
  async run({ values, positionals }, out) {
    const root = resolve(values.root);
    const codes = capitals(positionals);
    const measurer = MeasurementCache.forRoot(root, { noCache: values['no-cache'] });
    const geometry = GeometryChecker.forRoot(root, { noCache: values['no-cache'] });
    const reader = new LevelReader(); // each level read once for the nesting and coverage checks
    const nesting = values['no-nesting']
      ? false
      : NestingChecker.forRoot(root, { noCache: values['no-cache'], reader });
    const coverage = values['no-coverage']
      ? false
      : CoverageChecker.forRoot(root, { noCache: values['no-cache'], reader });
    const gapWidthM = parseIntegerFlag('gap-width', values['gap-width'], 0, 1_000_000);
    const previews = PreviewChecker.forRoot(root, { noCache: values['no-cache'] });
    const { strict, verbose } = values;
    const { manifests, problems } = await validateManifests(root, {
      measurer,
      geometry,
      nesting,
      coverage,
      gapWidthM,
      previews,
      strict,
      verbose,
      codes,
    });
    await measurer.save();
    await geometry.save();
    if (nesting) await nesting.save();
    if (coverage) await coverage.save();
    await previews.save();
    const code = out.report(problems, { perFile: PER_FILE, strict });
    const datasets = manifests.reduce((n, loaded) => n + loaded.manifest.datasets.length, 0);
    // e.g. "3 problems in 2 files: 2 stats, 1 file-missing" or "66 problems in 24 files (66 warnings): 66 nesting"
    console.error(
      problems.length === 0
        ? `${plural(manifests.length, 'manifest')}, ${plural(datasets, 'dataset')}: no problems`
        : `${problemSummary(problems)}: ${ruleCounts(problems)}`,
    );
    return code;
  },
});
