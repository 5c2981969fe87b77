// Wires `geoshelf release VERSION` together: validate → identify units →
// build the catalogue as this release publishes it (options.buildSite) → record it in
// the ledger (build/release/ledger.ts). Units keep the IDs of the
// previous release where they are the same place (build/identity/); a country
// whose files are all unchanged keeps its units as they were, unread. The new
// release folder is written aside and moved into data/releases/ by one
// rename, so a release that fails or is killed leaves the ledger as it was.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RegistryUnit, ReleaseChange } from '../../src/shared/api.ts';
import type { Dataset, Level } from '../../src/shared/manifest.ts';
import { cacheDir } from '../core/files.ts';
import { problem, type Problem } from '../core/problem.ts';
import { CODE_KEYS, NAME_KEYS, PARENT_KEYS } from '../identity/keys.ts';
import { readGzippedLevelUnits, readLevelUnits } from '../identity/level.ts';
import { identifyCountry, retire, type LevelVintage, type PreviousLevel } from '../identity/registry.ts';
import { DEFAULT_THRESHOLDS, type Thresholds } from '../identity/thresholds.ts';
import {
  validateManifests,
  type LoadedManifest,
  type Validation,
  type ValidateOptions,
} from '../manifest/validate.ts';
import { releasedFiles, sameFiles } from './files.ts';
import { currentLevelFiles, unitIdsOf, type UnitIds } from '../identity/unit-ids.ts';
import {
  LEDGER_DIR,
  BASE_MARK,
  VERSION_MARK,
  readLedger,
  readRegistry,
  type Ledger,
  type LedgerRelease,
  type ReleasedFile,
  type ReleasedLevel,
  type ReleaseRecord,
  type SiteFile,
  type StoredReleaseIndex,
} from './ledger.ts';
import {
  chunkText,
  cutChunksKnowing,
  readMadeChunks,
  saveMadeChunks,
  sha256Text,
  type MadeChunks,
  type RecordChunk,
  type RecordList,
} from './record-chunks.ts';
import { codeVersion } from '../core/compiled.ts';
import { heldMark } from './site-files.ts';
import { storePlan } from './site-store.ts';
import type { DistPlan, SiteWriter } from '../publish/write-dist.ts';

export interface ReleaseOptions extends Pick<ValidateOptions, 'measurer' | 'geometry' | 'nesting'> {
  thresholds?: Thresholds;
  codeKey?: string; // the property holding each unit's code, when not shapeISO and the like
  /**
   * Builds the catalogue as this release publishes it: build/build.ts's
   * buildCatalogue with `site` (for BASE_MARK and VERSION_MARK, its files
   * handed to `site.writeSite`, which stores them in the ledger), and, when
   * the caller has the measurer it gave this stage, `validated` with it, so
   * that the build does not validate again. Passed in by the CLI, since
   * build publishes the ledger this stage writes.
   */
  buildSite: (
    site: ReleaseSiteBuild,
    validated: Validation,
  ) => Promise<{ ok: true } | { ok: false; problems: Problem[] }>;
  /** For tests: called once the new release folder is complete, before it is moved into the ledger. */
  beforeCommit?: (staged: string) => Promise<void> | void;
}

/** The options of the build of a release's catalogue (build/build.ts's BuildOptions, but `root`). */
export interface ReleaseSiteBuild {
  releases: false;
  base: string;
  releaseOf: string;
  unitIds: UnitIds;
  writeSite: SiteWriter;
}

export type ReleaseOutcome =
  | { status: 'refused'; problems: Problem[] }
  | { status: 'unchanged'; problems: Problem[]; record: ReleaseRecord } // the same version with the same content
  | { status: 'recorded'; problems: Problem[]; record: ReleaseRecord; changes: ReleaseChange[] };

/** Properties that never count as an `attributes` change: names, codes, parents and per-build identifiers. */
const IDENTIFYING = ['shapeID', 'parentID', 'id'];

/**
 * Records the data under `root` as release `version` (checked by the
 * caller against VERSION_RULE). Refuses when validate finds errors, when the
 * ledger is damaged, or when `version` is recorded with other files;
 * recording the same files again changes nothing.
 */
export async function makeRelease(
  root: string,
  version: string,
  options: ReleaseOptions,
): Promise<ReleaseOutcome> {
  const { measurer, geometry, nesting } = options;
  const ledger = readLedger(root); // synchronous small reads; a damaged ledger is said first
  const validated = await validateManifests(root, { measurer, geometry, nesting });
  if (ledger.problems.length) return { status: 'refused', problems: ledger.problems };
  const errors = validated.problems.filter((p) => p.severity === 'error');
  if (errors.length) return { status: 'refused', problems: validated.problems };
  const manifests = [...validated.manifests].sort((a, b) => (a.file < b.file ? -1 : 1));
  const files = await releasedFiles(root, manifests);
  const existing = ledger.releases.find((r) => r.record.version === version);
  if (existing) {
    if (sameFiles(existing.record.files, files)) {
      return { status: 'unchanged', problems: validated.problems, record: existing.record };
    }
    const file = `${existing.dir}/release.json`;
    const message = `release ${version} is already recorded with other files; choose a new version`;
    return {
      status: 'refused',
      problems: [...validated.problems, problem(file, message, { rule: 'release-exists' })],
    };
  }
  const marked = await markProblems(root, files, ledger.releases.at(-1));
  if (marked.length) return { status: 'refused', problems: [...validated.problems, ...marked] };
  const made = await identify(root, version, manifests, files, ledger, options);
  const ids = unitIdsOf(version, made.record.levels, currentLevelFiles(manifests.map((m) => m.manifest)));
  const committed = await commit(root, ledger, made, ids, validated, options);
  if (committed.problems) return { status: 'refused', problems: committed.problems };
  return { status: 'recorded', problems: validated.problems, record: made.record, changes: made.changes };
}

/** The files of one level, in feature order: its file, or its parts one after the other. */
function levelFiles(d: Dataset): { path: string; sha256: string }[] {
  if (d.path) return [{ path: d.path, sha256: d.sha256! }];
  return (d.parts ?? []).map((p) => ({ path: p.path, sha256: p.sha256 }));
}

interface Made {
  record: ReleaseRecord;
  registry: RegistryUnit[];
  changes: ReleaseChange[];
}

/** Gives every unit its ID and finds every change since the previous release. */
async function identify(
  root: string,
  version: string,
  manifests: LoadedManifest[],
  files: ReleasedFile[],
  ledger: Ledger,
  options: ReleaseOptions,
): Promise<Made> {
  const thresholds = options.thresholds ?? DEFAULT_THRESHOLDS;
  const codeKey = options.codeKey;
  const previous: LedgerRelease | undefined = ledger.releases.at(-1);
  // Copies: the ledger's units are shared by the releases that name the same chunk. Shallow:
  // identification sets a unit's fields, and replaces its lists (build/identity/registry.ts).
  const registry = new Map<string, RegistryUnit>(
    (previous ? readRegistry(root, previous) : []).map((u) => [u.id, { ...u }]),
  );
  const before = new Map<string, ReleasedLevel[]>(); // by country
  for (const level of previous?.record.levels ?? []) {
    const key = `${level.body}/${level.country}`;
    before.set(key, [...(before.get(key) ?? []), level]);
  }
  const ignored = new Set([
    ...NAME_KEYS,
    ...CODE_KEYS,
    ...PARENT_KEYS,
    ...IDENTIFYING,
    ...(codeKey ? [codeKey] : []),
  ]);
  const levels: ReleasedLevel[] = [];
  const changes: ReleaseChange[] = [];
  const seen = new Set<string>(); // countries of this release
  for (const { manifest } of manifests) {
    const key = `${manifest.body}/${manifest.iso_a3}`;
    seen.add(key);
    const datasets = manifest.datasets.filter((d) => d.level !== 'QUAD');
    const now = datasets.map((d) => ({ level: d.level, files: levelFiles(d) }));
    const old = before.get(key) ?? [];
    const unchanged =
      previous?.record.code_key === (codeKey ?? null) &&
      old.length === now.length &&
      now.every((n, i) => old[i]!.level === n.level && sameLevelFiles(old[i]!.files, n.files));
    if (unchanged) {
      // Nothing to read: the same units, seen once more.
      for (const level of old) {
        for (const id of level.ids) registry.get(id)!.last_seen = version;
        levels.push(level);
      }
      continue;
    }
    const vintages: LevelVintage[] = [];
    for (const n of now) {
      const units = [];
      const places = [];
      for (const file of n.files) {
        const read = await readLevelUnits([join(root, file.path)], codeKey);
        units.push(...read);
        places.push(...read.map((_, feature) => ({ file: file.path, feature })));
      }
      vintages.push({ level: n.level, units, places });
    }
    const previousLevels = new Map<Level, PreviousLevel>();
    for (const level of old) {
      if (!now.some((n) => n.level === level.level)) continue;
      const units = [];
      for (const file of level.files) {
        // Layout 2 stores it among the site's files; layout 1 gzipped in objects/.
        const stored = ledger.siteObjects.get(file.sha256);
        units.push(
          ...(stored
            ? await readLevelUnits([join(root, stored)], codeKey)
            : await readGzippedLevelUnits(join(root, ledger.objects.get(file.sha256)!), codeKey)),
        );
      }
      previousLevels.set(level.level, { units, ids: level.ids });
    }
    const found = identifyCountry({
      country: manifest.iso_a3,
      version,
      levels: vintages,
      previous: previousLevels,
      registry,
      thresholds,
      ignored,
    });
    changes.push(...found.changes);
    // Levels that are gone: their units are removed.
    for (const level of old) {
      if (!now.some((n) => n.level === level.level)) changes.push(...removeLevel(level, registry));
    }
    for (const n of now) {
      levels.push({
        body: manifest.body,
        country: manifest.iso_a3,
        level: n.level,
        files: n.files,
        ids: found.units.filter((u) => u.level === n.level).map((u) => u.id),
      });
    }
  }
  for (const [key, old] of before)
    if (!seen.has(key)) for (const level of old) changes.push(...removeLevel(level, registry));
  const counts: ReleaseRecord['counts'] = {
    units: levels.reduce((n, l) => n + l.ids.length, 0),
    changes: {},
  };
  for (const c of changes) counts.changes[c.type] = (counts.changes[c.type] ?? 0) + 1;
  const record: ReleaseRecord = {
    ledger_version: 2,
    version,
    sequence: (previous?.record.sequence ?? 0) + 1,
    previous: previous?.record.version ?? null,
    code_key: codeKey ?? null,
    thresholds,
    files,
    levels,
    counts,
  };
  const sorted = [...registry.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
  return { record, registry: sorted, changes };
}

function sameLevelFiles(
  a: { path: string; sha256: string }[],
  b: { path: string; sha256: string }[],
): boolean {
  return a.length === b.length && a.every((f, i) => f.path === b[i]!.path && f.sha256 === b[i]!.sha256);
}

/** Retires every unit of a level that is no longer released, and returns their `removed` changes. */
function removeLevel(level: ReleasedLevel, registry: Map<string, RegistryUnit>): ReleaseChange[] {
  return level.ids.map((id) => {
    const entry = registry.get(id)!;
    retire(entry);
    return {
      type: 'removed',
      country: level.country,
      level: level.level,
      id,
      code: entry.code,
      name: entry.name,
    };
  });
}

/**
 * Writes the release folder aside (under the root's cache): its records and
 * the catalogue as this release publishes it, built once, now, for
 * BASE_MARK and stored base-independent (build/release/site-files.ts), each
 * file once across releases by sha256. Level files are published files, so
 * they are stored there once too, as the next release reads them. The
 * records are chunks, each also stored once (record-chunks.ts). Then moves
 * the folder into the ledger by one rename: until then the ledger is as it was.
 */
async function commit(
  root: string,
  ledger: Ledger,
  made: Made,
  ids: UnitIds,
  validated: Validation,
  options: ReleaseOptions,
): Promise<{ problems?: Problem[] }> {
  const stagingRoot = join(cacheDir(root), 'release-staging');
  await rm(stagingRoot, { recursive: true, force: true }); // what a killed release left
  const staged = join(stagingRoot, randomBytes(4).toString('hex'));
  const version = made.record.version;
  // Where releases before this version built their catalogue as a tree: no longer needed.
  await rm(join(cacheDir(root), 'release-site'), { recursive: true, force: true });
  await rm(join(cacheDir(root), 'release-site.stamps.json'), { force: true });
  try {
    await mkdir(join(staged, 'site'), { recursive: true });
    const stored = new Set(ledger.siteObjects.keys());
    let site: SiteFile[] | undefined;
    const build: ReleaseSiteBuild = {
      releases: false,
      // Built for the marks, not this release's base and version, so that its files are the same bytes in every release until they change.
      base: BASE_MARK,
      releaseOf: VERSION_MARK,
      unitIds: ids,
      // Stored as the build makes them, never written out as a tree (a data or built file unchanged since the last release is not read).
      writeSite: async (plan: DistPlan) => {
        const kept = await storePlan(
          root,
          plan,
          join(staged, 'site'),
          stored,
          join(cacheDir(root), 'release-stamps.json'),
        );
        site = kept.files;
        return kept.stats;
      },
    };
    const built = await options.buildSite(build, validated);
    if (!built.ok) return { problems: built.problems };
    if (!site) throw new Error(`the catalogue of release ${version} was built without storing its files`);
    await writeFile(join(staged, 'changes.json'), `${JSON.stringify(made.changes, null, 1)}\n`);
    // Every level file is published as it is; one that was not would be lost to the next release.
    const unstored = made.record.levels.flatMap((l) => l.files).find((f) => !stored.has(f.sha256));
    if (unstored) throw new Error(`${unstored.path} is not among the files release ${version} publishes`);
    const madeFile = join(cacheDir(root), 'release-chunks.json');
    const code = codeVersion();
    const records = new RecordWriter(
      join(staged, 'records'),
      new Set(ledger.records.keys()),
      await readMadeChunks(madeFile, code),
    );
    const before = ledger.releases.at(-1)?.chunks;
    const { files, levels, ...rest } = made.record;
    const index: StoredReleaseIndex = {
      ...rest,
      ledger_version: 2,
      chunks: {
        files: await records.write('files', files, (f) => f.path, 12, before?.files),
        levels: await records.write(
          'levels',
          levels,
          (l) => `${l.body}/${l.country}/${l.level}`,
          8,
          before?.levels,
        ),
        registry: await records.write(
          'registry',
          storedRegistry(made),
          (u) => `${u.country}/${u.level}/${u.id}`,
          32,
          before?.registry,
        ),
        site: await records.write('site', site, (f) => f.path, 12, before?.site),
      },
    };
    await writeFile(join(staged, 'release.json'), `${JSON.stringify(index, null, 1)}\n`);
    // Before the release is moved in: should it fail then, what the file says of each chunk still holds.
    if (code !== undefined) await saveMadeChunks(madeFile, code, records.made);
    await options.beforeCommit?.(staged);
    await mkdir(join(root, LEDGER_DIR), { recursive: true });
    await rename(staged, join(root, LEDGER_DIR, version));
    return {};
  } finally {
    await rm(stagingRoot, { recursive: true, force: true });
  }
}

/**
 * The registry as the chunks keep it: by country, level and ID, so that a
 * country's units share chunks; without last_seen for the units of this
 * release, which would otherwise change every chunk every release (a copy
 * whose last_seen is undefined, which JSON leaves out where it stood).
 */
function storedRegistry(made: Made): Omit<RegistryUnit, 'last_seen'>[] {
  const live = new Set(made.record.levels.flatMap((l) => l.ids));
  return byCountryLevelId(made.registry).map((u) => (live.has(u.id) ? { ...u, last_seen: undefined } : u));
}

/**
 * Returns `units` sorted by `${country}/${level}/${id}`. When they come in
 * ID order (as identify gives them), by country and level, each group in ID
 * order: without a "/" in a country or level no group's key begins
 * another's, so that is the same order, found without comparing every pair.
 */
function byCountryLevelId(units: RegistryUnit[]): RegistryUnit[] {
  const grouped = units.every(
    (u, i) => !u.country.includes('/') && !u.level.includes('/') && (i === 0 || units[i - 1]!.id < u.id),
  );
  if (!grouped) {
    const keyed = units.map((u) => ({ key: `${u.country}/${u.level}/${u.id}`, u }));
    return keyed.sort((a, b) => (a.key < b.key ? -1 : 1)).map(({ u }) => u);
  }
  const groups = new Map<string, RegistryUnit[]>();
  for (const u of units) {
    const key = `${u.country}/${u.level}/`;
    const group = groups.get(key);
    if (group) group.push(u);
    else groups.set(key, [u]);
  }
  return [...groups.keys()].sort().flatMap((key) => groups.get(key)!);
}

/**
 * Writes record chunks into a staged records/ folder, each content the
 * ledger lacks once. A chunk of the previous release that this code cut and
 * wrote (`known`, the made-chunks cache) is found again without its keys
 * hashed or its text made when this release's list holds the same items
 * there; every chunk this release names is from then on known (`made`).
 */
class RecordWriter {
  readonly made: MadeChunks = { files: new Set(), levels: new Set(), registry: new Set(), site: new Set() };

  constructor(
    private dir: string,
    private stored: Set<string>,
    private known: MadeChunks,
  ) {}

  /** Returns the sha256s of the chunks of `items`, the list `list`, in order, writing the new ones; `previous` is the previous release's chunks of it. */
  async write<T>(
    list: RecordList,
    items: readonly T[],
    key: (item: T) => string,
    every: number,
    previous: readonly RecordChunk[] = [],
  ): Promise<string[]> {
    const known = previous.filter((chunk) => this.known[list].has(chunk.sha256));
    const shas: string[] = [];
    for (const chunk of cutChunksKnowing(items, key, every, known)) {
      let sha = chunk.known?.sha256;
      if (sha === undefined) {
        const text = chunkText(chunk.items);
        sha = sha256Text(text);
        if (!this.stored.has(sha)) {
          this.stored.add(sha);
          await mkdir(this.dir, { recursive: true });
          await writeFile(join(this.dir, `${sha}.json`), text);
        }
      }
      this.made[list].add(sha);
      shas.push(sha);
    }
    return shas;
  }
}

/**
 * Returns a problem for each released file holding BASE_MARK or
 * VERSION_MARK, which the published release would replace. Files the
 * previous release recorded were checked then, if it checked both.
 */
async function markProblems(
  root: string,
  files: ReleasedFile[],
  previous: LedgerRelease | undefined,
): Promise<Problem[]> {
  const checked = new Set(
    previous?.record.ledger_version === 2 ? previous.record.files.map((f) => f.sha256) : [],
  );
  const problems: Problem[] = [];
  for (const file of files) {
    if (checked.has(file.sha256)) continue;
    const mark = heldMark(await readFile(join(root, file.path)));
    if (!mark) continue;
    const what = mark === BASE_MARK ? 'its own URL' : 'its version';
    const message = `holds "${mark}", which a release reserves for ${what}; change that text`;
    problems.push(problem(file.path, message, { rule: 'release-base-mark' }));
  }
  return problems;
}
