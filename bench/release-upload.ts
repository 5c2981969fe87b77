// bench:release-upload (issue 18): the bytes a CDN deploy of release N+1
// uploads for releases/N+1/ with the recipe of docs/releases.md (server-side
// copies of the files an earlier release published, from
// `geoshelf release-copies`, then only the rest) against a sync that compares
// paths, to which every file of the new folder is new. The sample data
// (data/, copied to a scratch root) is released as 1.0.0, one country's ADM1
// file is changed (a unit renamed, its manifest and preview updated: a
// release refuses a stale preview) and released as 1.0.1. Both figures come from the same run; no timing is taken.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { GeometryChecker } from '../build/geometry/cache.ts';
import { NestingChecker } from '../build/identity/nesting-cache.ts';
import { updateManifests } from '../build/manifest/update-all.ts';
import { writePreviews } from '../build/preview/write-previews.ts';
import { MAX_PREVIEW_BYTES } from '../build/core/shared/manifest.ts';
import { MeasurementCache } from '../build/measure/cache.ts';
import { releaseTransfers } from '../build/release/copies.ts';
import { readLedger } from '../build/release/ledger.ts';
import { makeRelease } from '../build/release/release.ts';

const SAMPLE = new URL('../data', import.meta.url).pathname;
const COUNTRY = process.argv[2] ?? 'CHL';
const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`;
const sum = (files: { bytes: number }[]) => files.reduce((n, f) => n + f.bytes, 0);

/** Records release `version` of `root` as `geoshelf release` does. */
async function release(root: string, version: string): Promise<void> {
  const outcome = await makeRelease(root, version, {
    measurer: MeasurementCache.forRoot(root),
    geometry: GeometryChecker.forRoot(root),
    nesting: NestingChecker.forRoot(root),
  });
  if (outcome.status !== 'recorded') throw new Error(`release ${version}: ${outcome.status}`);
}

const scratch = mkdtempSync(join(tmpdir(), 'geoshelf-bench-upload-'));
try {
  const root = join(scratch, 'sample');
  cpSync(SAMPLE, join(root, 'data'), { recursive: true });
  rmSync(join(root, 'data/releases'), { recursive: true, force: true });
  await release(root, '1.0.0');
  const folder = join(root, 'data/earth', COUNTRY);
  const adm1 = join(
    folder,
    readdirSync(folder).find((f) => f.endsWith('_ADM1.geojson'))!,
  );
  const text = readFileSync(adm1, 'utf8');
  writeFileSync(
    adm1,
    text.replace(/"shapeName":\s*"([^"]*)"/, (_, name: string) => `"shapeName":"${name} (edit)"`),
  );
  const updated = await updateManifests(root, [COUNTRY]);
  if (updated.problems.length) throw new Error(`manifest ${COUNTRY}: ${updated.problems[0]!.message}`);
  // A release refuses a stale preview: made again, as a publisher does after a change.
  const made = await writePreviews(root, [`${COUNTRY}/ADM1`], {
    maxBytes: MAX_PREVIEW_BYTES,
    method: 'visvalingam',
  });
  if (made.problems.length) throw new Error(`preview ${COUNTRY}: ${made.problems[0]!.message}`);
  await release(root, '1.0.1');

  const ledger = readLedger(root);
  if (ledger.problems.length) throw new Error(ledger.problems[0]!.message);
  const [first, next] = await releaseTransfers(root, '/', ledger);
  const all = sum(next!.copies) + sum(next!.uploads);
  const sent = sum(next!.uploads);
  console.log(
    `release 1.0.0: ${first!.uploads.length} files, ${mb(sum(first!.uploads))}, every one uploaded ` +
      `(load ${loadavg()[0]!.toFixed(2)})`,
  );
  console.log(
    `release 1.0.1 (${COUNTRY}'s ADM1 changed): a sync by path uploads ${next!.copies.length + next!.uploads.length} files, ${mb(all)}; ` +
      `the recipe uploads ${next!.uploads.length} files, ${mb(sent)} (${((100 * sent) / all).toFixed(1)} %), ` +
      `and makes ${next!.copies.length} files, ${mb(sum(next!.copies))}, by server-side copies`,
  );
  const byFolder = new Map<string, number>();
  for (const u of next!.uploads) {
    const key = u.path.split('/').slice(2, 4).join('/');
    byFolder.set(key, (byFolder.get(key) ?? 0) + u.bytes);
  }
  const top = [...byFolder].sort((a, b) => b[1] - a[1]).slice(0, 8);
  console.log(`uploaded, by folder: ${top.map(([k, n]) => `${k} ${mb(n)}`).join(', ')}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
