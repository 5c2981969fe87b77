// A shard folder of a sharded build (docs/deployment.md, "A build spread
// over machines"): what `geoshelf build --shard K/N --out DIR` writes and
// `geoshelf build --merge DIR…` reads, and nothing else:
//   DIR/shard.json   the head (ShardHead): who made it, for which tree, base
//                    and shard, which countries, whether it failed
//   DIR/work.v8      its countries' checked manifests, validation findings and
//                    work (plan.ts's CountryWork), by v8.serialize: Maps,
//                    Buffers, -0 and undefined fields come back as they were
//   DIR/dist/        the files of dist/ that belong to its countries alone
//   DIR/ledger/      shard 1 only: the release ledger (data/releases/) as it is
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serialize, deserialize } from 'node:v8';
import type { CountryWork } from '../catalogue/country-work.ts';
import { codeIdentity } from '../core/cache.ts';
import { PACKAGE_DIR } from '../core/files.ts';
import { isObject } from '../core/json-value.ts';
import type { Problem } from '../core/problem.ts';
import type { CheckedManifestFile, Validation } from '../manifest/validate.ts';
import type { BuiltFile } from '../output/write-dist.ts';

export const SHARD_HEAD = 'shard.json';
export const SHARD_WORK = 'work.v8';
export const SHARD_DIST = 'dist';
export const SHARD_LEDGER = 'ledger';

/** What shard.json says, e.g. {shard: 2, of: 7, tree: "9c1f…", countries: ["data/earth/CHL/manifest.json"], …}. */
export interface ShardHead {
  format: 'geoshelf-shard';
  geoshelf: string; // the package version, e.g. "0.1.0"
  code: string; // the running code's identity (build/core/cache.ts): the same version built otherwise differs
  base: string; // normalised --base, e.g. "/boundaries/"
  siteUrl: string | null;
  tiles: boolean;
  shard: number; // K, from 1
  of: number; // N
  tree: string; // treeId() of the whole tree the shard read
  countries: string[]; // its manifest files, in the tree's order
  world: string[]; // what it makes across countries (assign.ts), e.g. ["world-map", "world/earth/ADM1"]
  status: 'ok' | 'failed';
  errors?: number; // a failed shard's count of errors (its own run listed them)
  work?: string; // sha256 of work.v8
}

/** What work.v8 holds: the shard's countries as the merge plans them. */
export interface ShardWork {
  manifests: CheckedManifestFile[];
  geometry: Validation['geometry'];
  coverage: Validation['coverage'];
  warnings: Problem[]; // validate's warnings, as a build reports them
  work: CountryWork; // every built file's `from` is its path inside DIR/dist/ (relocated)
  files: number; // files in DIR/dist/
  geojsonFilesRead: number;
  geojsonBytesRead: number;
}

/** Returns the running geoshelf's version and code identity, as a head records them. */
export function runningVersion(): { geoshelf: string; code: string } {
  const pkg = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { version: string };
  return { geoshelf: pkg.version, code: codeIdentity() };
}

/**
 * Returns the ID of a tree's input: a hash of every manifest (path and
 * bytes) and of the release ledger. Each data file is then held to its
 * manifest's sha256 by the shard that validates it, so two trees with one ID
 * build the same catalogue.
 */
export function treeId(manifests: { file: string; text: string }[], ledger: string | null): string {
  const hash = createHash('sha256').update(`geoshelf tree\n${ledger ?? 'no ledger'}\n`);
  for (const { file, text } of manifests) {
    hash.update(`${file}\n${createHash('sha256').update(text).digest('hex')}\n`);
  }
  return hash.digest('hex');
}

/**
 * Returns `work` with every built file's `from` given by `where` (from its
 * dist path), slices gone (the shard wrote them whole); `link`: dist/ may
 * hard-link them (the merge's, from the shard folders).
 */
export function relocateWork(work: CountryWork, where: (path: string) => string, link = false): CountryWork {
  const moved = (files: Map<string, BuiltFile>) =>
    new Map(
      [...files].map(([path, f]): [string, BuiltFile] => [
        path,
        { from: where(path), sha256: f.sha256, ...(link ? { link: true as const } : {}) },
      ]),
    );
  return {
    ...work,
    downloads: { ...work.downloads, files: moved(work.downloads.files) },
    unitFiles: moved(work.unitFiles),
    tiles: { ...work.tiles, built: moved(work.tiles.built) },
    ...(work.pages ? { pages: moved(work.pages) } : {}),
    ...(work.world
      ? { world: { ...work.world, files: { ...work.world.files, built: moved(work.world.files.built) } } }
      : {}),
  };
}

/** Returns the bytes of work.v8 and their sha256. */
export function encodeWork(work: ShardWork): { bytes: Buffer; sha256: string } {
  const bytes = serialize(work);
  return { bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** Returns work.v8's contents, or a reason it cannot be read (damaged, another head's). */
export function decodeWork(bytes: Buffer, head: ShardHead): ShardWork | string {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (sha256 !== head.work) return `${SHARD_WORK} is not the one ${SHARD_HEAD} names (damaged or replaced)`;
  try {
    return deserialize(bytes) as ShardWork;
  } catch (error) {
    return `${SHARD_WORK} cannot be read (${(error as Error).message})`;
  }
}

/** Returns shard.json's head, or a reason it is not one. */
export function parseHead(text: string): ShardHead | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return `${SHARD_HEAD} is not JSON`;
  }
  if (!isObject(value) || value.format !== 'geoshelf-shard') return `${SHARD_HEAD} is not a shard's head`;
  const v = value as Partial<Record<keyof ShardHead, unknown>>;
  const ok =
    typeof v.geoshelf === 'string' &&
    typeof v.code === 'string' &&
    typeof v.base === 'string' &&
    (v.siteUrl === null || typeof v.siteUrl === 'string') &&
    typeof v.tiles === 'boolean' &&
    Number.isInteger(v.shard) &&
    Number.isInteger(v.of) &&
    typeof v.tree === 'string' &&
    Array.isArray(v.countries) &&
    v.countries.every((c) => typeof c === 'string') &&
    Array.isArray(v.world) &&
    v.world.every((c) => typeof c === 'string') &&
    (v.status === 'ok' || v.status === 'failed') &&
    (v.status === 'failed' || typeof v.work === 'string');
  return ok
    ? (value as unknown as ShardHead)
    : `${SHARD_HEAD} is damaged (a field is missing or of the wrong type)`;
}
