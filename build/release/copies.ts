// Which files of each release a bucket can make by a server-side copy of a
// file an earlier release published with the same bytes, and which it must
// be sent: a CDN deploy of release N+1 then uploads only bytes no earlier
// release has (docs/releases.md, scripts/publish-cdn.sh). Worked out from
// what `build` publishes (publishReleases), so a template, rewritten per
// release, is compared as published, not as stored.
import { createHash } from 'node:crypto';
import type { Ledger, ReleasedFile } from './ledger.ts';
import { publishReleases, releaseStatus } from './publish.ts';

/** A file of a release that the bucket can make from a file an earlier release published. */
interface ReleaseCopy {
  source: string; // dist path, e.g. "releases/1.0.0/data/earth/CHL/CHL_ADM1.geojson"
  destination: string; // e.g. "releases/1.1.0/data/earth/CHL/CHL_ADM1.geojson"
  bytes: number;
}

/** How one release reaches the bucket: its copies, and the files only an upload can make. */
export interface ReleaseTransfer {
  version: string;
  copies: ReleaseCopy[]; // by destination
  uploads: { path: string; bytes: number }[]; // e.g. "releases/1.1.0/index.html"
}

interface Published {
  path: string; // inside the release's folder, e.g. "data/earth/CHL/CHL_ADM1.geojson"
  content: string; // the sha256 of its published bytes
  bytes: number;
}

/**
 * Returns, for every release of `ledger` (which has no problems) in order,
 * the files a bucket holding the earlier releases can make by copying one
 * of theirs, and those it must be sent, as `build --base BASE` publishes
 * them. A copy's source is in the earliest release that published its
 * bytes: at the same path when that release has them there, else at the
 * first path that holds them. A release's own duplicates are all uploads, so
 * that every source is in a release uploaded before.
 */
export async function releaseTransfers(
  root: string,
  base: string,
  ledger: Ledger,
): Promise<ReleaseTransfer[]> {
  const latest = ledger.releases.at(-1);
  if (!latest) return [];
  // The status only shapes api/releases.json, which is outside releases/.
  const published = await publishReleases(root, base, ledger, releaseStatus(ledger, latest.record.files));
  // content → the first release holding it, and its paths there
  const first = new Map<string, { version: string; paths: Set<string> }>();
  const transfers: ReleaseTransfer[] = [];
  for (const { record, site } of ledger.releases) {
    const version = record.version;
    const files = releaseFiles(version, site.files, published.generated);
    const transfer: ReleaseTransfer = { version, copies: [], uploads: [] };
    for (const file of files) {
      const earlier = first.get(file.content);
      if (earlier && earlier.version !== version) {
        const from = earlier.paths.has(file.path) ? file.path : [...earlier.paths][0]!;
        transfer.copies.push({
          source: `releases/${earlier.version}/${from}`,
          destination: `releases/${version}/${file.path}`,
          bytes: file.bytes,
        });
        continue;
      }
      transfer.uploads.push({ path: `releases/${version}/${file.path}`, bytes: file.bytes });
      if (earlier) earlier.paths.add(file.path);
      else first.set(file.content, { version, paths: new Set([file.path]) });
    }
    transfers.push(transfer);
  }
  return transfers;
}

/**
 * Returns the files `build` publishes under releases/VERSION/, sorted by
 * path, each told apart by the sha256 of its published bytes: the ledger's
 * record of the stored file, or, for a template (which `build` rewrites for
 * the base and version), of the text it publishes.
 */
function releaseFiles(version: string, stored: ReleasedFile[], generated: Map<string, string>): Published[] {
  const folder = `releases/${version}/`;
  const files = stored.map((file): Published => {
    const text = generated.get(folder + file.path);
    if (text === undefined) return { path: file.path, content: file.sha256, bytes: file.bytes };
    const content = createHash('sha256').update(text).digest('hex');
    return { path: file.path, content, bytes: Buffer.byteLength(text) };
  });
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
