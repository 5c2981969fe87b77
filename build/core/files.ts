// Where the tool's own files and a root's cache live, and how folders are
// listed: one place for each path the stages share.
import { existsSync } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository folder holding package.json, src/client/, public/ and lib/
 * (the tool's own files, not the data): the nearest folder above this module
 * with a package.json, both for this source file and for the compiled chunk
 * in lib/ that holds it.
 */
export const PACKAGE_DIR = packageDirAbove(dirname(fileURLToPath(import.meta.url)));

function packageDirAbove(dir: string): string {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, 'package.json'))) return at;
    if (dirname(at) === at) throw new Error(`no package.json above ${dir}`);
  }
}

/**
 * A file's identity to every cache: while its inode, size, modification
 * time and change time are those recorded, so are its bytes. The change time
 * is what git's racy-clean check guards against: an edit of the same length
 * whose modification time is put back (`touch -r`, `cp -p`, `rsync -t`)
 * still moves the change time, which no program can set; a file replaced by
 * another (a rename over it) has another inode.
 */
export interface FileStamp {
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

/** Returns the stamp of `stats` (e.g. fs.Stats) alone, to record. */
export function stampOf(stats: FileStamp): FileStamp {
  return { ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs };
}

/** Whether two stamps say the same file, unchanged: the same inode, size, modification and change time. */
export function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

/** Returns the cache folder of a run under `root`: `<root>/.cache/geoshelf`. */
export function cacheDir(root: string): string {
  return join(root, '.cache', 'geoshelf');
}

/** Returns every file under `dir` (recursive), as paths relative to it with "/" separators. */
export async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .sort();
}

/** Part of a file published as a file of its own: bytes [start, end), between `head` and `tail`. */
export interface FileSlice {
  start: number;
  end: number;
  head: Buffer; // e.g. a unit's file: its feature's text framed as a FeatureCollection (build/site/unit-files.ts)
  tail: Buffer;
}

/**
 * Returns `head`, bytes [start, end) of the file `path`, then `tail`. A file
 * now shorter than `end` gives fewer bytes: the caller compares their
 * sha256 with the one it expects.
 */
export async function readSlice(path: string, { start, end, head, tail }: FileSlice): Promise<Buffer> {
  const out = Buffer.allocUnsafe(head.length + (end - start) + tail.length);
  head.copy(out, 0);
  let at = head.length;
  const file = await open(path, 'r');
  try {
    for (let got = -1; got !== 0 && at < head.length + (end - start); at += got) {
      ({ bytesRead: got } = await file.read(
        out,
        at,
        head.length + (end - start) - at,
        start + at - head.length,
      ));
    }
  } finally {
    await file.close();
  }
  tail.copy(out, at);
  return out.subarray(0, at + tail.length);
}

/** A source at most this long is read whole once for all its slices (SliceReader). */
const WHOLE_BYTES = 16 << 20;
/** Sources SliceReader keeps at once: the slices of one source come together (in path order). */
const WHOLE_FILES = 4;

/**
 * Reads slices as readSlice does, but a small source (e.g. a level file
 * whose units each get their own file) is read whole once and its slices
 * cut from those bytes: 5,000 units' files of the sample cost 5,000 opens
 * and reads otherwise. The last few sources are kept; a large one is read
 * slice by slice.
 */
export class SliceReader {
  private whole = new Map<string, Promise<Buffer | undefined>>(); // path → its bytes; undefined: too large

  /** Returns `head`, bytes [start, end) of `path`, then `tail` (fewer when the file is now shorter). */
  async read(path: string, slice: FileSlice): Promise<Buffer> {
    let bytes = this.whole.get(path);
    if (!bytes) {
      bytes = wholeFile(path);
      this.whole.set(path, bytes);
      if (this.whole.size > WHOLE_FILES) this.whole.delete(this.whole.keys().next().value!);
    }
    const all = await bytes;
    if (!all) return await readSlice(path, slice);
    const { start, end, head, tail } = slice;
    return Buffer.concat([head, all.subarray(Math.min(start, all.length), Math.min(end, all.length)), tail]);
  }
}

/** Returns the bytes of `path`, or undefined when it is over WHOLE_BYTES. */
async function wholeFile(path: string): Promise<Buffer | undefined> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    return size > WHOLE_BYTES ? undefined : await file.readFile();
  } finally {
    await file.close();
  }
}
