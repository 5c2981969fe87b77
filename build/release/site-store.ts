// Stores a release's catalogue into the ledger's staged folder straight from
// the build's plan (build/publish/write-dist.ts's DistPlan), without writing
// it as a tree first: each file in its stored form
// (build/release/site-files.ts), under its sha256, once across releases.
// Generated files are hashed in memory; a data or built file whose real
// path, inode, size and mtime are those recorded last time is known by its
// recorded sha256 without reading it, so a release that changed one country
// reads only that country's files. Data files are resolved through the data
// root as `build` resolves them: nothing outside it is ever stored.
import { hash } from 'node:crypto';
import { statSync } from 'node:fs';
import { copyFile, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { publishedDataFile } from '../core/data-root.ts';
import { runAll } from '../core/slots.ts';
import type { DistPlan, WriteStats } from '../publish/write-dist.ts';
import type { SiteFile } from './ledger.ts';
import { storedSiteFile } from './site-files.ts';

interface Stamp {
  ino: number;
  size: number;
  mtimeMs: number;
  sha256: string; // of its stored form
  bytes: number;
  template?: true;
}

/** A data or built file whose stamp did not match: read, and stored when its content is new. */
interface Unknown {
  path: string; // in the release, e.g. "data/earth/CHL/CHL_ADM1.geojson"
  real: string; // where it is read from
  stats: { ino: number; size: number; mtimeMs: number };
  data: boolean; // a data file (else a built one)
  at: number; // its index in the files returned
}

/**
 * Returns every file of `plan`, sorted by path, in its stored form, and what
 * storing them took; writes each content that `stored` (the sha256s the ledger
 * and this release already hold, updated) lacks into `into`. `stampsFile`
 * records the data and built files' stamps for the next call.
 *
 * Generated files are hashed as the build made them, text without being
 * turned into bytes first, and data and built files are resolved and
 * statted, on this thread, synchronously: thousands of files each cost
 * several times more through promises and the thread pool than their own
 * work. Only what is new is written, and what is unknown read, through it.
 */
export async function storePlan(
  root: string,
  plan: DistPlan,
  into: string,
  stored: Set<string>,
  stampsFile: string,
): Promise<{ files: SiteFile[]; stats: WriteStats }> {
  const before = await readStamps(stampsFile);
  const after: Record<string, Stamp> = {};
  const files: SiteFile[] = [];
  const site = (path: string, sha256: string, bytes: number, template: boolean | undefined): SiteFile =>
    template ? { path, sha256, bytes, template: true } : { path, sha256, bytes };
  const fresh: [string | Buffer, string][] = []; // new contents of generated files, and their sha256
  for (const [path, contents] of plan.generated) {
    const file = storedSiteFile(path, contents);
    const sha256 = hash('sha256', file.contents, 'hex');
    const bytes = typeof file.contents === 'string' ? Buffer.byteLength(file.contents) : file.contents.length;
    // Each new content once: two paths of this release may hold the same bytes.
    if (!stored.has(sha256)) {
      stored.add(sha256);
      fresh.push([file.contents, sha256]);
    }
    files.push(site(path, sha256, bytes, file.template));
  }
  const unknown: Unknown[] = [];
  const sources: [string, string | undefined][] = [
    ...plan.data.map((path): [string, undefined] => [path, undefined]),
    ...(plan.built ?? []),
  ];
  for (const [path, from] of sources) {
    const { real, stats } =
      from === undefined ? publishedDataFile(root, path) : { real: from, stats: statSync(from) };
    const was = before[real];
    if (
      was &&
      was.ino === stats.ino &&
      was.size === stats.size &&
      was.mtimeMs === stats.mtimeMs &&
      stored.has(was.sha256)
    ) {
      after[real] = was;
      files.push(site(path, was.sha256, was.bytes, was.template));
    } else {
      const { ino, size, mtimeMs } = stats;
      unknown.push({ path, real, stats: { ino, size, mtimeMs }, data: from === undefined, at: files.length });
      files.push(site(path, '', 0, false)); // in its place once read
    }
  }
  let dataBytesCopied = 0;
  const written = fresh.length;
  await runAll(fresh, 16, ([contents, sha256]) => writeFile(join(into, sha256), contents));
  let copied = 0;
  await runAll(unknown, 16, async ({ path, real, stats, data, at }) => {
    const file = storedSiteFile(path, await readFile(real));
    const sha256 = hash('sha256', file.contents, 'hex');
    if (!stored.has(sha256)) {
      stored.add(sha256);
      copied++;
      if (data) dataBytesCopied += file.contents.length;
      // A copy, never a link: the publisher edits data files in place, and the ledger's must not change with them.
      if (file.template) await writeFile(join(into, sha256), file.contents);
      else await copyFile(real, join(into, sha256));
    }
    const stamp: Stamp = { ...stats, sha256, bytes: file.contents.length };
    if (file.template) stamp.template = true;
    after[real] = stamp;
    files[at] = site(path, sha256, stamp.bytes, file.template);
  });
  files.sort((a, b) => (a.path < b.path ? -1 : 1));
  await writeFile(`${stampsFile}.tmp`, JSON.stringify(after));
  await rename(`${stampsFile}.tmp`, stampsFile);
  const bytes = files.reduce((n, f) => n + f.bytes, 0);
  const stats = {
    files: files.length,
    bytes,
    written: written + copied,
    reused: files.length - written - copied,
    dataBytesCopied,
    swapped: false,
  };
  return { files, stats };
}

async function readStamps(file: string): Promise<Record<string, Stamp | undefined>> {
  try {
    const stamps = JSON.parse(await readFile(file, 'utf8')) as unknown;
    // A stamp that is not what storePlan writes matches no file (its ino, size or mtime is not a file's).
    if (typeof stamps === 'object' && stamps !== null) return stamps as Record<string, Stamp | undefined>;
  } catch {
    // none yet, or unreadable
  }
  return {}; // every file is read
}
