// Writes a whole new dist/ beside the old one, then swaps the two with
// renames, so readers (and a failed build) never see a half-written site.
// Files equal to the previous build's are hard-linked from it rather than
// rewritten; data files are compared by their source's size and mtime, so a
// no-op rebuild reads no GeoJSON bytes at all.
import { randomBytes } from 'node:crypto';
import { copyFile, link, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { BuildCache } from './build-cache.ts';

export interface DistPlan {
  generated: Map<string, string | Buffer>; // path inside dist → contents, e.g. "earth/CHL/index.html"
  data: string[]; // files copied from the root to the same path, e.g. "data/earth/CHL/CHL_ADM0.geojson"
}

export interface WriteStats {
  files: number;
  bytes: number; // total size of dist/
  written: number; // files written or copied anew
  reused: number; // files hard-linked from the previous dist/
  dataBytesCopied: number; // bytes of data files copied (0 on a no-op rebuild)
}

/** Returns the stats of `path`, or undefined when it does not exist. */
async function statOrUndefined(path: string): Promise<Stats | undefined> {
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

/** Runs `task` on every item, at most `limit` at a time. */
async function pool<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * Writes `plan` as the new `out` folder and returns what it did; `cache.published`
 * is updated for the data files. The previous `out` stays in place until the
 * new tree is complete; if anything throws, it is left exactly as it was.
 */
export async function writeDist(
  root: string,
  out: string,
  plan: DistPlan,
  cache: BuildCache,
  onProgress: (done: number, total: number) => void = () => {},
): Promise<WriteStats> {
  const suffix = randomBytes(4).toString('hex');
  const temp = join(dirname(out), `.${basename(out)}-build-${suffix}`); // e.g. ".dist-build-1a2b3c4d"
  const previous = (await statOrUndefined(out))?.isDirectory() ? out : undefined;
  const stats: WriteStats = { files: 0, bytes: 0, written: 0, reused: 0, dataBytesCopied: 0 };
  const published: BuildCache['published'] = {};
  const total = plan.generated.size + plan.data.length;
  const made = new Set<string>();
  const ensureDir = async (path: string) => {
    const dir = dirname(path);
    if (!made.has(dir)) {
      await mkdir(dir, { recursive: true });
      made.add(dir);
    }
  };
  const done = () => {
    stats.files++;
    onProgress(stats.files, total);
  };

  try {
    await mkdir(temp, { recursive: true });
    await pool([...plan.generated], 16, async ([path, contents]) => {
      const bytes = typeof contents === 'string' ? Buffer.from(contents) : contents;
      const dest = join(temp, path);
      await ensureDir(dest);
      const old = previous && join(previous, path);
      const oldStats = old ? await statOrUndefined(old) : undefined;
      const same = oldStats?.size === bytes.length && (await readFile(old!)).equals(bytes);
      if (same && (await tryLink(old!, dest))) stats.reused++;
      else {
        await writeFile(dest, bytes);
        stats.written++;
      }
      stats.bytes += bytes.length;
      done();
    });
    await pool(plan.data, 8, async (path) => {
      const source = await stat(join(root, path));
      const dest = join(temp, path);
      await ensureDir(dest);
      const record = cache.published[path];
      const old = previous && join(previous, path);
      const oldStats = old ? await statOrUndefined(old) : undefined;
      const unchanged =
        record?.size === source.size &&
        record.mtimeMs === source.mtimeMs &&
        oldStats?.ino === record.ino &&
        oldStats.size === source.size;
      if (unchanged && (await tryLink(old!, dest))) stats.reused++;
      else {
        await copyFile(join(root, path), dest);
        stats.written++;
        stats.dataBytesCopied += source.size;
      }
      published[path] = { size: source.size, mtimeMs: source.mtimeMs, ino: (await stat(dest)).ino };
      stats.bytes += source.size;
      done();
    });
    await swap(temp, out, previous !== undefined, suffix);
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    throw error;
  }
  cache.published = published;
  return stats;
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
