// Stores a release's catalogue plan (build/catalogue/plan.ts) into the
// staged release folder: each file in its stored form (site-files.ts),
// named by its sha256, written to objects/ only when no earlier release
// stored those bytes: a country's small files together in packs, large
// ones alone, compressed where that pays (object-store.ts). What
// storing found is kept for the next release (the stamps file, a cache kept
// as build/core/cache.ts keeps every cache, with the code's identity): a
// data or built file whose real path and stamp (inode, size, modification
// and change time) are those recorded last time is known by its recorded
// sha256 without reading it, so a release that changed one country reads
// only that country's files. Data files are resolved through the data root
// as `build` resolves them, copied (never linked: editing one in place
// cannot change a release), and checked against the sha256 validate
// measured: a file that changed meanwhile is a problem, and nothing is
// recorded.
import { hash } from 'node:crypto';
import { statSync } from 'node:fs';
import { relative } from 'node:path';
import { readFile, stat } from 'node:fs/promises';
import { readCacheFile, saveCacheFile } from '../core/cache.ts';
import { publishedDataFile } from '../core/data-root.ts';
import { readSlice, sameStamp, stampOf, type FileSlice, type FileStamp } from '../core/files.ts';
import { isObject } from '../core/json-value.ts';
import { problem, type Problem } from '../core/problem.ts';
import type { DistPlan } from '../output/write-dist.ts';
import { BASE_MARK, type SiteFile } from './ledger.ts';
import { ByteBudget, inOrder, Slots } from '../core/slots.ts';
import { sha256OfFile } from '../measure/sha256-file.ts';
import {
  compressedAlready,
  PACK_MAX,
  PACKED_MAX,
  writeObject,
  writeObjectFromFile,
  writePack,
} from './object-store.ts';
import { storedSiteFile } from './site-files.ts';

/** A data or built file's stamp: its content is `sha256` while the stamp holds. */
interface Stamp extends FileStamp {
  sha256: string;
  bytes: number;
}

/** A generated file's: its stored form is unchanged while the contents the build made hash to `made`. */
interface Made {
  made: string; // sha256 of the contents as the build made them (text as UTF-8)
  sha256: string; // of its stored form
  bytes: number;
  template?: true;
}

/** The stamps file's data. */
interface Stamps {
  sources: Record<string, Stamp | undefined>; // data and built files, by real path
  generated: Record<string, Made | undefined>; // by path in the release, e.g. "earth/CHL/index.html"
}

/** What storing a plan gives: every file of the release in its stored form, sorted by path, or the problems found. */
export interface Stored {
  files: SiteFile[];
  problems: Problem[];
  written: number; // objects written (contents no earlier release stored)
  bytesWritten: number; // their bytes, before compression
}

/** What storing the generated files and the sources shares. */
interface Storing {
  root: string;
  objects: string; // the staged release's objects/
  stored: Set<string>; // sha256s the ledger and this release hold, updated as contents are stored
  before: Stamps; // what the last call found
  after: Stamps; // what this one finds
  packer: Packer;
  out: Stored;
}

/** A data file (no `from`, `expected` its measured sha256) or a built one (`from` where it is, or a `slice` of it), by path in the release. */
type Source = [path: string, from: string | undefined, expected: string | undefined, slice?: FileSlice];

/**
 * Stores every file of `plan` into `objects` (a staged release's objects/),
 * writing each content that `stored` (the sha256s the ledger and this
 * release already hold, updated) lacks. `stampsFile` records what this
 * call found for the next one. Problems: a generated file holding a mark
 * (text from the data that publishing would replace), a data or built file
 * whose bytes are not those expected.
 */
export async function storePlan(
  root: string,
  plan: DistPlan,
  objects: string,
  stored: Set<string>,
  stampsFile: string,
): Promise<Stored> {
  // A stamp that is not what storePlan writes matches no file: its inode, size, times or hash is no file's.
  const file = await readCacheFile<Stamps>(stampsFile, { sources: {}, generated: {} }, isStamps);
  const before = file.data;
  const after: Stamps = { sources: Object.create(null), generated: Object.create(null) };
  const out: Stored = { files: [], problems: [], written: 0, bytesWritten: 0 };
  const storing: Storing = { root, objects, stored, before, after, packer: new Packer(objects, out), out };
  const marked = await storeGenerated(storing, plan.generated);
  const sources: Source[] = [
    ...[...plan.data].map(([path, sha]): Source => [path, undefined, sha]),
    ...[...(plan.built ?? [])].map(([path, b]): Source => [path, b.from, b.sha256, b.slice]),
  ];
  await storeSources(storing, sources);
  // A data file published at a second path is the same stored bytes: recorded, not read again.
  const data = new Map(out.files.map((f) => [f.path, f]));
  for (const [path, { source, sha256 }] of plan.copies ?? []) {
    const stored = data.get(source);
    if (stored?.sha256 === sha256) out.files.push(siteFile(path, sha256, stored.bytes));
  }
  await storing.packer.finish();
  if (marked.length) out.problems.unshift(markProblem(marked));
  out.files.sort((a, b) => (a.path < b.path ? -1 : 1));
  if (out.problems.length === 0) await saveCacheFile({ ...file, data: after });
  return out;
}

/** Returns a release's record of a file. */
function siteFile(path: string, sha256: string, bytes: number, template?: boolean): SiteFile {
  return template ? { path, sha256, bytes, template: true } : { path, sha256, bytes };
}

/**
 * Stores the generated files (pages, API documents) in their stored form,
 * reusing the stored form of one the build made the same as last time.
 * Returns the files holding a mark they may not, left unstored.
 */
async function storeGenerated(
  { before, after, stored, packer, out }: Storing,
  generated: DistPlan['generated'],
): Promise<[path: string, mark: string][]> {
  const marked: [path: string, mark: string][] = [];
  for (const [path, contents] of generated) {
    const made = hash('sha256', contents, 'hex');
    let kept = before.generated[path];
    if (!kept || kept.made !== made || !stored.has(kept.sha256)) {
      const form = storedSiteFile(path, contents);
      if ('mark' in form) {
        marked.push([path, form.mark]);
        continue;
      }
      const bytes = typeof form.contents === 'string' ? Buffer.from(form.contents) : form.contents;
      const sha256 = hash('sha256', bytes, 'hex');
      kept = { made, sha256, bytes: bytes.length, ...(form.template ? { template: true as const } : {}) };
      if (!stored.has(sha256)) {
        stored.add(sha256); // each new content once: two paths may hold the same bytes
        await packer.add(path, sha256, bytes);
      }
    }
    after.generated[path] = kept;
    out.files.push(siteFile(path, kept.sha256, kept.bytes, kept.template));
  }
  return marked;
}

/**
 * Stores the data and built files: one whose stamp holds is known by its
 * recorded sha256, unread; the others are read (and checked against the
 * sha256 expected) and stored when their bytes are new.
 */
async function storeSources(storing: Storing, sources: Source[]): Promise<void> {
  const { root, objects, stored, before, after, packer, out } = storing;
  // Read four at a time, stored in the sources' order: the same release packs the same way however
  // the reads interleave (two paths with the same bytes: the first in order stores them).
  type Read = { real: string; stats: FileStamp; kept?: Stamp; read?: Awaited<ReturnType<typeof readSource>> };
  const readOne = async ([path, from, expected, slice]: Source): Promise<Read> => {
    const { real, stats } =
      from === undefined ? publishedDataFile(root, path) : { real: from, stats: statSync(from) };
    const was = before.sources[stampKey(real, slice)];
    const kept =
      was &&
      sameStamp(was, stats) &&
      stored.has(was.sha256) &&
      (expected === undefined || was.sha256 === expected)
        ? was
        : undefined;
    if (kept) return { real, stats, kept };
    return {
      real,
      stats,
      read: await readSource(real, expected !== undefined && stored.has(expected), objects, slice),
    };
  };
  await inOrder(sources, 4, readOne, async ({ real, stats, kept, read }, [path, from, expected, slice]) => {
    if (read) {
      if (expected !== undefined && read.sha256 !== expected) {
        changedProblem(storing, from === undefined ? path : real, read.sha256, expected, slice);
        return;
      }
      if (!stored.has(read.sha256)) {
        stored.add(read.sha256);
        if (read.contents) await packer.add(path, read.sha256, read.contents);
        else {
          out.written++; // a large file, stored alone as it was read
          out.bytesWritten += read.bytes;
        }
      }
      kept = { ...stampOf(stats), sha256: read.sha256, bytes: read.bytes };
    }
    after.sources[stampKey(real, slice)] = kept!;
    out.files.push(siteFile(path, kept!.sha256, kept!.bytes));
  });
}

/**
 * Adds the problem of a file whose bytes are not those the build measured:
 * for a slice of a data file (a unit's own file), one problem naming the
 * data file, however many of its units changed.
 */
function changedProblem(
  { root, out }: Storing,
  shown: string,
  now: string,
  expected: string,
  slice: FileSlice | undefined,
): void {
  const file = slice ? relative(root, shown) : shown;
  if (slice && out.problems.some((p) => p.file === file && p.rule === 'file-changed')) return;
  const what = slice
    ? `the text of a unit at bytes ${slice.start}–${slice.end} is not what build measured`
    : `its sha256 is now ${now.slice(0, 12)}…, expected ${expected.slice(0, 12)}…`;
  const message = `changed while release read it (${what}); run release again`;
  out.problems.push(problem(file, message, { rule: 'file-changed' }));
}

/**
 * Returns the one problem of the generated files that hold a mark they may
 * not: text from the data, decoded (a name or code written with JSON
 * escapes reaches every page and search file that shows it), which
 * publishing would replace.
 */
function markProblem(marked: [path: string, mark: string][]): Problem {
  const [path, mark] = marked[0]!;
  const what = mark === BASE_MARK ? 'its own URL' : 'its version';
  const more = marked.length > 1 ? ` (and ${marked.length - 1} more of the release's files)` : '';
  const message = `holds "${mark}"${more}, which a release reserves for ${what}; the text comes from the data this file shows (a name, a code or a path, perhaps written with JSON escapes such as \\u0066): change it in the data`;
  return problem(`releases/VERSION/${path}`, message, { rule: 'release-base-mark' });
}

/**
 * Reads a data or built file: its sha256 and size, and its contents when it
 * is small enough for a pack. A large one is hashed only when the ledger
 * already stores it (`known`), else stored alone in `objects` as it is read
 * (streamed: bounded memory for a file of any size).
 */
async function readSource(
  real: string,
  known: boolean,
  objects: string,
  slice?: FileSlice,
): Promise<{ sha256: string; bytes: number; contents?: Buffer }> {
  if (slice) return await readSourceSlice(real, slice, objects);
  if ((await stat(real)).size <= PACKED_MAX) {
    const contents = await readFile(real);
    return { sha256: hash('sha256', contents, 'hex'), bytes: contents.length, contents };
  }
  if (known) return sha256OfFile(real);
  return writeObjectFromFile(objects, real);
}

/**
 * Reads part of a file (a unit's own file: build/site/unit-files.ts), held in
 * memory as the build holds it; one larger than a pack's member is stored
 * alone at once.
 */
async function readSourceSlice(
  real: string,
  slice: FileSlice,
  objects: string,
): Promise<{ sha256: string; bytes: number; contents?: Buffer }> {
  const contents = await readSlice(real, slice);
  const sha256 = hash('sha256', contents, 'hex');
  if (contents.length <= PACKED_MAX) return { sha256, bytes: contents.length, contents };
  await writeObject(objects, sha256, contents);
  return { sha256, bytes: contents.length };
}

/** Returns what the stamps file records a file or a slice of it by, e.g. "/root/data/…/CHL_ADM1.geojson#1024-2048". */
function stampKey(real: string, slice: FileSlice | undefined): string {
  return slice ? `${real}#${slice.start}-${slice.end}` : real;
}

/** Returns the pack group of a path in a release: its country (e.g. "earth/CHL"), or the site's own files. */
function groupOf(path: string): string {
  const found = /(?:^|\/)([a-z]+)\/([A-Z]{3})(?=[/._])/.exec(path);
  return found ? `${found[1]}/${found[2]}` : '';
}

/** Contents held for packs at most (a country's pack is written at PACK_MAX). */
const HELD_MAX = 256 << 20;

/**
 * Collects a release's new small contents into packs, one group per
 * country, each written once it reaches PACK_MAX or when all held contents
 * reach HELD_MAX (the largest group first), and waits while the packs
 * handed off and not yet written pass HELD_MAX too: memory stays bounded
 * whatever the catalogue's size. Contents that are compressed already are stored
 * alone, as they are.
 */
class Packer {
  private groups = new Map<string, { path: string; sha256: string; contents: Buffer }[]>();
  private held = 0;
  private slots = new Slots(2); // packs compressed at a time: the thread pool has a thread a core
  // Packs handed to the slots and not yet written: files are read faster than brotli packs them, and
  // without a bound every flushed pack waited in memory (a 0.3 GiB catalogue's first release peaked at 2.9 GB).
  private queued = new ByteBudget(HELD_MAX);
  private writing: Promise<void>[] = [];

  constructor(
    private dir: string,
    private out: Stored,
  ) {}

  async add(path: string, sha256: string, contents: Buffer): Promise<void> {
    this.out.written++;
    this.out.bytesWritten += contents.length;
    if (compressedAlready(contents.subarray(0, 8))) {
      await writeObject(this.dir, sha256, contents);
      return;
    }
    const key = groupOf(path);
    const group = this.groups.get(key) ?? [];
    group.push({ path, sha256, contents });
    this.groups.set(key, group);
    this.held += contents.length;
    if (size(group) >= PACK_MAX) this.flush(key, group);
    while (this.held >= HELD_MAX) {
      const [largest] = [...this.groups].sort(([, a], [, b]) => size(b) - size(a));
      this.flush(...largest!);
    }
    await this.queued.room();
  }

  /** Writes every pack still held, and waits for all. */
  async finish(): Promise<void> {
    for (const [key, group] of [...this.groups]) this.flush(key, group);
    await Promise.all(this.writing);
  }

  private flush(key: string, group: { path: string; sha256: string; contents: Buffer }[]): void {
    this.groups.delete(key);
    this.held -= size(group);
    group.sort((a, b) => (a.path < b.path ? -1 : 1)); // a level beside its preview, the formats of one level together
    // Cut where a pack would pass PACK_MAX, so that one is always read whole into memory.
    const packs: (typeof group)[] = [[]];
    for (const member of group) {
      const last = packs.at(-1)!;
      if (last.length > 0 && size(last) + member.contents.length > PACK_MAX) packs.push([member]);
      else last.push(member);
    }
    for (const pack of packs) {
      const written = this.slots.run(() => writePack(this.dir, pack).then(() => {}));
      this.writing.push(this.queued.track(size(pack), written));
    }
  }
}

function size(group: { contents: Buffer }[]): number {
  return group.reduce((n, m) => n + m.contents.length, 0);
}

/** Whether `value` is the stamps file's data: two lists, whose entries are checked where they are used. */
function isStamps(value: unknown): value is Stamps {
  return isObject(value) && isObject(value.sources) && isObject(value.generated);
}
