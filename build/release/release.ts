// Wires `geoshelf release VERSION` together: validate → identify units →
// build the catalogue as this release publishes it (options.buildSite) → record it in
// the ledger (build/release/ledger.ts). Units keep the IDs of the
// previous release where they are the same place (build/identity/); a country
// whose files are all unchanged keeps its units as they were, unread. The new
// release folder is written aside and moved into data/releases/ by one
// rename, so a release that fails or is killed leaves the ledger as it was.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { RegistryUnit, ReleaseChange } from '../../src/shared/api.ts';
import type { Dataset, Level } from '../../src/shared/manifest.ts';
import { cacheDir, listFiles } from '../core/files.ts';
import { normaliseBase } from '../site/pages/html.ts';
import { problem, type Problem } from '../core/problem.ts';
import { CODE_KEYS, NAME_KEYS, PARENT_KEYS } from '../identity/keys.ts';
import { readGzippedLevelUnits, readLevelUnits } from '../identity/level.ts';
import { identifyCountry, retire, type LevelVintage, type PreviousLevel } from '../identity/registry.ts';
import { DEFAULT_THRESHOLDS, type Thresholds } from '../identity/thresholds.ts';
import { validateManifests, type LoadedManifest, type ValidateOptions } from '../manifest/validate.ts';
import { releasedFiles, sameFiles } from './files.ts';
import {
  LEDGER_DIR,
  objectName,
  readLedger,
  readRegistry,
  type Ledger,
  type LedgerRelease,
  type ReleasedFile,
  type ReleasedLevel,
  type ReleaseRecord,
  type ReleaseSite,
} from './ledger.ts';

export interface ReleaseOptions extends Pick<ValidateOptions, 'measurer' | 'geometry' | 'nesting'> {
  thresholds?: Thresholds;
  codeKey?: string; // the property holding each unit's code, when not shapeISO and the like
  base?: string; // the URL path the site is served under (build --base), default "/"
  /**
   * Builds the catalogue as this release publishes it into `out`, for the
   * URL path `base` (build/build.ts's buildCatalogue with releases: false and
   * releaseOf: version; passed in by the CLI, since build publishes the
   * ledger this stage writes).
   */
  buildSite: (
    out: string,
    base: string,
    version: string,
  ) => Promise<{ ok: true } | { ok: false; problems: Problem[] }>;
  /** For tests: called once the new release folder is complete, before it is moved into the ledger. */
  beforeCommit?: (staged: string) => Promise<void> | void;
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
  const ledger = await readLedger(root);
  if (ledger.problems.length) return { status: 'refused', problems: ledger.problems };
  const { measurer, geometry, nesting } = options;
  const validated = await validateManifests(root, { measurer, geometry, nesting });
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
  const made = await identify(root, version, manifests, files, ledger, options);
  const committed = await commit(root, ledger, made, options);
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
  const registry = previous ? await readRegistry(root, previous) : new Map<string, RegistryUnit>();
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
        units.push(...(await readGzippedLevelUnits(join(root, ledger.objects.get(file.sha256)!), codeKey)));
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
    ledger_version: 1,
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
 * Writes the release folder aside (under the root's cache): its records,
 * the level files no earlier release stored, and the catalogue as this
 * release publishes it (built once, now, for releases/VERSION/; each file
 * stored once across releases). Then moves it into the ledger by one
 * rename: until then the ledger is as it was.
 */
async function commit(
  root: string,
  ledger: Ledger,
  made: Made,
  options: ReleaseOptions,
): Promise<{ problems?: Problem[] }> {
  const stagingRoot = join(cacheDir(root), 'release-staging');
  await rm(stagingRoot, { recursive: true, force: true }); // what a killed release left
  const id = randomBytes(4).toString('hex');
  const staged = join(stagingRoot, id);
  const siteOut = join(stagingRoot, `${id}-site`);
  const version = made.record.version;
  try {
    const base = `${normaliseBase(options.base ?? '/')}releases/${version}/`;
    const built = await options.buildSite(siteOut, base, version);
    if (!built.ok) return { problems: built.problems };
    await mkdir(join(staged, 'objects'), { recursive: true });
    await mkdir(join(staged, 'site'), { recursive: true });
    const json = (value: unknown) => `${JSON.stringify(value, null, 1)}\n`;
    await writeFile(join(staged, 'release.json'), json(made.record));
    await writeFile(join(staged, 'registry.json'), json(made.registry));
    await writeFile(join(staged, 'changes.json'), json(made.changes));
    const stored = new Set(ledger.objects.keys());
    for (const level of made.record.levels) {
      for (const file of level.files) {
        if (stored.has(file.sha256)) continue;
        stored.add(file.sha256);
        await pipeline(
          createReadStream(join(root, file.path)),
          createGzip({ level: 9 }),
          createWriteStream(join(staged, objectName(file.sha256))),
        );
      }
    }
    const site: ReleaseSite = { base, files: [] };
    const published = new Set(ledger.siteObjects.keys());
    for (const path of await listFiles(siteOut)) {
      const bytes = await readFile(join(siteOut, path));
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      site.files.push({ path, sha256, bytes: bytes.length });
      if (published.has(sha256)) continue;
      published.add(sha256);
      await writeFile(join(staged, 'site', sha256), bytes);
    }
    await writeFile(join(staged, 'site.json'), json(site));
    await options.beforeCommit?.(staged);
    await mkdir(join(root, LEDGER_DIR), { recursive: true });
    await rename(staged, join(root, LEDGER_DIR, version));
    return {};
  } finally {
    await rm(stagingRoot, { recursive: true, force: true });
  }
}
