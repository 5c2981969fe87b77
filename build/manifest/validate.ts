// Validates every manifest under a root: the schema (build/manifest/schema.ts), then the
// rules that need more than one field or the files themselves (folder, paths,
// recomputed stats, previews, parts, licences). Every problem is reported once;
// a check whose input is already wrong (missing file, schema error) is skipped.
import { DataFiles } from './data-files.ts';
import { problem, type Problem } from '../core/problem.ts';
import type { ManifestRule } from '../core/rules.ts';
import {
  findManifests,
  loadManifests,
  selectManifests,
  strayManifests,
  type LoadedManifest,
} from './load.ts';
import type {
  Body,
  CheckedDataset,
  CheckedManifest,
  Dataset,
  Level,
  Manifest,
  MeasuredFile,
  Source,
} from '../core/shared/manifest.ts';
import { createHash } from 'node:crypto';
import { hasErrors } from '../core/problem.ts';
import { stampOf, type FileStamp } from '../core/files.ts';
import { MeasurementCache } from '../measure/cache.ts';
import { CHECKED_PARALLEL_MIN_BYTES } from '../measure/measure.ts';
import { warmSegmentWorker } from '../measure/parallel.ts';
import { GeometryChecker } from '../geometry/cache.ts';
import { invalidFeatures } from '../geometry/verdict.ts';
import { findCrs, type ManifestCrs } from '../core/shared/crs.ts';
import { crsMistake, isCrsShaped } from './validate-crs.ts';
import type { GeometryCounts } from './validate-geometry.ts';
import { isValid } from './schema.ts';
import type { DatasetContext } from './dataset-context.ts';
import { checkDataset } from './validate-dataset.ts';
import { NestingChecker } from '../identity/nesting-cache.ts';
import { LevelReader } from '../identity/level.ts';
import { checkNesting } from './validate-nesting.ts';
import { PreviewChecker } from './preview-cache.ts';
import { CoverageChecker } from '../coverage/cache.ts';
import { GAP_WIDTH_M } from '../coverage/coverage.ts';
import { checkCoverage } from './validate-coverage.ts';
import type { LevelCoverageFigures } from '../core/shared/api.ts';

export type { LoadedManifest } from './load.ts';

/** What the checks know of one manifest: the parts of it that passed the schema. */
interface Subject {
  file: string; // e.g. "data/earth/ARG/manifest.json"
  folder: { body: string; iso: string }; // from the file's path, e.g. { body: "earth", iso: "ARG" }
  body?: Body;
  isoA3?: string;
  source?: Source;
  crs?: ManifestCrs;
  lonLat: boolean; // the crs is an accepted one, lon/lat in degrees: coordinates are checked against their range
  datasets: { index: number; dataset: Dataset }[];
}

/** What validateManifests may be given; every field has a default. */
export interface ValidateOptions {
  measurer?: Pick<MeasurementCache, 'measure'>; // default: one with the cache under `<root>/.cache/`
  // Checks each listed GeoJSON file's geometry; false skips it. Default: a
  // checker with its cache under `<root>/.cache/`, or without a cache when a
  // measurer is given (tests: nothing is written beside their fixtures).
  geometry?: Pick<GeometryChecker, 'check'> | false;
  // Checks that each level's units lie in their parents in the level above; false skips it.
  // Default: as `geometry`'s (cached under `<root>/.cache/` unless a measurer is given).
  nesting?: Pick<NestingChecker, 'checkLevel'> | false;
  // Checks that each level's units form a coverage (no overlaps, gaps or edges that do not
  // match); false skips it. Default: as `geometry`'s (cached unless a measurer is given).
  coverage?: Pick<CoverageChecker, 'check'> | false;
  gapWidthM?: number; // holes of a level's union at most this wide are gaps (default GAP_WIDTH_M)
  verbose?: boolean; // one nesting problem per unit outside its parent, not one summary per pair of levels
  // Compares each preview with its dataset (preview-stale); false skips it.
  // Default: as `geometry`'s (cached under `<root>/.cache/` unless a measurer is given).
  previews?: Pick<PreviewChecker, 'check'> | false;
  strict?: boolean; // OGC geometry, nesting, coverage and preview-stale problems are errors, not warnings (validate --strict)
  previewsMustMatch?: boolean; // preview-stale problems are errors (release: a stale preview is never frozen)
  codes?: string[]; // ISO3 codes: only their manifests (validate CHL ARG); default: all
  // A shard of a sharded build (build/shard/): only the manifests `files` of the tree, and the
  // tree's own problems (stray manifests, none at all) only with `tree` (shard 1 reports them).
  shard?: { files: string[]; tree: boolean };
}

/**
 * A manifest `validate` found without error, as every later stage takes it:
 * its datasets carry the measured bytes and sha256 of their files, and
 * `files` lists the manifest itself and every file it names (levels, parts,
 * previews), each as measured now, sorted by path.
 */
export interface CheckedManifestFile extends LoadedManifest {
  manifest: CheckedManifest;
  files: MeasuredFile[];
  /** Each listed file's stamp when it was measured, by path: while it holds, so does the sha256. */
  stamps: Map<string, FileStamp>;
}

/**
 * What validateManifests finds: every problem, each checked file's geometry
 * status, and the manifests: checked (`ok`, no error anywhere) or only past
 * the schema (an error somewhere: nothing downstream may use them).
 */
export type Validation = {
  problems: Problem[];
  geometry: Map<string, GeometryCounts>; // by path, e.g. "data/earth/CHL/CHL_ADM1.geojson"
  coverage: Map<string, LevelCoverageFigures>; // by level, e.g. "earth/CHL/ADM1"
} & ({ ok: true; manifests: CheckedManifestFile[] } | { ok: false; manifests: LoadedManifest[] });

/**
 * Returns every manifest under `root` (`data/*\/*\/manifest.json`) that passes
 * the schema, and every problem found in all of them: schema, folder, paths,
 * missing files, recomputed stats, previews, parts, licences and geometry
 * (one problem per invalid feature, in the GeoJSON file; warnings unless
 * `strict`), and those of the tree (a manifest in a folder too shallow to be
 * read, no manifest at all) unless `codes` selects some. Only errors make a
 * tree unpublishable. `geometry` gives the
 * status of each checked file, keyed by path (e.g. "data/earth/CHL/CHL_ADM1.geojson").
 */
export async function validateManifests(root: string, options: ValidateOptions = {}): Promise<Validation> {
  const inTree = await findManifests(root);
  const shard = options.shard;
  const files = shard
    ? inTree.filter((file) => shard.files.includes(file))
    : selectManifests(inTree, options.codes ?? []);
  const loaded = loadManifests(root, files);
  // A file large enough to share with the worker is coming: boot it while the rest starts.
  if (checkedSize(loaded.manifests) >= CHECKED_PARALLEL_MIN_BYTES) warmSegmentWorker();
  const ownMeasurer = options.measurer ? undefined : MeasurementCache.forRoot(root);
  const ownChecker =
    options.geometry === undefined
      ? GeometryChecker.forRoot(root, { noCache: options.measurer !== undefined })
      : undefined;
  const checker = options.geometry === false ? undefined : (options.geometry ?? ownChecker);
  const data = new DataFiles(root, options.measurer ?? ownMeasurer!, checker);
  const reader = new LevelReader(); // levels read once for the nesting and coverage checks
  const ownNesting =
    options.nesting === undefined
      ? NestingChecker.forRoot(root, { noCache: options.measurer !== undefined, reader })
      : undefined;
  const nesting = options.nesting === false ? undefined : (options.nesting ?? ownNesting);
  const ownPreviews =
    options.previews === undefined
      ? PreviewChecker.forRoot(root, { noCache: options.measurer !== undefined })
      : undefined;
  const previews = options.previews === false ? undefined : (options.previews ?? ownPreviews);
  const ownCoverage =
    options.coverage === undefined
      ? CoverageChecker.forRoot(root, { noCache: options.measurer !== undefined, reader })
      : undefined;
  const coverage = options.coverage === false ? undefined : (options.coverage ?? ownCoverage);
  const checks: Checks = {
    strict: options.strict ?? false,
    verbose: options.verbose ?? false,
    gapWidthM: options.gapWidthM ?? GAP_WIDTH_M,
    nesting,
    coverage,
    previews,
    previewsMustMatch: options.previewsMustMatch,
  };

  const subjects: Subject[] = [
    ...loaded.manifests.map(({ file, manifest }) => subjectOf(file, manifest)),
    ...loaded.invalid.map(({ file, value }) => partialSubjectOf(file, value)),
  ];
  const found = await Promise.all(subjects.map((subject) => checkSubject(subject, data, checks)));
  await ownMeasurer?.save();
  await ownChecker?.save();
  await ownNesting?.save();
  await ownCoverage?.save();
  await ownPreviews?.save();

  // Report in file order: for each manifest, its JSON/schema problems, then the
  // others (geometry problems name their GeoJSON file but follow their manifest).
  const byFile = new Map<string, Problem[]>(files.map((file) => [file, []]));
  for (const problem of loaded.problems) byFile.get(problem.file)!.push(problem);
  const figures = new Map<string, LevelCoverageFigures>();
  subjects.forEach((subject, i) => {
    byFile.get(subject.file)!.push(...found[i]!.problems);
    const { body, iso } = subject.folder;
    for (const [level, f] of found[i]!.figures) figures.set(`${body}/${iso}/${level}`, f);
  });
  const geometry = new Map<string, GeometryCounts>();
  for (const [file, result] of await data.geometryResults()) {
    geometry.set(file, { checked: result.checked, invalid: invalidFeatures(result) });
  }
  const tree = options.codes?.length || (shard && !shard.tree) ? [] : treeProblems(root, inTree);
  const problems = [...tree, ...[...byFile.values()].flat()];
  if (hasErrors(problems))
    return { ok: false, manifests: loaded.manifests, problems, geometry, coverage: figures };
  const manifests = await Promise.all(loaded.manifests.map((m) => checked(m, data)));
  return { ok: true, manifests, problems, geometry, coverage: figures };
}

/**
 * Returns a manifest found without error with the numbers of its files as
 * measured in this run (the measurements are memoised: the checks took them
 * already, but for previews, measured here).
 */
async function checked(loaded: LoadedManifest, data: DataFiles): Promise<CheckedManifestFile> {
  const files = new Map<string, MeasuredFile>();
  const stamps = new Map<string, FileStamp>();
  const text = Buffer.from(loaded.text); // the file's exact bytes: load.ts took them as valid UTF-8
  const own = createHash('sha256').update(text).digest('hex');
  files.set(loaded.file, { path: loaded.file, bytes: text.length, sha256: own });
  const measured = async (path: string): Promise<MeasuredFile> => {
    const state = await data.state(path);
    if (state.kind === 'file') stamps.set(path, stampOf(state));
    const m = await data.measure(path);
    // Without error, every listed file was found and read as GeoJSON: anything else is a bug.
    if (!m.ok) throw new Error(`${path} was validated without error but cannot be measured: ${m.reason}`);
    const file = { path, bytes: m.stats.bytes, sha256: m.stats.sha256 };
    files.set(path, file);
    return file;
  };
  const datasets = await Promise.all(
    loaded.manifest.datasets.map(async (d): Promise<CheckedDataset> => {
      await Promise.all([...(d.parts ?? []).map((p) => measured(p.path)), d.preview && measured(d.preview)]);
      if (d.path === undefined) return { ...d, path: undefined, bytes: undefined, sha256: undefined };
      const { bytes, sha256 } = await measured(d.path);
      return { ...d, path: d.path, bytes, sha256 };
    }),
  );
  const sorted = [...files.values()].sort((a, b) => (a.path < b.path ? -1 : 1));
  return { ...loaded, manifest: { ...loaded.manifest, datasets }, files: sorted, stamps };
}

/** Returns the size of the largest file the manifests state (`bytes` of datasets and parts). */
function checkedSize(manifests: LoadedManifest[]): number {
  let largest = 0;
  for (const { manifest } of manifests)
    for (const d of manifest.datasets)
      for (const n of [d.bytes ?? 0, ...(d.parts ?? []).map((p) => p.bytes)]) largest = Math.max(largest, n);
  return largest;
}

function folderOf(file: string): Subject['folder'] {
  const [, body, iso] = file.split('/'); // "data/earth/ARG/manifest.json"
  return { body: body!, iso: iso! };
}

function subjectOf(file: string, manifest: Manifest): Subject {
  return {
    file,
    folder: folderOf(file),
    body: manifest.body,
    isoA3: manifest.iso_a3,
    source: manifest.source,
    crs: manifest.crs,
    lonLat: findCrs(manifest.crs) !== undefined,
    datasets: manifest.datasets.map((dataset, index) => ({ index, dataset })),
  };
}

/** Returns the pieces of a schema-invalid manifest that are valid on their own. */
function partialSubjectOf(file: string, value: unknown): Subject {
  const raw = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const datasets = Array.isArray(raw.datasets) ? (raw.datasets as unknown[]) : [];
  return {
    file,
    folder: folderOf(file),
    body: isValid.body(raw.body) ? raw.body : undefined,
    isoA3: isValid.isoA3(raw.iso_a3) ? raw.iso_a3 : undefined,
    source: isValid.source(raw.source) ? raw.source : undefined,
    crs: isCrsShaped(raw.crs) ? raw.crs : undefined,
    lonLat: false, // a manifest the schema refused says nothing sure
    datasets: datasets.flatMap((dataset, index) => (isValid.dataset(dataset) ? [{ index, dataset }] : [])),
  };
}

/** The checks between files of a manifest, and how they report. */
interface Checks {
  strict: boolean;
  verbose: boolean;
  gapWidthM: number;
  nesting?: Pick<NestingChecker, 'checkLevel'>;
  coverage?: Pick<CoverageChecker, 'check'>;
  previews?: DatasetContext['previews'];
  previewsMustMatch?: boolean;
}

async function checkSubject(
  subject: Subject,
  data: DataFiles,
  checks: Checks,
): Promise<{ problems: Problem[]; figures: Map<Level, LevelCoverageFigures> }> {
  const { strict, nesting } = checks;
  const { file, folder } = subject;
  const problems: Problem[] = [];
  const add = (pointer: string, rule: ManifestRule, message: string, paths?: string[]) =>
    problems.push({ file, pointer, rule, severity: 'error', message, ...(paths && { paths }) });

  const misnamed = misnamedFolder(subject);
  checkFolder(subject, misnamed, add);
  // A body its folder contradicts is already a folder problem: the crs is then not held to either.
  const body = subject.body === folder.body ? subject.body : undefined;
  const crs = subject.crs && crsMistake(subject.crs, body);
  if (crs) add('/crs', 'crs', crs);

  const levels = new Map<string, number>(); // level → index of its first dataset
  for (const { index, dataset } of subject.datasets) {
    const first = levels.get(dataset.level);
    if (first === undefined) levels.set(dataset.level, index);
    else {
      add(
        `/datasets/${index}/level`,
        'level-duplicate',
        `level ${dataset.level} is already at /datasets/${first}`,
      );
    }
    if (subject.source) checkLicense(subject.source, dataset, `/datasets/${index}`, add);
  }
  if (misnamed) return { problems, figures: new Map() }; // its files' checks wait for the folder's new name

  const context: Omit<DatasetContext, 'index' | 'dataset'> = {
    file,
    folder: `data/${folder.body}/${folder.iso}/`,
    body: subject.body ?? 'earth', // a body the schema refused: that manifest cannot pass anyway
    data,
    strict,
    previews: checks.previews,
    previewsMustMatch: checks.previewsMustMatch,
    lonLat: subject.lonLat,
  };
  const datasetProblems = await Promise.all(
    subject.datasets.map(({ index, dataset }) => checkDataset({ ...context, index, dataset })),
  );
  // Units against their parents and against each other, once every file is measured (and its problems known).
  const datasets = subject.datasets.map(({ dataset }) => dataset);
  const [nested, covered] = await Promise.all([
    nesting
      ? checkNesting(
          { folder: context.folder, data, checker: nesting, strict, verbose: checks.verbose },
          datasets,
        )
      : undefined,
    checks.coverage && subject.body
      ? checkCoverage(
          { ...context, checker: checks.coverage, body: subject.body, gapWidthM: checks.gapWidthM, strict },
          datasets,
        )
      : undefined,
  ]);
  const figures = covered?.figures ?? new Map<Level, LevelCoverageFigures>();
  for (const [level, f] of figures) {
    const nest = nested?.figures.get(level);
    if (nest) f.nesting = nest;
  }
  return {
    problems: [
      ...problems,
      ...datasetProblems.flat(),
      ...(nested?.problems ?? []),
      ...(covered?.problems ?? []),
    ],
    figures,
  };
}

/**
 * Checks that the manifest's body and iso_a3 name the folder it is in; a
 * `misnamed` folder (misnamedFolder) is one problem, not one per field.
 */
function checkFolder(
  subject: Subject,
  misnamed: string | undefined,
  add: (pointer: string, rule: ManifestRule, message: string, paths?: string[]) => void,
): void {
  const { folder } = subject;
  if (misnamed) {
    // One line: every path check would say the same again (files "outside" the folder, names "expected abw_…").
    const [pointer, field] =
      subject.isoA3 !== folder.iso ? ['/iso_a3', subject.isoA3] : ['/body', subject.body];
    const actual = `data/${folder.body}/${folder.iso}/`;
    const message = `is "${field}" but the manifest is in ${actual}, and its files are listed under ${misnamed}: rename the folder to ${misnamed}`;
    add(pointer, 'folder', message, [actual, misnamed]);
    return;
  }
  if (subject.body !== undefined && subject.body !== folder.body) {
    const where = `data/${folder.body}/`;
    add('/body', 'folder', `is "${subject.body}" but the manifest is in ${where}`, [where]);
  }
  if (subject.isoA3 !== undefined && subject.isoA3 !== folder.iso) {
    const where = `data/${folder.body}/${folder.iso}/`;
    add('/iso_a3', 'folder', `is "${subject.isoA3}" but the manifest is in ${where}`, [where]);
  }
}

/**
 * Returns the folder the manifest's own body and iso_a3 name (e.g.
 * "data/earth/ABW/") when it is not the one it is in (its lower-case twin) and
 * every file it lists is under the named one: the folder is misnamed, not the
 * fields. Undefined otherwise.
 */
function misnamedFolder(subject: Subject): string | undefined {
  const named = `data/${subject.body ?? subject.folder.body}/${subject.isoA3 ?? subject.folder.iso}/`;
  if (named === `data/${subject.folder.body}/${subject.folder.iso}/`) return undefined;
  const paths = subject.datasets.flatMap(({ dataset: d }) => [
    ...(d.path === undefined ? [] : [d.path]),
    ...(d.preview === undefined ? [] : [d.preview]),
    ...(d.parts ?? []).map((part) => part.path),
  ]);
  return paths.length > 0 && paths.every((path) => path.startsWith(named)) ? named : undefined;
}

/** A single source licence covers every dataset; with "mixed", each dataset's is one of `licenses`. */
function checkLicense(
  source: Source,
  dataset: Dataset,
  pointer: string,
  add: (pointer: string, rule: ManifestRule, message: string) => void,
): void {
  if (source.license !== 'mixed') {
    if (dataset.license !== source.license) {
      add(
        `${pointer}/license`,
        'license',
        `is "${dataset.license}" but source.license is "${source.license}", which covers every dataset`,
      );
    }
  } else if (!source.licenses?.includes(dataset.license)) {
    add(
      `${pointer}/license`,
      'license',
      `"${dataset.license}" is not in source.licenses (${(source.licenses ?? []).join(', ')})`,
    );
  }
}

/** Returns the problems of the tree itself: manifests where none is read, and a tree with none. */
function treeProblems(root: string, found: string[]): Problem[] {
  const problems = strayManifests(root);
  if (found.length === 0) {
    const message =
      'no manifests: each country needs data/{body}/{ISO3}/manifest.json, e.g. data/earth/CHL/manifest.json';
    problems.push(problem('data', message));
  }
  return problems;
}
