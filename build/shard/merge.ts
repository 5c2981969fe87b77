// Wires `geoshelf build --merge DIR… --out DIR` together: read and check
// every shard folder's head (record.ts) → a merge root beside DIR holding
// the shards' data files and shard 1's ledger (links, not copies) → plan
// dist/ from the shards' work with the single build's own code
// (build/build.ts planBuild) → write it with the single build's writer,
// swapped in whole. Nothing is written when a shard is missing, foreign,
// failed or damaged, or of another geoshelf or --base.
import { existsSync } from 'node:fs';
import { cp, link, mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { checkedBase, checkOut, planBuild, type BuildResult } from './steps.ts';
import { listFiles } from '../core/files.ts';
import { UserError } from '../core/errors.ts';
import { problem, type Problem } from '../core/problem.ts';
import { compareManifests } from '../manifest/summary.ts';
import { MeasurementCache } from '../measure/cache.ts';
import { writeDist } from '../output/write-dist.ts';
import { LEDGER_DIR, readLedger } from '../release/ledger.ts';
import { releaseBaseProblems } from '../release/publish.ts';
import {
  decodeWork,
  parseHead,
  relocateWork,
  runningVersion,
  SHARD_DIST,
  SHARD_HEAD,
  SHARD_LEDGER,
  SHARD_WORK,
  type ShardHead,
  type ShardWork,
} from './record.ts';

export interface MergeOptions {
  shards: string[]; // the shard folders, in any order
  out: string; // e.g. "dist", replaced in one swap
  base?: string; // must be the shards' --base
  siteUrl?: string; // must be the shards' --site-url
  onProgress?: (stage: string, done?: number, total?: number) => void;
}

/** A shard folder as read: where it is (as given) and its head. */
interface Shard {
  dir: string; // absolute
  shown: string; // as the user gave it, e.g. "shards/3"
  head: ShardHead;
}

/** Returns a one-line problem about a shard folder (rule `shard`). */
function shardProblem(shown: string, message: string): Problem {
  return problem(shown, message, { rule: 'shard' });
}

/**
 * Merges the shard folders `options.shards` into `options.out`: the
 * catalogue a single `build` of the same tree with the same --base writes,
 * byte for byte. Throws a UserError (one line per problem, nothing written)
 * when the folders are not every shard of one build.
 */
export async function mergeShards(options: MergeOptions): Promise<BuildResult> {
  const started = performance.now();
  const progress = options.onProgress ?? (() => {});
  const out = resolve(options.out);
  const base = checkedBase(options);
  const shards = await readHeads(options.shards);
  checkShards(shards, base, options.siteUrl ?? null);
  await checkMergeOut(out, shards);
  const works = await Promise.all(shards.map(readWork));
  const suffix = randomBytes(4).toString('hex');
  const root = join(dirname(out), `.${basename(out)}-merge-${suffix}`); // e.g. ".dist-merge-1a2b3c4d"
  await removeStaleRoots(out);
  try {
    progress('gathering shards');
    await mergeRoot(root, shards);
    const ledger = readLedger(root);
    if (ledger.problems.length) throw new UserError([...ledger.problems]);
    const releases = ledger.releases.length ? ledger : undefined;
    const wrongBase = releases ? releaseBaseProblems(releases, base) : [];
    if (wrongBase.length) throw new UserError(wrongBase);
    const manifests = works
      .flatMap((w) => w.manifests)
      .sort((a, b) => compareManifests(a.manifest, b.manifest));
    const planned = await planBuild(
      {
        root,
        base,
        siteUrl: options.siteUrl,
        releases,
        manifests,
        geometry: new Map(works.flatMap((w) => [...w.geometry])),
        coverage: new Map(works.flatMap((w) => [...w.coverage])),
        measurer: MeasurementCache.forRoot(root), // unused: the shards measured
        tiles: shards[0]!.head.tiles,
        onProgress: progress,
      },
      works.map((w, i) => relocateWork(w.work, (path) => join(shards[i]!.dir, SHARD_DIST, path), true)),
    );
    const blank = { files: {}, sources: {}, links: {} };
    const write = await writeDist(root, out, planned.plan, blank, (done, total) =>
      progress('writing files', done, total),
    );
    return {
      ok: true,
      out: options.out.replace(/\/+$/, ''),
      manifests: manifests.length,
      datasets: manifests.reduce((n, l) => n + l.manifest.datasets.length, 0),
      ms: performance.now() - started,
      geojsonFilesRead: planned.filesRead,
      geojsonBytesRead: planned.bytesRead + write.dataBytesCopied,
      write,
      warnings: [...ledger.warnings, ...works.flatMap((w) => w.warnings)],
      conversionWarnings: planned.conversionWarnings,
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** Returns each folder's head; throws one problem per folder that is missing or holds none. */
async function readHeads(dirs: string[]): Promise<Shard[]> {
  const problems: Problem[] = [];
  const shards: Shard[] = [];
  for (const shown of dirs) {
    const dir = resolve(shown);
    const text = await readFile(join(dir, SHARD_HEAD), 'utf8').catch(() => undefined);
    if (text === undefined) {
      const why = existsSync(dir) ? `not a shard folder (no ${SHARD_HEAD})` : 'no such folder';
      problems.push(shardProblem(shown, `${why}; nothing was written`));
      continue;
    }
    const head = parseHead(text);
    if (typeof head === 'string') problems.push(shardProblem(shown, `${head}; nothing was written`));
    else shards.push({ dir, shown, head });
  }
  if (problems.length) throw new UserError(problems);
  if (shards.length === 0) throw new UserError('--merge: no shard folder given');
  return shards;
}

/**
 * Throws one problem per way `shards` are not every shard of one build by
 * this geoshelf with this base: another version or code, another --base or
 * --site-url, another tree or N (foreign), a shard twice or missing, a shard
 * that failed.
 */
function checkShards(shards: Shard[], base: string, siteUrl: string | null): void {
  const problems: Problem[] = [];
  const running = runningVersion();
  const first = shards[0]!.head;
  for (const { shown, head } of shards) {
    const name = `shard ${head.shard}/${head.of}`;
    if (head.geoshelf !== running.geoshelf || head.code !== running.code) {
      const made =
        head.geoshelf === running.geoshelf
          ? `geoshelf ${head.geoshelf} with other code (another commit, or other dependencies)`
          : `geoshelf ${head.geoshelf}`;
      problems.push(
        shardProblem(
          shown,
          `${name} was made by ${made}, not this geoshelf ${running.geoshelf}; build every shard with the geoshelf that merges them`,
        ),
      );
    } else if (head.base !== base || head.siteUrl !== siteUrl) {
      const given = `--base ${head.base}${head.siteUrl ? ` --site-url ${head.siteUrl}` : ''}`;
      const wanted = `--base ${base}${siteUrl ? ` --site-url ${siteUrl}` : ''}`;
      problems.push(
        shardProblem(
          shown,
          `${name} was built with ${given}, the merge has ${wanted}; give the merge the shards' flags`,
        ),
      );
    } else if (head.tree !== first.tree || head.of !== first.of || head.tiles !== first.tiles) {
      problems.push(
        shardProblem(
          shown,
          `${name} is foreign: it was built from another tree or as one of another number of shards than ${shards[0]!.shown} (shard ${first.shard}/${first.of})`,
        ),
      );
    }
  }
  if (problems.length) throw new UserError(problems);
  const byK = new Map<number, Shard>();
  for (const s of shards) {
    const other = byK.get(s.head.shard);
    if (other)
      problems.push(
        shardProblem(
          s.shown,
          `shard ${s.head.shard}/${s.head.of} is also in ${other.shown}; give each shard once`,
        ),
      );
    byK.set(s.head.shard, s);
  }
  for (let k = 1; k <= first.of; k++) {
    if (!byK.has(k))
      problems.push(
        shardProblem('', `shard ${k}/${first.of} is missing: no folder given holds it; nothing was written`),
      );
  }
  for (const { shown, head } of shards) {
    if (head.status === 'failed') {
      problems.push(
        shardProblem(
          shown,
          `shard ${head.shard}/${head.of} failed (${head.errors ?? 0} error(s), listed by its own run); nothing was written`,
        ),
      );
    }
  }
  if (problems.length) throw new UserError(problems);
}

/** Refuses an `out` that would destroy something: a shard folder, one holding one or inside one; else as `build` does. */
async function checkMergeOut(out: string, shards: Shard[]): Promise<void> {
  const within = (child: string, parent: string) => child === parent || child.startsWith(parent + sep);
  for (const s of shards) {
    if (within(s.dir, out) || within(out, s.dir))
      throw new UserError(`--out ${out}: would replace the shard folder ${s.shown}`);
  }
  await checkOut(undefined, out);
}

/** Returns a shard's work.v8, checked against its head; throws a problem naming the shard when it cannot be used. */
async function readWork({ dir, shown, head }: Shard): Promise<ShardWork> {
  const bytes = await readFile(join(dir, SHARD_WORK)).catch(() => undefined);
  const work = bytes ? decodeWork(bytes, head) : `${SHARD_WORK} is missing`;
  if (typeof work === 'string')
    throw new UserError(shardProblem(shown, `shard ${head.shard}/${head.of}: ${work}; nothing was written`));
  const names = new Set(work.manifests.map((m) => m.file));
  // An empty dist/ may not survive a copy (artifacts keep files, not folders): no folder is no files.
  const counted = existsSync(join(dir, SHARD_DIST)) ? (await listFiles(join(dir, SHARD_DIST))).length : 0;
  if (
    counted !== work.files ||
    names.size !== head.countries.length ||
    !head.countries.every((c) => names.has(c))
  ) {
    throw new UserError(
      shardProblem(
        shown,
        `shard ${head.shard}/${head.of}: its folder is incomplete (${SHARD_DIST}/ holds ${counted} files, its record ${work.files}); copy it again whole; nothing was written`,
      ),
    );
  }
  return work;
}

/**
 * Makes the merge's root `root`: data/ holding every shard's data files
 * (dist/data/ of each, hard links where the file system allows) and
 * data/releases/ shard 1's ledger, so the code that spans countries reads
 * what a single build reads.
 */
async function mergeRoot(root: string, shards: Shard[]): Promise<void> {
  await mkdir(join(root, 'data'), { recursive: true });
  for (const { dir, head } of shards) {
    const from = join(dir, SHARD_DIST, 'data');
    if (existsSync(from)) await linkTree(from, join(root, 'data'));
    if (head.shard === 1 && existsSync(join(dir, SHARD_LEDGER)))
      await linkTree(join(dir, SHARD_LEDGER), join(root, LEDGER_DIR));
  }
}

/** Deletes merge roots a killed merge left beside `out` (older than an hour, so never a running merge's). */
async function removeStaleRoots(out: string): Promise<void> {
  const prefix = `.${basename(out)}-merge-`;
  const names = await readdir(dirname(out)).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(prefix) || !/-merge-[0-9a-f]{8}$/.test(name)) continue;
    const info = await stat(join(dirname(out), name)).catch(() => undefined);
    if (info && Date.now() - info.mtimeMs > 3_600_000)
      await rm(join(dirname(out), name), { recursive: true, force: true });
  }
}

/** Puts every file under `from` at the same place under `to`: a hard link, else a copy. */
async function linkTree(from: string, to: string): Promise<void> {
  for (const file of await listFiles(from)) {
    const dest = join(to, file);
    await mkdir(dirname(dest), { recursive: true });
    await link(join(from, file), dest).catch(() => cp(join(from, file), dest));
  }
}
