// Wires `geoshelf build --shard K/N --out DIR` together, holding the root's
// lock: read the release ledger → assign the tree's countries to N shards
// (assign.ts) → validate this shard's countries → their per-country work
// (build/catalogue/plan.ts planCountries) → the shard folder (record.ts):
// their files of dist/, the work the merge makes the rest from, and for
// shard 1 the ledger. The folder is made beside DIR and swapped in whole.
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { checkedBase, latestUnitIds, validateWithCaches } from './steps.ts';
import { joinWork, type CountryWork } from '../catalogue/country-work.ts';
import { countryFiles, countryPages, planCountries, type CatalogueInput } from '../catalogue/plan.ts';
import { UsageError, UserError } from '../core/errors.ts';
import { withLock } from '../core/lock.ts';
import { hasErrors, type Problem } from '../core/problem.ts';
import { findManifests } from '../manifest/load.ts';
import { compareManifests } from '../manifest/summary.ts';
import { MeasurementCache } from '../measure/cache.ts';
import { writeDist, type DistPlan } from '../output/write-dist.ts';
import { LEDGER_DIR, readLedger, type Ledger } from '../release/ledger.ts';
import { ledgerFingerprint, releaseBaseProblems, releaseFeeds } from '../release/publish.ts';
import { assignShards, shardTasks } from './assign.ts';
import { everyManifest, worldWork } from './world-work.ts';
import {
  encodeWork,
  relocateWork,
  runningVersion,
  SHARD_DIST,
  SHARD_HEAD,
  SHARD_LEDGER,
  SHARD_WORK,
  treeId,
  type ShardHead,
} from './record.ts';

export interface ShardOptions {
  root: string;
  out: string; // the shard folder, replaced in one swap
  shard: number; // K, 1 ≤ K ≤ N
  of: number; // N
  base?: string;
  siteUrl?: string;
  tiles?: boolean;
  onProgress?: (stage: string, done?: number, total?: number) => void;
}

export type ShardResult =
  | { ok: false; problems: Problem[] }
  | {
      ok: true;
      out: string;
      countries: number;
      files: number;
      bytes: number;
      ms: number;
      warnings: Problem[];
      conversionWarnings: Problem[];
    };

/** The most shards a build is spread over: far more than any CI runs at once (docs/deployment.md). */
const MAX_SHARDS = 10_000;

/** Returns "K/N" read as numbers, or throws a UsageError. */
export function parseShard(text: string): { shard: number; of: number } {
  const found = /^([1-9][0-9]*)\/([1-9][0-9]*)$/.exec(text);
  const [shard, of] = found ? [Number(found[1]), Number(found[2])] : [0, 0];
  if (!found || shard > of || of > MAX_SHARDS) {
    throw new UsageError(`--shard: expected K/N with 1 ≤ K ≤ N ≤ ${MAX_SHARDS}, e.g. 2/7, got "${text}"`);
  }
  return { shard, of };
}

/**
 * Builds shard K of N of the catalogue of `options.root` into the shard
 * folder `options.out`, holding the root's lock. A shard whose countries do
 * not validate writes a folder saying it failed (the merge names it) and
 * returns the problems.
 */
export async function buildShard(options: ShardOptions): Promise<ShardResult> {
  const root = resolve(options.root);
  return await withLock(root, 'build', () => makeShard(root, options));
}

async function makeShard(root: string, options: ShardOptions): Promise<ShardResult> {
  const started = performance.now();
  const progress = options.onProgress ?? (() => {});
  const out = resolve(options.out);
  const base = checkedBase(options);
  await checkShardOut(root, out);
  const ledger = readLedger(root);
  const releases = ledger.releases.length ? ledger : undefined;
  const inTree = await findManifests(root);
  const head = shardHead(root, inTree, options, base, ledger.problems.length ? undefined : releases);
  const failed = async (problems: Problem[]): Promise<ShardResult> => {
    const errors = problems.filter((p) => p.severity === 'error').length;
    await writeShard(out, { ...head, status: 'failed', errors }, async () => {});
    return { ok: false, problems };
  };
  if (ledger.problems.length) return await failed([...ledger.warnings, ...ledger.problems]);
  const wrongBase = releases ? releaseBaseProblems(releases, base) : [];
  if (wrongBase.length) return await failed(wrongBase);
  const all = head.world.length ? everyManifest(root, inTree) : { manifests: [] };
  if ('problems' in all) return await failed(all.problems);

  const measurer = MeasurementCache.forRoot(root);
  progress('validating manifests');
  const validated = await validateWithCaches(root, measurer, {
    files: head.countries,
    tree: options.shard === 1,
  });
  if (!validated.ok || hasErrors(validated.problems)) return await failed(validated.problems);
  const loaded = [...validated.manifests].sort((a, b) => compareManifests(a.manifest, b.manifest));
  const tiles = options.tiles !== false;
  const input = {
    ...{ root, base, siteUrl: options.siteUrl, manifests: loaded, measurer, frozen: false, tiles },
    ...{ geometry: validated.geometry, coverage: validated.coverage, onProgress: progress },
    unitIds: releases ? latestUnitIds(releases, loaded) : undefined,
  };
  const work = joinWork(loaded, [await planCountries(input)]);
  if (head.world.length) {
    progress('writing world files');
    const unitIds = releases ? latestUnitIds(releases, all.manifests) : undefined;
    work.world = await worldWork(root, base, head.world, all.manifests, unitIds, tiles);
  }
  const plan = await shardPlan({ ...input, feeds: releases ? releaseFeeds(releases) : undefined }, work);
  let write = { files: 0, bytes: 0 };
  await writeShard(out, head, async (stage) => {
    const blank = { files: {}, sources: {}, links: {} };
    write = await writeDist(root, join(stage, SHARD_DIST), plan, blank, (done, total) =>
      progress('writing files', done, total),
    );
    if (options.shard === 1 && releases)
      await cp(join(root, LEDGER_DIR), join(stage, SHARD_LEDGER), { recursive: true });
    const read = measurer.stats;
    const encoded = encodeWork({
      manifests: loaded,
      ...{ geometry: validated.geometry, coverage: validated.coverage, warnings: validated.problems },
      work: relocateWork(work, (path) => path),
      files: write.files,
      geojsonFilesRead: read.filesMeasured + work.filesRead + work.tiles.filesRead,
      geojsonBytesRead: read.bytesRead + work.bytesRead + work.tiles.bytesRead,
    });
    await writeFile(join(stage, SHARD_WORK), encoded.bytes);
    head.work = encoded.sha256;
  });
  return {
    ok: true,
    out: options.out.replace(/\/+$/, ''),
    countries: loaded.length,
    files: write.files,
    bytes: write.bytes,
    ms: performance.now() - started,
    warnings: [...ledger.warnings, ...validated.problems],
    conversionWarnings: work.downloads.warnings,
  };
}

/**
 * Returns what a shard writes of dist/: its countries' own pages and API
 * documents (rendered here, noted in `work.pages`), their files and its world
 * files.
 */
async function shardPlan(input: CatalogueInput, work: CountryWork): Promise<DistPlan> {
  const pages = await countryPages(input, work);
  const own = countryFiles(input.manifests, work);
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
  work.pages = new Map([...pages].map(([path, text]) => [path, { from: path, sha256: sha256(text) }]));
  return { generated: pages, ...own, built: new Map([...own.built, ...(work.world?.files.built ?? [])]) };
}

/** Returns the head of shard K/N of the tree `root` (status ok): its tasks by the assignment, and the tree's ID. */
function shardHead(
  root: string,
  inTree: string[],
  options: ShardOptions,
  base: string,
  releases: Ledger | undefined,
): ShardHead {
  const texts = inTree.map((file) => ({ file, text: readText(join(root, file)) }));
  const mine = assignShards(shardTasks(texts), options.of)[options.shard - 1]!;
  const countries = new Set(inTree);
  return {
    format: 'geoshelf-shard',
    ...runningVersion(),
    base,
    siteUrl: options.siteUrl ?? null,
    tiles: options.tiles !== false,
    shard: options.shard,
    of: options.of,
    tree: treeId(texts, releases ? ledgerFingerprint(releases) : null),
    countries: mine.filter((t) => countries.has(t)),
    world: mine.filter((t) => !countries.has(t)),
    status: 'ok',
  };
}

/** Returns a file's text, or "" when it cannot be read (its shard reports it). */
function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/**
 * Refuses a shard folder that would destroy something: the root, a folder
 * holding it or one inside its data/, or an existing folder that is neither
 * empty nor a shard folder.
 */
async function checkShardOut(root: string, out: string): Promise<void> {
  const within = (child: string, parent: string) => child === parent || child.startsWith(parent + sep);
  if (within(root, out)) throw new UsageError(`--out ${out}: would replace the root ${root}`);
  if (within(out, join(root, 'data'))) throw new UsageError(`--out ${out}: is inside the data folder`);
  const info = await stat(out).catch(() => undefined);
  if (!info) return;
  if (!info.isDirectory()) throw new UserError(`--out ${out}: exists and is not a folder`);
  if (existsSync(join(out, SHARD_HEAD)) || (await readdir(out)).length === 0) return;
  throw new UserError(`--out ${out}: exists, is not empty and is not a shard folder; refusing to replace it`);
}

/**
 * Makes the shard folder `out` anew: `fill` writes into a folder beside it,
 * then `head` (as `fill` left it) is written there, and the folder replaces
 * `out`. If anything throws, `out` is left as it was.
 */
async function writeShard(
  out: string,
  head: ShardHead,
  fill: (stage: string) => Promise<void>,
): Promise<void> {
  const suffix = randomBytes(4).toString('hex');
  const stage = join(dirname(out), `.${basename(out)}-shard-${suffix}`);
  const aside = join(dirname(out), `.${basename(out)}-old-${suffix}`);
  try {
    await mkdir(stage, { recursive: true });
    await fill(stage);
    await writeFile(join(stage, SHARD_HEAD), `${JSON.stringify(head, null, 2)}\n`);
    const had = existsSync(out);
    if (had) await rename(out, aside);
    await rename(stage, out);
    if (had) await rm(aside, { recursive: true, force: true });
  } catch (error) {
    await rm(stage, { recursive: true, force: true });
    throw error;
  }
}
