// Writes a whole new dist/ beside the old one, then swaps the two with
// renames, so readers (and a failed build) never see a half-written site.
// Files equal to the previous build's are hard-linked from it rather than
// rewritten, and when nothing at all changed the previous dist/ is kept as
// it is. Equality is decided without reading GeoJSON: data files by their
// source's size and mtime, generated files by a hash recorded at write time
// (or, when the record does not match, by comparing bytes).
import { runAll } from '../core/slots.ts';
import { createHash, randomBytes } from 'node:crypto';
import { copyFile, link, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { publishedDataFile } from '../core/data-root.ts';
import type { BuildCache } from './build-cache.ts';
import { listFiles } from '../core/files.ts';

export interface DistPlan {
  generated: Map<string, string | Buffer>; // path inside dist → contents, e.g. "earth/CHL/index.html"
  data: string[]; // files copied from the root to the same path, e.g. "data/earth/CHL/CHL_ADM0.geojson"
  /** Files built outside the root, by dist path, e.g. "downloads/earth/CHL/CHL.zip" → "/root/.cache/geoshelf/formats/…/CHL.zip". */
  built?: Map<string, string>;
}

export interface WriteStats {
  files: number;
  bytes: number; // total size of dist/
  written: number; // files written or copied anew
  reused: number; // files kept from the previous dist/ (hard-linked, or left in place)
  dataBytesCopied: number; // bytes of data files copied (0 on a no-op rebuild)
  swapped: boolean; // false when nothing changed and the previous dist/ was kept
}

/** Where a build's files go instead of `out`: `release` stores them in its ledger (build/release/site-store.ts). */
export type SiteWriter = (plan: DistPlan) => Promise<WriteStats>;

/** One file of the plan, with whether the previous dist/ already holds it. */
type Entry =
  | { kind: 'generated'; path: string; bytes: Buffer; hash: string; same: boolean; old?: Stats }
  | { kind: 'data'; path: string; real: string; built: boolean; source: Stats; same: boolean; old?: Stats };

function statOrUndefined(path: string): Promise<Stats | undefined> {
  return stat(path).catch(() => undefined);
}

/** Hard-links `from` to `to`; false when the file system refuses (the caller then writes a copy). */
async function tryLink(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch {
    return false;
  }
}

const sameStamp = (a: Stats, r: { ino: number; size: number; mtimeMs: number }) =>
  a.ino === r.ino && a.size === r.size && a.mtimeMs === r.mtimeMs;

/** Returns each file of the plan with whether `previous` already holds it, byte for byte. */
async function compare(root: string, previous: string | undefined, plan: DistPlan, cache: BuildCache) {
  const generated = runAll([...plan.generated], 16, async ([path, contents]): Promise<Entry> => {
    const bytes = typeof contents === 'string' ? Buffer.from(contents) : contents;
    const hash = createHash('sha256').update(bytes).digest('hex');
    const old = previous && (await statOrUndefined(join(previous, path)));
    const record = cache.outputs[path];
    let same = false;
    if (old && old.size === bytes.length) {
      same =
        record && sameStamp(old, record)
          ? record.hash === hash
          : (await readFile(join(previous!, path))).equals(bytes);
    }
    return { kind: 'generated', path, bytes, hash, same, old: old || undefined };
  });
  // Data files: validation refused anything outside data/; this makes sure nothing else ever is copied.
  // Built files (e.g. cached conversions) come from the build's own cache folder.
  const sources: [string, string | undefined][] = [
    ...plan.data.map((path): [string, string | undefined] => [path, undefined]),
    ...[...(plan.built ?? [])].map(([path, from]): [string, string | undefined] => [path, from]),
  ];
  const data = runAll(sources, 16, async ([path, from]): Promise<Entry> => {
    let real = from;
    let source: Stats | undefined; // a data file's, from resolving it
    if (real === undefined) {
      const found = publishedDataFile(root, path);
      real = found.real;
      source = found.stats;
    }
    const built = from !== undefined;
    source ??= await stat(real);
    const old = previous && (await statOrUndefined(join(previous, path)));
    const record = cache.published[path];
    const same =
      !!old &&
      !!record &&
      record.size === source.size &&
      record.mtimeMs === source.mtimeMs &&
      old.ino === record.ino &&
      old.size === source.size &&
      record.from === from;
    return { kind: 'data', path, real, built, source, same, old: old || undefined };
  });
  return [...(await generated), ...(await data)];
}

/**
 * Writes `plan` as the new `out` folder and returns what it did; updates
 * `cache.outputs` and `cache.published`. The previous `out` stays in place
 * until the new tree is complete; if anything throws, it is left exactly as it was.
 */
export async function writeDist(
  root: string,
  out: string,
  plan: DistPlan,
  cache: BuildCache,
  onProgress: (done: number, total: number) => void = () => {},
): Promise<WriteStats> {
  const previous = (await statOrUndefined(out))?.isDirectory() ? out : undefined;
  const entries = await compare(root, previous, plan, cache);
  const stats: WriteStats = { files: 0, bytes: 0, written: 0, reused: 0, dataBytesCopied: 0, swapped: false };
  const size = (e: Entry) => (e.kind === 'generated' ? e.bytes.length : e.source.size);

  if (previous && entries.every((e) => e.same)) {
    const before = await listFiles(previous);
    if (
      before.length === entries.length &&
      before.every((f) => plan.generated.has(f) || cache.published[f])
    ) {
      // Nothing changed: keep the previous dist/ as it is (no rename, no link).
      for (const e of entries) stats.bytes += size(e);
      return { ...stats, files: entries.length, reused: entries.length };
    }
  }

  await removeStale(out);
  const suffix = randomBytes(4).toString('hex');
  const temp = join(dirname(out), `.${basename(out)}-build-${suffix}`); // e.g. ".dist-build-1a2b3c4d"
  const outputs: BuildCache['outputs'] = {};
  const published: BuildCache['published'] = {};
  const made = new Map<string, Promise<unknown>>(); // folder → its mkdir
  try {
    await mkdir(temp, { recursive: true });
    await runAll(entries, 16, async (e) => {
      const dest = join(temp, e.path);
      const dir = dirname(dest);
      if (!made.has(dir)) made.set(dir, mkdir(dir, { recursive: true }));
      await made.get(dir);
      // A hard link shares its inode, size and mtime with the file linked: no need to stat it again.
      let linked: Stats | undefined;
      if (e.same && (await tryLink(join(previous!, e.path), dest))) {
        linked = e.old;
        stats.reused++;
      } else if (e.kind === 'generated') {
        await writeFile(dest, e.bytes);
        stats.written++;
      } else if (e.built && (await tryLink(e.real, dest))) {
        linked = e.source;
        stats.written++; // a built file is never changed in place (always replaced by a rename): link it
      } else {
        await copyFile(e.real, dest);
        stats.written++;
        stats.dataBytesCopied += e.source.size;
      }
      const written = linked ?? (await stat(dest));
      if (e.kind === 'generated') {
        outputs[e.path] = { hash: e.hash, ino: written.ino, size: written.size, mtimeMs: written.mtimeMs };
      } else {
        published[e.path] = { size: e.source.size, mtimeMs: e.source.mtimeMs, ino: written.ino };
        if (e.built) published[e.path].from = e.real;
      }
      stats.bytes += size(e);
      onProgress(++stats.files, entries.length);
    });
    await swap(temp, out, previous !== undefined, suffix);
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    throw error;
  }
  cache.outputs = outputs;
  cache.published = published;
  return { ...stats, swapped: true };
}

/** Deletes trees an interrupted build left beside `out` (older than an hour, so never a running build's). */
async function removeStale(out: string): Promise<void> {
  const prefix = `.${basename(out)}-`;
  const names = await readdir(dirname(out)).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(prefix) || !/-(build|old)-[0-9a-f]{8}$/.test(name)) continue;
    const path = join(dirname(out), name);
    const info = await statOrUndefined(path);
    if (info && Date.now() - info.mtimeMs > 3_600_000) await rm(path, { recursive: true, force: true });
  }
}

/**
 * Puts the finished `temp` tree at `out`: renames the old `out` aside, renames
 * `temp` into place, then deletes the old tree. Between the two renames (a few
 * microseconds) `out` does not exist; Node has no atomic exchange of folders.
 */
async function swap(temp: string, out: string, hadPrevious: boolean, suffix: string): Promise<void> {
  if (!hadPrevious) {
    await rename(temp, out);
    return;
  }
  const aside = join(dirname(out), `.${basename(out)}-old-${suffix}`);
  await rename(out, aside);
  try {
    await rename(temp, out);
  } catch (error) {
    await rename(aside, out); // put the previous site back
    throw error;
  }
  await rm(aside, { recursive: true, force: true });
}
