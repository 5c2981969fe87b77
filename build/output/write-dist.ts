// Writes a whole new dist/ beside the old one, then swaps the two with
// renames, so readers (and a failed build) never see a half-written site.
//
// Every file of the plan has the sha256 its bytes must have: a generated
// file's is hashed here, a data file's is what validate measured, a built
// file's what its cache recorded, a release's what the ledger records. Files
// with the same content share one inode inside dist/ (a release's files and
// the root's are mostly the same bytes), and a file the previous dist/ holds
// with that content is kept by a hard link, when its stamp (inode, size,
// modification and change time) is the one recorded after the last build:
// a file edited in place in dist/ since then is written again from its
// source. (A merge's files are the one exception: hard links to its
// shards' folders, made for it alone; docs/deployment.md says so.) A folder
// of a release that holds exactly what a folder of an
// earlier release holds (the same names, the same contents, all the way
// down) is a relative symbolic link to it: a release that changed one
// country adds the folders of that country only, not a copy of the tree
// (each folder costs a block). Nothing in dist/ is ever a link to a file
// outside it (the data, the caches, the ledger): an edit made in dist/
// reaches nothing else.
// Data files are hashed as they are copied, and ledger objects as they are
// unpacked: bytes that are not the expected ones are a problem, and nothing
// is swapped in.
import { runAll } from '../core/slots.ts';
import { createHash, hash, randomBytes } from 'node:crypto';
import { constants, readlinkSync, statSync, type Stats } from 'node:fs';
import {
  copyFile,
  link,
  mkdir,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { publishedDataFile } from '../core/data-root.ts';
import { fileChanged } from '../core/errors.ts';
import { listFiles, SliceReader, stampOf, sameStamp, type FileSlice } from '../core/files.ts';
import type { BuildCache } from './build-cache.ts';

/** A file built outside the root (a cached conversion or tile archive), and the sha256 its cache recorded when known. */
export interface BuiltFile {
  from: string; // e.g. "/root/.cache/geoshelf/formats/…/CHL.zip"
  sha256?: string;
  slice?: FileSlice; // only this part of `from`, framed (a unit's own file: part of its level file)
  // A file made for this write alone (a shard folder's, build/shard/merge.ts), hard-linked where
  // the file system allows: a 20 GB catalogue's merge must not need its shards' bytes twice.
  link?: true;
}

/** A file stored in the release ledger: unpacked (and checked) by `unpack` into a new file. */
export interface StoredFile {
  sha256: string;
  bytes: number;
  unpack: (dest: string) => Promise<void>; // throws a UserError when the ledger's bytes are not `sha256`
}

export interface DistPlan {
  generated: Map<string, string | Buffer>; // path inside dist → contents, e.g. "earth/CHL/index.html"
  data: Map<string, string>; // files copied from the root to the same path → the sha256 validate measured
  built?: Map<string, BuiltFile>; // by dist path, e.g. "downloads/earth/CHL/CHL.zip"
  /** Data files published at a second path, e.g. "downloads/earth/CHL/CHL_ADM1.geojson" → its source and sha256. */
  copies?: Map<string, { source: string; sha256: string }>;
  stored?: Map<string, StoredFile>; // by dist path, e.g. "releases/2026.11/earth/CHL/index.html"
}

export interface WriteStats {
  files: number;
  bytes: number; // total size of dist/
  written: number; // files written or copied anew
  reused: number; // files kept from the previous dist/ (hard-linked, or left in place)
  dataBytesCopied: number; // bytes of data files copied (0 on a no-op rebuild)
  swapped: boolean; // false when nothing changed and the previous dist/ was kept
}

/** One file of the plan, and how it is made when the previous dist/ lacks it. */
interface Entry {
  path: string;
  sha256?: string; // undefined: a built file its cache did not name the content of (never shared)
  bytes: number;
  make: (dest: string) => Promise<void>;
  data?: true; // a copy of a data file (counted in dataBytesCopied)
  reuse?: boolean; // the previous dist/ holds it, unchanged
}

/** The folder whose releases may share folders: each release's under it, e.g. "releases/2026.11/earth/CHL". */
const SHARED_UNDER = 'releases/';

/**
 * Returns the folders of releases to make as links, each to the first
 * folder (in plan order: the ledger's) that holds the same tree: a folder's
 * identity is a hash of its entries' names and contents (a file's sha256, a
 * subfolder's identity), so two folders are one only when every file under
 * them is. A file whose content is unknown makes its folders unique.
 */
function sharedFolders(entries: { path: string; sha256?: string }[]): Map<string, string> {
  interface Folder {
    files: Map<string, string>; // name → sha256, or a unique token
    folders: Map<string, Folder>;
    id?: string;
  }
  const releases = new Map<string, Folder>(); // "releases/V" → its tree, in order of first appearance
  for (const { path, sha256 } of entries) {
    if (!path.startsWith(SHARED_UNDER)) continue;
    const [top, version, ...rest] = path.split('/');
    if (rest.length === 0) continue;
    const key = `${top}/${version}`;
    let folder = releases.get(key) ?? { files: new Map(), folders: new Map() };
    releases.set(key, folder);
    for (const name of rest.slice(0, -1)) {
      let next = folder.folders.get(name);
      if (!next) folder.folders.set(name, (next = { files: new Map(), folders: new Map() }));
      folder = next;
    }
    folder.files.set(rest.at(-1)!, sha256 ?? `unique:${path}`);
  }
  const identity = (f: Folder): string => {
    if (f.id === undefined) {
      const items = [
        ...[...f.files].map(([name, sha]) => `f ${name} ${sha}`),
        ...[...f.folders].map(([name, sub]) => `d ${name} ${identity(sub)}`),
      ].sort();
      f.id = createHash('sha256').update(items.join('\n')).digest('hex');
    }
    return f.id;
  };
  const first = new Map<string, string>(); // identity → the folder that holds it
  const links = new Map<string, string>();
  const visit = (path: string, f: Folder) => {
    for (const [name, sub] of [...f.folders].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const at = `${path}/${name}`;
      const same = first.get(identity(sub));
      if (same !== undefined) links.set(at, same);
      else {
        first.set(identity(sub), at);
        visit(at, sub);
      }
    }
  };
  for (const [path, tree] of releases) visit(path, tree);
  return links;
}

/** Returns whether `path` lies inside one of `folders` (a map of folders by path). */
function under(path: string, folders: Map<string, string>): boolean {
  for (let at = path.lastIndexOf('/'); at > 0; at = path.lastIndexOf('/', at - 1)) {
    if (folders.has(path.slice(0, at))) return true;
  }
  return false;
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

/**
 * Returns a copy of the data file `path`: its bytes are hashed as they are
 * read, and written only when they hash to `sha256`, what validate measured;
 * a file changed since is a problem naming it (run the command again).
 */
function copyData(root: string, path: string, sha256: string): (dest: string) => Promise<void> {
  return async (dest) => {
    const { real } = publishedDataFile(root, path); // never a file outside data/
    const bytes = await readFile(real);
    const now = hash('sha256', bytes, 'hex');
    if (now !== sha256) throw fileChanged(path, now, sha256);
    await writeFile(dest, bytes);
  };
}

/**
 * Returns a copy of part of the file `from` (a data file: see BuiltFile),
 * written only when its bytes hash to `sha256`, what the build measured.
 */
function copySlice(
  root: string,
  from: string,
  slice: FileSlice,
  sha256: string | undefined,
  reader: SliceReader,
): (dest: string) => Promise<void> {
  return async (dest) => {
    const bytes = await reader.read(from, slice);
    const now = hash('sha256', bytes, 'hex');
    if (sha256 !== undefined && now !== sha256) throw fileChanged(relative(root, from), now, sha256);
    await writeFile(dest, bytes);
  };
}

/** Returns every file of the plan as an entry, with its content's sha256 where known. */
function entriesOf(root: string, plan: DistPlan): Entry[] {
  const entries: Entry[] = [];
  for (const [path, contents] of plan.generated) {
    const bytes = typeof contents === 'string' ? Buffer.from(contents) : contents;
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    entries.push({ path, sha256, bytes: bytes.length, make: (dest) => writeFile(dest, bytes) });
  }
  for (const [path, sha256] of plan.data) {
    entries.push({ path, sha256, bytes: -1, make: copyData(root, path, sha256), data: true });
  }
  for (const [path, { source, sha256 }] of plan.copies ?? []) {
    entries.push({ path, sha256, bytes: -1, make: copyData(root, source, sha256), data: true });
  }
  const reader = new SliceReader();
  for (const [path, { from, sha256, slice, link: linked }] of plan.built ?? []) {
    // A copy (a clone where the file system can): an edit in dist/ must never reach the cache.
    const copy = (dest: string) => copyFile(from, dest, constants.COPYFILE_FICLONE);
    const make = slice
      ? copySlice(root, from, slice, sha256, reader)
      : linked
        ? async (dest: string) => void ((await tryLink(from, dest)) || (await copy(dest)))
        : copy;
    entries.push({ path, sha256, bytes: -1, make });
  }
  for (const [path, { sha256, bytes, unpack }] of plan.stored ?? []) {
    entries.push({ path, sha256, bytes, make: unpack });
  }
  return entries;
}

/**
 * Writes `plan` as the new `out` folder and returns what it did; updates
 * `cache.files` with the sha256 and stamp of every file as it stands once
 * the build is done. The previous `out` stays in place until the new tree is
 * complete; if anything throws, it is left exactly as it was.
 */
export async function writeDist(
  root: string,
  out: string,
  plan: DistPlan,
  cache: BuildCache,
  onProgress: (done: number, total: number) => void = () => {},
): Promise<WriteStats> {
  const previous = statSync(out, { throwIfNoEntry: false })?.isDirectory() ? out : undefined;
  const all = entriesOf(root, plan);
  const links = sharedFolders(all);
  const entries = all.filter((e) => !under(e.path, links));
  markReused(entries, previous, cache);
  const stats: WriteStats = { files: 0, bytes: 0, written: 0, reused: 0, dataBytesCopied: 0, swapped: false };
  if (previous && (await unchangedDist(previous, entries, links, cache))) {
    // Nothing changed: keep the previous dist/ as it is (no rename, no link).
    for (const e of entries) stats.bytes += e.bytes;
    return { ...stats, files: entries.length, reused: entries.length };
  }

  await removeStale(out);
  const suffix = randomBytes(4).toString('hex');
  const temp = join(dirname(out), `.${basename(out)}-build-${suffix}`); // e.g. ".dist-build-1a2b3c4d"
  try {
    await writeTree(temp, previous, entries, links, stats, onProgress);
    await swap(temp, out, previous !== undefined, suffix);
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    throw error;
  }
  // Each file's stamp as it stands now that the old tree is gone: linking and
  // unlinking move a shared inode's change time, so only now is it final.
  const files: BuildCache['files'] = {};
  for (const e of entries) {
    const now = statSync(join(out, e.path));
    stats.bytes += now.size;
    if (e.sha256 !== undefined) files[e.path] = { sha256: e.sha256, ...stampOf(now) };
  }
  cache.files = files;
  cache.links = Object.fromEntries(links);
  return { ...stats, swapped: true };
}

/**
 * Marks each entry whose file in the previous build has the same content
 * (by the sha256 and stamp recorded last time) to be reused, and gives it
 * that file's size.
 */
function markReused(entries: Entry[], previous: string | undefined, cache: BuildCache): void {
  // Synchronous stats: thousands of them are several times faster than through the thread pool.
  for (const e of entries) {
    const record = cache.files[e.path];
    const old = previous && record && statSync(join(previous, e.path), { throwIfNoEntry: false });
    e.reuse = !!old && e.sha256 !== undefined && record.sha256 === e.sha256 && sameStamp(old, record);
    if (old && e.reuse) e.bytes = old.size;
  }
}

/** Returns whether the previous build is this one: the same links, every entry reused, and no other file. */
async function unchangedDist(
  previous: string,
  entries: Entry[],
  links: Map<string, string>,
  cache: BuildCache,
): Promise<boolean> {
  const sameLinks =
    Object.keys(cache.links).length === links.size &&
    [...links].every(
      ([path, to]) =>
        cache.links[path] === to && linkTarget(join(previous, path)) === relative(dirname(path), to),
    );
  return sameLinks && entries.every((e) => e.reuse) && (await sameFileCount(previous, entries.length));
}

/**
 * Writes every entry and shared-folder link into the new tree `temp`: a
 * reused file linked from the previous build, the first file of each
 * content made, and the others linked to it once it is.
 */
async function writeTree(
  temp: string,
  previous: string | undefined,
  entries: Entry[],
  links: Map<string, string>,
  stats: WriteStats,
  onProgress: (done: number, total: number) => void,
): Promise<void> {
  const made = new Map<string, Promise<unknown>>(); // folder → its mkdir
  const mkdirFor = async (dest: string) => {
    const dir = dirname(dest);
    if (!made.has(dir)) made.set(dir, mkdir(dir, { recursive: true }));
    await made.get(dir);
  };
  const first = new Map<string, Entry>();
  const [primaries, copies] = [[] as Entry[], [] as Entry[]];
  for (const e of entries) {
    if (e.sha256 !== undefined && first.has(e.sha256)) copies.push(e);
    else {
      if (e.sha256 !== undefined) first.set(e.sha256, e);
      primaries.push(e);
    }
  }
  await mkdir(temp, { recursive: true });
  await runAll(primaries, 16, async (e) => {
    const dest = join(temp, e.path);
    await mkdirFor(dest);
    if (e.reuse && (await tryLink(join(previous!, e.path), dest))) stats.reused++;
    else {
      await e.make(dest);
      stats.written++;
      if (e.data) stats.dataBytesCopied += statSync(dest).size;
    }
    onProgress(++stats.files, entries.length);
  });
  await runAll(copies, 16, async (e) => {
    const dest = join(temp, e.path);
    await mkdirFor(dest);
    if (e.reuse && (await tryLink(join(previous!, e.path), dest))) stats.reused++;
    else {
      // A new file, whose content another file of this build holds: a link to it, not a copy.
      if (!(await tryLink(join(temp, first.get(e.sha256!)!.path), dest))) await e.make(dest);
      stats.written++;
    }
    onProgress(++stats.files, entries.length);
  });
  for (const [path, to] of links) {
    const dest = join(temp, path);
    await mkdirFor(dest);
    await symlink(relative(dirname(path), to), dest, 'dir');
  }
}

/** Returns where the symbolic link `path` points, or undefined when it is none. */
export function linkTarget(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

/** Returns whether the tree `dir` holds exactly `count` files. */
async function sameFileCount(dir: string, count: number): Promise<boolean> {
  return (await listFiles(dir)).length === count;
}

/** Deletes trees an interrupted build left beside `out` (older than an hour, so never a running build's). */
async function removeStale(out: string): Promise<void> {
  const prefix = `.${basename(out)}-`;
  const names = await readdir(dirname(out)).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(prefix) || !/-(build|old)-[0-9a-f]{8}$/.test(name)) continue;
    const path = join(dirname(out), name);
    const info: Stats | undefined = await stat(path).catch(() => undefined);
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
