// The release ledger under `data/releases/` (committed beside the
// manifests): one folder per release, VERSION/ holding release.json (every
// file with its sha256, each level's unit IDs in feature order), registry.json
// (every unit ID ever given), changes.json (the feed since the previous
// release), site.json with site/ (the catalogue as the release publishes it,
// each file stored once across all releases by sha256; level files are among
// them, and are what the next release compares with) and, in ledgers made
// before the site was base-independent (layout 1), objects/ (the level files
// again, gzipped).
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { RegistryUnit, ReleaseChange } from '../../src/shared/api.ts';
import type { Level } from '../../src/shared/manifest.ts';
import { problem, type Problem } from '../core/problem.ts';
import type { Thresholds } from '../identity/thresholds.ts';

/** The ledger's folder, relative to the root. */
export const LEDGER_DIR = 'data/releases';

/** A file of the data tree as a release holds it. */
export interface ReleasedFile {
  path: string; // e.g. "data/earth/CHL/CHL_ADM1.geojson"
  sha256: string;
  bytes: number;
}

/** One level of one country in a release: its files in order, and its units' IDs in feature order. */
export interface ReleasedLevel {
  body: string;
  country: string; // ISO3
  level: Level;
  files: { path: string; sha256: string }[];
  ids: string[];
}

/** release.json. */
export interface ReleaseRecord {
  ledger_version: 1;
  version: string;
  sequence: number; // 1 for the first release, then one more each
  previous: string | null;
  code_key: string | null; // the property read as each unit's code, when not the usual ones
  thresholds: Thresholds;
  files: ReleasedFile[]; // sorted by path
  levels: ReleasedLevel[];
  counts: { units: number; changes: Partial<Record<ReleaseChange['type'], number>> };
}

/** A release read from the ledger. */
export interface LedgerRelease {
  record: ReleaseRecord;
  site: ReleaseSite;
  dir: string; // e.g. "data/releases/2026.11"
}

export interface Ledger {
  releases: LedgerRelease[]; // by sequence
  objects: Map<string, string>; // sha256 → level file (gzipped, layout 1), relative to the root
  siteObjects: Map<string, string>; // sha256 → published file, relative to the root
  problems: Problem[];
}

/**
 * site.json: every file the release publishes (its dist/, under
 * releases/VERSION/), each stored in site/ by sha256.
 *
 * Layout 1 (the first ledgers): the files as built for one URL path, `base`,
 * published as they are. Layout 2: the same bytes under any base, so that a
 * release stores again only what changed: pages link relatively, and the
 * few files that must name their own URL (JSON links, the sitemap, the 404
 * page, which is served at any path) are `template`s holding BASE_MARK,
 * where `build` writes BASE/releases/VERSION/.
 */
export type ReleaseSite =
  | { base: string; layout?: undefined; files: ReleasedFile[] } // e.g. base "/releases/2026.11/"
  | { layout: 2; files: SiteFile[] }; // paths inside the release's folder of dist/, sorted

export interface SiteFile extends ReleasedFile {
  template?: true; // holds BASE_MARK
}

/**
 * The base a layout-2 release is built for, replaced when it is published.
 * Path-shaped, so every page treats it as the usual "/sub/" base; `release`
 * refuses data holding it (build/release/release.ts).
 */
export const BASE_MARK = '/geoshelf-release-base-8c1e0f/';

/**
 * A version names a folder and a URL path segment on every host: 1 to 32
 * characters, lower-case letters, digits, "." and "-", starting with a digit
 * and ending with a letter or digit, e.g. "2026.11", "1.2.0", "1.0.0-rc.1".
 */
export const VERSION_RULE = /^[0-9](?:[0-9a-z.-]{0,30}[0-9a-z])?$/;

/** Returns why `version` is not a valid release version, or undefined when it is. */
export function versionProblem(version: string): string | undefined {
  if (!VERSION_RULE.test(version) || version.includes('..')) {
    return `"${version}" is not a release version: 1 to 32 lower-case letters, digits, "." and "-", starting with a digit and ending with a letter or digit, e.g. 2026.11 or 1.2.0`;
  }
  return undefined;
}

/** Returns the layout-1 object file of a level file's bytes, relative to its release folder. */
export function objectName(sha256: string): string {
  return `objects/${sha256}.geojson.gz`;
}

/**
 * Reads every release under `<root>/data/releases/` and checks that each
 * holds its three files and that every level file it compares with is
 * stored; a missing or unreadable file is a problem naming it (a release
 * against a damaged ledger would lose the IDs it cannot read).
 */
export async function readLedger(root: string): Promise<Ledger> {
  const problems: Problem[] = [];
  const objects = new Map<string, string>();
  const siteObjects = new Map<string, string>();
  let names: string[];
  try {
    names = (await readdir(join(root, LEDGER_DIR), { withFileTypes: true }))
      .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
      .map((e) => e.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { releases: [], objects, siteObjects, problems };
    throw error;
  }
  const releases: LedgerRelease[] = [];
  for (const name of names) {
    const dir = `${LEDGER_DIR}/${name}`;
    const record = await readJson<ReleaseRecord>(root, `${dir}/release.json`, problems);
    const site = await readJson<ReleaseSite>(root, `${dir}/site.json`, problems);
    for (const extra of ['registry.json', 'changes.json']) {
      try {
        await stat(join(root, dir, extra));
      } catch {
        problems.push(ledgerProblem(`${dir}/${extra}`, 'missing from the ledger'));
      }
    }
    try {
      for (const file of await readdir(join(root, dir, 'objects'))) {
        const sha = /^([0-9a-f]{64})\.geojson\.gz$/.exec(file)?.[1];
        if (sha) objects.set(sha, `${dir}/objects/${file}`);
      }
    } catch {
      // a release that stored no object
    }
    try {
      for (const file of await readdir(join(root, dir, 'site'))) {
        if (/^[0-9a-f]{64}$/.test(file)) siteObjects.set(file, `${dir}/site/${file}`);
      }
    } catch {
      // a release that published nothing new
    }
    if (!record || !site) continue;
    if (record.version !== name) {
      problems.push(
        ledgerProblem(`${dir}/release.json`, `says version "${record.version}", in folder "${name}"`),
      );
      continue;
    }
    releases.push({ record, site, dir });
  }
  releases.sort((a, b) => a.record.sequence - b.record.sequence);
  releases.forEach((r, i) => {
    if (r.record.sequence !== i + 1) {
      problems.push(
        ledgerProblem(`${r.dir}/release.json`, `is release number ${r.record.sequence}, expected ${i + 1}`),
      );
    }
    r.record.levels.forEach((level, l) =>
      level.files.forEach((file, f) => {
        if (objects.has(file.sha256) || siteObjects.has(file.sha256)) return;
        problems.push({
          ...ledgerProblem(
            `${r.dir}/release.json`,
            `the ledger lost ${file.path} as released (neither site/${file.sha256} nor ${objectName(file.sha256)} is in a release folder)`,
          ),
          pointer: `/levels/${l}/files/${f}`,
        });
      }),
    );
  });
  for (const r of releases) {
    r.site.files.forEach((file, f) => {
      if (siteObjects.has(file.sha256)) return;
      problems.push({
        ...ledgerProblem(
          `${r.dir}/site.json`,
          `the ledger lost releases/${r.record.version}/${file.path} (site/${file.sha256} is in no release folder)`,
        ),
        pointer: `/files/${f}`,
      });
    });
  }
  return { releases, objects, siteObjects, problems };
}

/** Returns registry.json of a release, by ID. */
export async function readRegistry(root: string, release: LedgerRelease): Promise<Map<string, RegistryUnit>> {
  const units = (await readJson<RegistryUnit[]>(root, `${release.dir}/registry.json`, [])) ?? [];
  return new Map(units.map((u) => [u.id, u]));
}

async function readJson<T>(root: string, file: string, problems: Problem[]): Promise<T | undefined> {
  let text: string;
  try {
    text = await readFile(join(root, file), 'utf8');
  } catch {
    problems.push(ledgerProblem(file, 'missing from the ledger'));
    return undefined;
  }
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    problems.push(ledgerProblem(file, `not JSON: ${(error as Error).message}`));
    return undefined;
  }
}

function ledgerProblem(file: string, message: string): Problem {
  return problem(file, message, { rule: 'ledger' });
}
