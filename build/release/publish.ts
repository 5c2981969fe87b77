// What `build` publishes from the release ledger: every recorded release's
// files under releases/VERSION/, exactly the bytes stored when it was made
// (unpacked from the ledger and checked against their sha256 as they are:
// never rebuilt, never linked to the ledger; templates get the URL path of
// the release's folder under this build's base, build/release/site-files.ts),
// api/releases.json with each release's counts and coverage summary, each release's feed
// (api/releases/VERSION/changes.json), the unit registry as of the latest
// release (api/releases/units.json: one document, not one per release), and
// whether the root is the last release or has changes not yet released.
import { createHash } from 'node:crypto';
import type { ReleaseFeed } from '../core/release-feed.ts';
import { UserError } from '../core/errors.ts';
import { fileUrl } from '../core/dist-paths.ts';
import { problem, type Problem } from '../core/problem.ts';
import { API_VERSION, type ApiReleases, type ApiReleaseStatus } from '../core/shared/api.ts';
import type { StoredFile } from '../output/write-dist.ts';
import { ledgerProblem } from './ledger-chunks.ts';
import { sameFiles } from './files.ts';
import { releaseCoverage } from './coverage-record.ts';
import { readRegistry, type Ledger, type ReleasedFile } from './ledger.ts';
import { copyObjectTo, DamagedObject, readObject } from './object-store.ts';
import { CITATIONS, publishedCitation, publishedTemplate } from './site-files.ts';

export interface PublishedReleases {
  status: ApiReleaseStatus;
  feeds: ReleaseFeed[]; // newest first, for the "What changed" pages and the histories
  generated: Map<string, string>; // dist path → text, e.g. "api/releases.json", or a release's template
  stored: Map<string, StoredFile>; // dist path → the ledger's stored file, e.g. "releases/1.0.0/earth/CHL/index.html"
}

/** Returns whether the root's files are those of the last release. */
export function releaseStatus(ledger: Ledger, current: readonly ReleasedFile[]): ApiReleaseStatus {
  const latest = ledger.releases.at(-1);
  const same = latest !== undefined && sameFiles(latest.record.files, current);
  return {
    release: same ? latest.record.version : null,
    latest: latest?.record.version ?? null,
    unreleased_changes: !same,
  };
}

/** Turns a damaged ledger object into the ledger's one-line problem. */
async function checked<T>(file: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof DamagedObject) throw new UserError(ledgerProblem(file, error.message));
    throw error;
  }
}

/** Returns `path` as an absolute URL: as it is when absolute already (an absolute --base), else on `origin`. */
function absoluteUrl(path: string, origin: string | undefined): string | undefined {
  if (/^https?:\/\//.test(path)) return path;
  return origin ? `${origin.replace(/\/+$/, '')}${path}` : undefined;
}

/**
 * Returns each release's changes, newest first: the "What changed" pages and
 * the countries' histories. `units`: the latest release's registry by ID
 * (read from it when not given).
 */
export function releaseFeeds(ledger: Ledger, units?: ReleaseFeed['units']): ReleaseFeed[] {
  const latest = ledger.releases.at(-1);
  const registry = units ?? new Map((latest ? readRegistry(latest) : []).map((u) => [u.id, u]));
  return [...ledger.releases].reverse().map(({ record, changes }) => ({
    version: record.version,
    previous: record.previous,
    changes,
    units: registry,
    countries: new Set(record.levels.map((l) => l.country)),
  }));
}

/** Returns the dist files of every release in `ledger` (which has no problems), and the releases API. */
export async function publishReleases(
  root: string,
  base: string,
  ledger: Ledger,
  status: ApiReleaseStatus,
  origin?: string, // e.g. "https://example.org" (--site-url): makes the citations name the release's URL
): Promise<PublishedReleases> {
  const generated = new Map<string, string>();
  const stored = new Map<string, StoredFile>();
  for (const { record, site, dir } of ledger.releases) {
    const folder = `releases/${record.version}/`;
    const where = `${dir}/release.json`;
    for (const file of site.files) {
      const object = ledger.objects.get(file.sha256)!; // readLedger checked every file is stored
      if (site.layout === 2 && 'template' in file && file.template) {
        const text = (await checked(where, () => readObject(root, file.sha256, object))).toString('utf8');
        const url = fileUrl(base, folder);
        const published = CITATIONS.has(file.path)
          ? publishedCitation(text, absoluteUrl(url, origin), record.version)
          : publishedTemplate(text, url, record.version);
        generated.set(folder + file.path, published);
      } else {
        const { sha256, bytes } = file;
        const unpack = (dest: string) => checked(where, () => copyObjectTo(root, sha256, object, dest));
        stored.set(folder + file.path, { sha256, bytes, unpack });
      }
    }
  }
  const latest = ledger.releases.at(-1);
  const registry = latest ? readRegistry(latest) : [];
  const units = new Map(registry.map((u) => [u.id, u]));
  const api: ApiReleases = {
    api_version: API_VERSION,
    current: status,
    units_url: latest ? fileUrl(base, 'api/releases/units.json') : null,
    releases: [],
  };
  if (latest) generated.set('api/releases/units.json', `${JSON.stringify(registry, null, 1)}\n`);
  const feeds = releaseFeeds(ledger, units);
  const previousOf = new Map(ledger.releases.map((r, i) => [r, ledger.releases[i - 1]?.record]));
  for (const release of [...ledger.releases].reverse()) {
    const { record, changes } = release;
    const coverage = releaseCoverage(record, previousOf.get(release));
    const v = record.version;
    generated.set(`api/releases/${v}/changes.json`, `${JSON.stringify(changes, null, 1)}\n`);
    api.releases.push({
      version: v,
      sequence: record.sequence,
      previous: record.previous,
      date: record.date ?? null,
      url: fileUrl(base, `releases/${v}/`),
      changes_url: fileUrl(base, `api/releases/${v}/changes.json`),
      counts: { files: record.files.length, units: record.counts.units, changes: record.counts.changes },
      ...(coverage && { coverage }),
    });
  }
  generated.set('api/releases.json', `${JSON.stringify(api, null, 1)}\n`);
  return { status, feeds, generated, stored };
}

/**
 * Returns a problem for each release of the first ledger layout built for
 * another base than `base`: its pages link to BASE/releases/VERSION/ as it
 * was then, and publishing them under another base would break every link.
 */
export function releaseBaseProblems(ledger: Ledger, base: string): Problem[] {
  const problems: Problem[] = [];
  for (const { record, site, dir } of ledger.releases) {
    if (site.layout === 2) continue;
    const wanted = fileUrl(base, `releases/${record.version}/`);
    if (site.base === wanted) continue;
    const was = site.base.slice(0, -`releases/${record.version}/`.length) || site.base;
    const message = `release ${record.version} was built for --base ${was}, and its pages link there; build with --base ${was}`;
    problems.push(problem(`${dir}/site.json`, message, { rule: 'release-base' }));
  }
  return problems;
}

/** Returns a hash of the ledger's records: a new release makes the previous build out of date. */
export function ledgerFingerprint(ledger: Ledger): string {
  const hash = createHash('sha256');
  for (const r of ledger.releases) {
    const { files, levels, ...head } = r.record;
    const chunks = r.chunks
      ? Object.values(r.chunks).map((list) => list?.map((c) => c.sha256))
      : [files, levels];
    hash.update(JSON.stringify([head, chunks, r.site.files.length]));
  }
  return hash.digest('hex');
}
