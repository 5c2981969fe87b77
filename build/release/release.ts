// `geoshelf release VERSION`, as plain steps: validate (and read the ledger)
// → refuse what must not be recorded → identify every unit and write the
// feed (identify.ts) → plan the catalogue as this release publishes it
// (build/catalogue/plan.ts, for BASE_MARK and VERSION_MARK) → store it
// (store.ts) and the records (record-writer.ts) in a staged folder → commit
// it into data/releases/ by one rename. A release that fails or is killed
// before the rename leaves the ledger as it was; the root's lock keeps a
// second run from writing at the same time.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { planCatalogue } from '../catalogue/plan.ts';
import { cacheDir } from '../core/files.ts';
import { withLock } from '../core/lock.ts';
import { runAll } from '../core/slots.ts';
import { problem, type Problem } from '../core/problem.ts';
import type { ReleaseChange } from '../core/shared/api.ts';
import { GeometryChecker } from '../geometry/cache.ts';
import { NestingChecker } from '../identity/nesting-cache.ts';
import { DEFAULT_THRESHOLDS, type Thresholds } from '../identity/thresholds.ts';
import { currentLevelFiles, unitIdsOf } from '../identity/unit-ids.ts';
import { compareManifests } from '../manifest/summary.ts';
import { PreviewChecker } from '../manifest/preview-cache.ts';
import { CoverageChecker } from '../coverage/cache.ts';
import { validateManifests, type CheckedManifestFile, type ValidateOptions } from '../manifest/validate.ts';
import { MeasurementCache } from '../measure/cache.ts';
import { releasedFiles, sameFiles } from './files.ts';
import { identify, type Made } from './identify.ts';
import { withCoverage } from './coverage-record.ts';
import {
  BASE_MARK,
  LEDGER_DIR,
  LEDGER_VERSION,
  readLedger,
  VERSION_MARK,
  type Ledger,
  type ReleasedFile,
  type ReleaseRecord,
  type StoredReleaseIndex,
} from './ledger.ts';
import { ledgerProblem } from './ledger-chunks.ts';
import { DamagedObject } from './object-store.ts';
import { readMadeChunks, saveMadeChunks } from './record-chunks.ts';
import { RecordWriter, writeRecords } from './record-writer.ts';
import { heldMark, heldMarkInJson } from './site-files.ts';
import { storePlan } from './store.ts';
import { compareVersions } from './versions.ts';

export interface ReleaseOptions extends Pick<ValidateOptions, 'geometry' | 'nesting' | 'previews'> {
  measurer?: MeasurementCache; // default: the root's (saved after)
  thresholds?: Thresholds;
  codeKey?: string; // the property holding each unit's code, when not shapeISO and the like
  allowEmpty?: boolean; // record a release with no change since the latest
  date?: string; // the day it is recorded, e.g. "2026-11-27"; default today (UTC)
  tiles?: boolean; // false: no map tiles (tests that do not look at them)
  onProgress?: (stage: string, done?: number, total?: number) => void;
  /** For tests: called once the new release folder is complete, before it is moved into the ledger. */
  beforeCommit?: (staged: string) => Promise<void> | void;
}

export type ReleaseOutcome =
  | { status: 'refused'; problems: Problem[] }
  | { status: 'unchanged'; problems: Problem[]; record: ReleaseRecord } // the same version with the same content
  | {
      status: 'recorded';
      problems: Problem[];
      record: ReleaseRecord;
      changes: ReleaseChange[];
      filesRead: number; // GeoJSON files the catalogue's plan read (to draw maps, cut tiles); validate's are apart
    };

/**
 * Records the data under `root` as release `version` (checked by the
 * caller against VERSION_RULE), holding the root's lock. Refuses when
 * validate finds errors, the ledger is damaged, `version` is recorded with
 * other files or does not come after the latest release, nothing changed
 * (unless `allowEmpty`), or text from the data holds a release's marks;
 * recording the same files again as the same version changes nothing.
 */
export function makeRelease(
  root: string,
  version: string,
  options: ReleaseOptions = {},
): Promise<ReleaseOutcome> {
  return withLock(root, `release ${version}`, async () => {
    try {
      return await release(root, version, options);
    } catch (error) {
      // A stored file the release reads back (the previous release's levels) whose bytes are not its name.
      if (error instanceof DamagedObject)
        return { status: 'refused', problems: [ledgerProblem(error.file, error.reason)] };
      throw error;
    }
  });
}

async function release(root: string, version: string, options: ReleaseOptions): Promise<ReleaseOutcome> {
  const measurer = options.measurer ?? MeasurementCache.forRoot(root);
  const geometry = options.geometry ?? GeometryChecker.forRoot(root);
  const nesting = options.nesting ?? NestingChecker.forRoot(root, { codeKey: options.codeKey });
  const previews = options.previews ?? PreviewChecker.forRoot(root);
  const coverage = CoverageChecker.forRoot(root);
  const ledger = readLedger(root);
  // A preview that no longer matches its data is an error here: a release would freeze it.
  const validated = await validateManifests(root, {
    measurer,
    geometry,
    nesting,
    previews,
    coverage,
    previewsMustMatch: true,
  });
  if (!options.measurer) await measurer.save();
  if (options.geometry === undefined) await (geometry as GeometryChecker).save();
  if (options.nesting === undefined) await (nesting as NestingChecker).save();
  if (options.previews === undefined) await (previews as PreviewChecker).save();
  await coverage.save();
  // A damaged ledger is said alone: nothing can be recorded on it, whatever the data.
  if (ledger.problems.length)
    return { status: 'refused', problems: [...ledger.warnings, ...ledger.problems] };
  const warnings = [...ledger.warnings, ...validated.problems];
  if (!validated.ok) return { status: 'refused', problems: warnings };
  const manifests = [...validated.manifests].sort((a, b) => (a.file < b.file ? -1 : 1));
  const files = releasedFiles(manifests);
  const refusal = refusalOf(version, ledger, manifests, files, options);
  if (refusal) {
    if (refusal.status === 'refused') refusal.problems.unshift(...warnings);
    else refusal.problems.push(...warnings);
    return refusal;
  }
  const marked = await dataMarks(root, files, ledger);
  if (marked.length) return { status: 'refused', problems: [...warnings, ...marked] };
  options.onProgress?.('identifying units');
  const thresholds = options.thresholds ?? DEFAULT_THRESHOLDS;
  const date = options.date ?? new Date().toISOString().slice(0, 10);
  const made = await identify({
    root,
    version,
    date,
    manifests,
    files,
    ledger,
    thresholds,
    codeKey: options.codeKey,
  });
  made.record.levels = withCoverage(made.record.levels, validated.coverage);
  const ids = unitIdsOf(version, made.record.levels, currentLevelFiles(manifests.map((m) => m.manifest)));
  const planned = await planCatalogue({
    root,
    base: BASE_MARK, // built for the marks: the same bytes in every release until they change
    manifests: [...manifests].sort((a, b) => compareManifests(a.manifest, b.manifest)),
    geometry: validated.geometry,
    coverage: validated.coverage,
    measurer,
    release: { release: VERSION_MARK, latest: VERSION_MARK, unreleased_changes: false },
    frozen: true,
    releaseDate: date,
    unitIds: ids,
    tiles: options.tiles ?? true,
    onProgress: options.onProgress ?? (() => {}),
  });
  const committed = await commit(root, ledger, made, planned.plan, options);
  if (committed.length) return { status: 'refused', problems: [...warnings, ...committed] };
  return {
    status: 'recorded',
    problems: warnings,
    record: made.record,
    changes: made.changes,
    filesRead: planned.filesRead,
  };
}

/** Returns why `version` of these files must not be recorded (or that it already is), or undefined. */
function refusalOf(
  version: string,
  ledger: Ledger,
  manifests: CheckedManifestFile[],
  files: ReturnType<typeof releasedFiles>,
  options: ReleaseOptions,
): ReleaseOutcome | undefined {
  const refuse = (file: string, message: string, rule: Problem['rule']): ReleaseOutcome => ({
    status: 'refused',
    problems: [problem(file, message, { rule })],
  });
  const existing = ledger.releases.find((r) => r.record.version === version);
  if (existing) {
    if (sameFiles(existing.record.files, files))
      return { status: 'unchanged', problems: [], record: existing.record };
    return refuse(
      `${existing.dir}/release.json`,
      `release ${version} is already recorded with other files; choose a new version`,
      'release-exists',
    );
  }
  if (manifests.length === 0) {
    return refuse(
      'data',
      'holds no manifest (data/{body}/{ISO3}/manifest.json): a release needs at least one country',
      'release-empty',
    );
  }
  const latest = ledger.releases.at(-1)?.record;
  if (latest && compareVersions(version, latest.version) <= 0) {
    const message = `release ${version} does not come after the latest release, ${latest.version}: versions must increase (docs/releases.md#versions)`;
    return refuse(`${LEDGER_DIR}/${latest.version}/release.json`, message, 'release-order');
  }
  if (
    latest &&
    !options.allowEmpty &&
    latest.code_key === (options.codeKey ?? null) &&
    sameFiles(latest.files, files)
  ) {
    const message = `nothing changed since release ${latest.version}: release ${version} would hold the same files (--allow-empty records it anyway)`;
    return refuse(`${LEDGER_DIR}/${latest.version}/release.json`, message, 'release-empty');
  }
  const marked = manifests.flatMap((m) => marksIn(m.file, m.manifest, ''));
  return marked.length ? { status: 'refused', problems: marked } : undefined;
}

/**
 * Returns a problem for each released file holding a mark, as it is written
 * or behind JSON escapes (`\u0066`), naming the file. Files the previous
 * release recorded were checked then.
 */
async function dataMarks(root: string, files: ReleasedFile[], ledger: Ledger): Promise<Problem[]> {
  const checked = new Set(ledger.releases.at(-1)?.record.files.map((f) => f.sha256));
  const problems: Problem[] = [];
  await runAll(
    files.filter((f) => !checked.has(f.sha256)),
    4,
    async (file) => {
      const mark = heldMarkInJson(await readFile(join(root, file.path)));
      if (!mark) return;
      const what = mark === BASE_MARK ? 'its own URL' : 'its version';
      const message = `holds "${mark}", which a release reserves for ${what}; change that text`;
      problems.push(problem(file.path, message, { rule: 'release-base-mark' }));
    },
  );
  return problems.sort((a, b) => (a.file < b.file ? -1 : 1));
}

/**
 * Returns a problem for each string of a manifest (as parsed: JSON escapes
 * read) that holds a mark a release reserves: its text reaches the pages
 * that `build` rewrites (the front page names every country).
 */
function marksIn(file: string, value: unknown, pointer: string): Problem[] {
  if (typeof value === 'string') {
    const mark = heldMark(value);
    if (!mark) return [];
    const what = mark === BASE_MARK ? 'its own URL' : 'its version';
    const message = `holds "${mark}", which a release reserves for ${what}; change that text`;
    return [{ ...problem(file, message, { rule: 'release-base-mark' }), pointer }];
  }
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, v]) =>
    marksIn(file, v, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`),
  );
}

/**
 * Writes the release folder aside (under the root's cache): the catalogue
 * as this release publishes it, each file stored once across releases by
 * sha256 (level files among them, which the next release compares with),
 * and the records. Then moves the folder into the ledger by one rename:
 * until then the ledger is as it was. Returns the problems that stopped it.
 */
async function commit(
  root: string,
  ledger: Ledger,
  made: Made,
  plan: Parameters<typeof storePlan>[1],
  options: ReleaseOptions,
): Promise<Problem[]> {
  const stagingRoot = join(cacheDir(root), 'release-staging');
  await rm(stagingRoot, { recursive: true, force: true }); // what a killed release left (the lock is ours)
  const staged = join(stagingRoot, randomBytes(4).toString('hex'));
  const version = made.record.version;
  try {
    await mkdir(join(staged, 'objects'), { recursive: true });
    options.onProgress?.('storing the release');
    const stored = new Set(ledger.objects.keys());
    const site = await storePlan(
      root,
      plan,
      join(staged, 'objects'),
      stored,
      join(cacheDir(root), 'release-stamps.json'),
    );
    if (site.problems.length) return site.problems;
    // Every level file is published as it is; one that was not would be lost to the next release.
    const unstored = made.record.levels.flatMap((l) => l.files).find((f) => !stored.has(f.sha256));
    if (unstored) throw new Error(`${unstored.path} is not among the files release ${version} publishes`);
    const madeFile = join(cacheDir(root), 'release-chunks.json');
    const writer = new RecordWriter(
      join(staged, 'records'),
      new Set(ledger.records.keys()),
      await readMadeChunks(madeFile),
    );
    const chunks = await writeRecords(writer, made, site.files, ledger.releases.at(-1));
    const { files, levels, ...rest } = made.record;
    void files;
    void levels;
    const index: StoredReleaseIndex = { ...rest, ledger_version: LEDGER_VERSION, chunks };
    await writeFile(join(staged, 'release.json'), `${JSON.stringify(index, null, 1)}\n`);
    for (const sub of ['objects', 'records']) await rmdir(join(staged, sub)).catch(() => {}); // only when empty
    // Before the release is moved in: should it fail then, what the file says of each chunk still holds.
    await saveMadeChunks(madeFile, writer.made);
    await options.beforeCommit?.(staged);
    await mkdir(join(root, LEDGER_DIR), { recursive: true });
    await rename(staged, join(root, LEDGER_DIR, version));
    return [];
  } finally {
    await rm(stagingRoot, { recursive: true, force: true });
  }
}
