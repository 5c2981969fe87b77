// What `build` publishes from the release ledger: every recorded release's
// files under releases/VERSION/, exactly the bytes stored when it was made
// (linked from the ledger, never rebuilt; templates get the URL path of the
// release's folder under this build's base, build/release/site-files.ts), dist/api/releases.json with each
// release's counts, one changes file and one unit registry per release, and
// whether the root is the last release or has changes not yet released.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  API_VERSION,
  type ApiReleases,
  type ApiReleaseStatus,
  type ReleaseChange,
} from '../../src/shared/api.ts';
import type { ReleaseFeed } from '../site/pages/changes-page.ts';
import { fileUrl } from '../site/pages/paths.ts';
import { problem, type Problem } from '../core/problem.ts';
import { sameFiles } from './files.ts';
import { readRegistry, registryText, type Ledger, type ReleasedFile } from './ledger.ts';
import { publishedTemplate } from './site-files.ts';

export interface PublishedReleases {
  status: ApiReleaseStatus;
  feeds: ReleaseFeed[]; // newest first, for the "What changed" pages
  generated: Map<string, string>; // dist path → text, e.g. "api/releases.json"
  built: Map<string, string>; // dist path → the ledger's stored file (absolute), e.g. "releases/1.0.0/index.html"
}

/** Returns whether the root's files are those of the last release. */
export function releaseStatus(ledger: Ledger, current: ReleasedFile[]): ApiReleaseStatus {
  const latest = ledger.releases.at(-1);
  const same = latest !== undefined && sameFiles(latest.record.files, current);
  return {
    release: same ? latest.record.version : null,
    latest: latest?.record.version ?? null,
    unreleased_changes: !same,
  };
}

/** Returns the dist files of every release in `ledger` (which has no problems), and the releases API. */
export async function publishReleases(
  root: string,
  base: string,
  ledger: Ledger,
  status: ApiReleaseStatus,
): Promise<PublishedReleases> {
  const generated = new Map<string, string>();
  const feeds: ReleaseFeed[] = [];
  const built = new Map<string, string>();
  for (const { record, site } of ledger.releases) {
    const folder = `releases/${record.version}/`;
    for (const file of site.files) {
      const stored = join(root, ledger.siteObjects.get(file.sha256)!);
      if (site.layout === 2 && 'template' in file && file.template) {
        const text = await readFile(stored, 'utf8');
        generated.set(folder + file.path, publishedTemplate(text, fileUrl(base, folder), record.version));
      } else built.set(folder + file.path, stored);
    }
  }
  const api: ApiReleases = {
    api_version: API_VERSION,
    current: status,
    releases: [],
  };
  for (const release of [...ledger.releases].reverse()) {
    const { record, dir } = release;
    const v = record.version;
    // The feed as the ledger holds it, and the registry as it was written: neither changes later.
    const changes = await readFile(join(root, dir, 'changes.json'), 'utf8');
    const registry = registryText(root, release);
    generated.set(`api/releases/${v}/changes.json`, changes);
    generated.set(`api/releases/${v}/units.json`, registry);
    feeds.push({
      version: v,
      previous: record.previous,
      changes: JSON.parse(changes) as ReleaseChange[],
      units: new Map(readRegistry(root, release).map((u) => [u.id, u])),
    });
    api.releases.push({
      version: v,
      sequence: record.sequence,
      previous: record.previous,
      url: fileUrl(base, `releases/${v}/`),
      changes_url: fileUrl(base, `api/releases/${v}/changes.json`),
      units_url: fileUrl(base, `api/releases/${v}/units.json`),
      counts: { files: record.files.length, units: record.counts.units, changes: record.counts.changes },
    });
  }
  generated.set('api/releases.json', `${JSON.stringify(api, null, 1)}\n`);
  return { status, feeds, generated, built };
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
  for (const r of ledger.releases) hash.update(JSON.stringify([r.record, r.site.files.length]));
  return hash.digest('hex');
}
