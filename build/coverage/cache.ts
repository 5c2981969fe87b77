// Checks the coverage of each level at most once per run, and not at all
// when the cache file says the same files (by sha256, the measurer's, so an
// unchanged tree reads no GeoJSON) were checked before with the same gap
// width and body: the verdict depends on the bytes of the level (and, for
// gaps, of the level above) only. As build/identity/nesting-cache.ts does.
import { join } from 'node:path';
import { CacheEntries } from '../core/cache.ts';
import { cacheDir } from '../core/files.ts';
import { Slots } from '../core/slots.ts';
import type { Body } from '../core/shared/manifest.ts';
import { eachLevelUnit, type LevelReader } from '../identity/level.ts';
import type { HashedFile } from '../identity/nesting-cache.ts';
import type { UnitRef } from '../identity/nesting.ts';
import type { Shape } from '../identity/shape.ts';
import { checkCoverage, EDGE_WIDTH_M, parentHoles, type CoverageFinding } from './coverage.ts';
import { BODY_RADIUS_M } from '../core/shared/crs.ts';

/** A finding with its units named (file, feature, code and name) rather than numbered. */
export interface LevelFinding extends Omit<CoverageFinding, 'units'> {
  units: UnitRef[];
}

/** The coverage of one level: how many units it has (with area), and its defects. */
export interface LevelCoverage {
  units: number;
  findings: LevelFinding[];
}

interface CacheEntry {
  files: string[]; // sha256 of the level's files, in order
  parents: string[]; // sha256 of the level above's files ([] when none)
  gap_width_m: number;
  edge_width_m: number;
  body: Body;
  coverage: LevelCoverage;
}

/** How a level is checked: the flags of validate. */
export interface CoverageSettings {
  body: Body;
  gapWidthM: number;
}

/**
 * Checks levels once per run (memo) and across runs (a cache file of answers
 * by the level's file paths, holding the sha256s of both levels:
 * build/core/cache.ts). Without `cacheFile` it only memoises. `identity`: the
 * code's, which the cache file is kept with (codeIdentity).
 */
export class CoverageChecker {
  readonly stats = { levelsChecked: 0, cacheHits: 0 };
  private readonly memo = new Map<string, Promise<LevelCoverage>>();
  private readonly entries: CacheEntries<CacheEntry>;
  // One level at a time: each is held in memory, and the work is all on this thread.
  private readonly slots = new Slots(1);

  // reader: files read once for this and other checks of the run (the nesting check's).
  constructor(
    private readonly options: { cacheFile?: string; reader?: LevelReader; identity?: string } = {},
  ) {
    this.entries = new CacheEntries(options.cacheFile, isEntry, options.identity);
  }

  /** Returns the checker a run under `root` uses: its cache is `<root>/.cache/geoshelf/coverage.json` unless `noCache`. */
  static forRoot(root: string, options: { noCache?: boolean; reader?: LevelReader } = {}): CoverageChecker {
    const cacheFile = options.noCache ? undefined : join(cacheDir(root), 'coverage.json');
    return new CoverageChecker({ cacheFile, reader: options.reader });
  }

  /**
   * Returns the coverage of the level in `files`; `parents`: the whole level
   * above (a hole it has too is no gap), or [] when there is none.
   */
  check(files: HashedFile[], parents: HashedFile[], settings: CoverageSettings): Promise<LevelCoverage> {
    const key = files.map((f) => f.path).join('\n');
    const sums = (list: HashedFile[]) => list.map((f) => f.sha256).join();
    const memoKey = `${key}\0${sums(files)}\0${sums(parents)}\0${settings.gapWidthM}\0${settings.body}`;
    let pending = this.memo.get(memoKey);
    if (!pending) {
      pending = this.checkCached(key, files, parents, settings);
      this.memo.set(memoKey, pending);
    }
    return pending;
  }

  /** Writes the cache file atomically when something changed (CacheEntries.save). */
  save(): Promise<void> {
    return this.entries.save();
  }

  private async checkCached(
    key: string,
    files: HashedFile[],
    parents: HashedFile[],
    settings: CoverageSettings,
  ): Promise<LevelCoverage> {
    const same = (a: string[], b: HashedFile[]) =>
      a.length === b.length && a.every((s, i) => s === b[i]!.sha256);
    const cached = await this.entries.get(key);
    if (
      cached &&
      cached.gap_width_m === settings.gapWidthM &&
      cached.edge_width_m === EDGE_WIDTH_M &&
      cached.body === settings.body &&
      same(cached.files, files) &&
      same(cached.parents, parents)
    ) {
      this.stats.cacheHits++;
      return cached.coverage;
    }
    const coverage = await this.slots.run(() => checkLevel(files, parents, settings, this.options.reader));
    this.stats.levelsChecked++;
    await this.entries.set(key, {
      files: files.map((f) => f.sha256),
      parents: parents.map((f) => f.sha256),
      gap_width_m: settings.gapWidthM,
      edge_width_m: EDGE_WIDTH_M,
      body: settings.body,
      coverage,
    });
    return coverage;
  }
}

/** Returns the coverage of one level, reading the level above only when a gap needs it. */
export async function checkLevel(
  files: HashedFile[],
  parents: HashedFile[],
  settings: CoverageSettings,
  reader?: LevelReader,
): Promise<LevelCoverage> {
  const { shapes, refs } = await readShapes(files, reader);
  const radiusM = BODY_RADIUS_M[settings.body];
  let findings = checkCoverage(shapes, { radiusM, gapWidthM: settings.gapWidthM, edgeWidthM: EDGE_WIDTH_M });
  if (parents.length > 0 && findings.some((f) => f.kind === 'gap')) {
    findings = parentHoles(findings, (await readShapes(parents, reader)).shapes);
  }
  return {
    units: shapes.filter((s) => s !== undefined).length,
    findings: findings.map((f) => ({ ...f, units: f.units.map((u) => refs[u]!) })),
  };
}

/** Returns the shapes of the units of `files`, in order, and where each is. */
async function readShapes(
  files: HashedFile[],
  reader?: LevelReader,
): Promise<{ shapes: (Shape | undefined)[]; refs: UnitRef[] }> {
  const shapes: (Shape | undefined)[] = [];
  const refs: UnitRef[] = [];
  for (const file of files) {
    const visit = (u: { shape?: Shape; code: string; name: string }, feature: number) => {
      shapes.push(u.shape);
      refs.push({ file: file.path, feature, code: u.code, name: u.name });
    };
    if (reader && file.sha256) (await reader.units(file.real, file.sha256)).forEach(visit);
    else await eachLevelUnit(file.real, visit);
  }
  return { shapes, refs };
}

function isEntry(value: unknown): value is CacheEntry {
  const entry = (value ?? {}) as Partial<CacheEntry>;
  const strings = (a: unknown) => Array.isArray(a) && a.every((s) => typeof s === 'string');
  const finding = (f: LevelFinding) =>
    typeof f?.kind === 'string' &&
    typeof f.areaM2 === 'number' &&
    Array.isArray(f.point) &&
    Array.isArray(f.units) &&
    f.units.every((u) => typeof u?.file === 'string' && typeof u.feature === 'number');
  return (
    strings(entry.files) &&
    strings(entry.parents) &&
    typeof entry.gap_width_m === 'number' &&
    typeof entry.coverage?.units === 'number' &&
    Array.isArray(entry.coverage.findings) &&
    entry.coverage.findings.every(finding)
  );
}
