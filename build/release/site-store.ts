// Stores a release's catalogue into the ledger's staged folder straight from
// the build's plan (build/output/write-dist.ts's DistPlan), without writing
// it as a tree first: each file in its stored form
// (build/release/site-files.ts), under its sha256, once across releases.
// What storing found is kept for the next release (the stamps file, a cache):
// a data or built file whose real path, inode, size and mtime are those
// recorded last time is known by its recorded sha256 without reading it, so
// a release that changed one country reads only that country's files; a
// generated file whose contents hash as they did last time is known without
// working out its stored form again. Data files are resolved through the
// data root as `build` resolves them: nothing outside it is ever stored.
import { hash } from 'node:crypto';
import { statSync } from 'node:fs';
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../core/atomic-write.ts';
import { codeVersion } from '../core/compiled.ts';
import { publishedDataFile } from '../core/data-root.ts';
import { runAll } from '../core/slots.ts';
import type { DistPlan, WriteStats } from '../output/write-dist.ts';
import type { SiteFile } from './ledger.ts';
import { storedSiteFile } from './site-files.ts';

/** What storing a file found: its stored form's sha256 and size, and whether it is a template. */
interface Kept {
  sha256: string; // of its stored form
  bytes: number;
  template?: true;
}

/** A data or built file's stamp: it is unchanged while its inode, size and mtime are. */
interface Stamp extends Kept {
  ino: number;
  size: number;
  mtimeMs: number;
}

/** A generated file's: its stored form is unchanged while the contents the build made hash to `made`. */
interface Made extends Kept {
  made: string; // sha256 of the contents as the build made them (text as UTF-8)
}

/** The stamps file. */
interface Stamps {
  version: 2;
  code: string; // the code that worked them out (codeVersion)
  sources: Record<string, Stamp | undefined>; // data and built files, by real path
  generated: Record<string, Made | undefined>; // by path in the release, e.g. "earth/CHL/index.html"
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
 * records what this call found for the next one.
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
  const code = codeVersion();
  const before = await readStamps(stampsFile, code);
  // Without a prototype: a path is only ever a key.
  const after: Stamps = {
    version: 2,
    code: code ?? '',
    sources: Object.create(null),
    generated: Object.create(null),
  };
  const files: SiteFile[] = [];
  const site = (path: string, { sha256, bytes, template }: Kept): SiteFile =>
    template ? { path, sha256, bytes, template } : { path, sha256, bytes };
  const fresh: [string | Buffer, string][] = []; // new contents of generated files, and their sha256
  for (const [path, contents] of plan.generated) {
    const made = hash('sha256', contents, 'hex');
    let kept = before.generated[path];
    if (!kept || kept.made !== made || !stored.has(kept.sha256)) {
      const file = storedSiteFile(path, contents);
      const same = file.contents === contents; // stored as it was made: its sha256 is known
      const sha256 = same ? made : hash('sha256', file.contents, 'hex');
      const bytes =
        typeof file.contents === 'string' ? Buffer.byteLength(file.contents) : file.contents.length;
      kept = file.template ? { made, sha256, bytes, template: true } : { made, sha256, bytes };
      // Each new content once: two paths of this release may hold the same bytes.
      if (!stored.has(sha256)) {
        stored.add(sha256);
        fresh.push([file.contents, sha256]);
      }
    }
    after.generated[path] = kept;
    files.push(site(path, kept));
  }
  const unknown: Unknown[] = [];
  const sources: [string, string | undefined][] = [
    ...plan.data.map((path): [string, undefined] => [path, undefined]),
    ...(plan.built ?? []),
  ];
  for (const [path, from] of sources) {
    const { real, stats } =
      from === undefined ? publishedDataFile(root, path) : { real: from, stats: statSync(from) };
    const was = before.sources[real];
    if (
      was &&
      was.ino === stats.ino &&
      was.size === stats.size &&
      was.mtimeMs === stats.mtimeMs &&
      stored.has(was.sha256)
    ) {
      after.sources[real] = was;
      files.push(site(path, was));
    } else {
      const { ino, size, mtimeMs } = stats;
      unknown.push({ path, real, stats: { ino, size, mtimeMs }, data: from === undefined, at: files.length });
      files.push(site(path, { sha256: '', bytes: 0 })); // in its place once read
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
    after.sources[real] = stamp;
    files[at] = site(path, stamp);
  });
  files.sort((a, b) => (a.path < b.path ? -1 : 1));
  await writeFileAtomic(stampsFile, JSON.stringify(after));
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

/**
 * Returns the stamps in `file` made by the code `code`; none when it is
 * missing, damaged, of another format or another code, or the code is
 * unknown: every file is then worked out again.
 */
async function readStamps(file: string, code: string | undefined): Promise<Omit<Stamps, 'version' | 'code'>> {
  try {
    const stamps = JSON.parse(await readFile(file, 'utf8')) as Partial<Stamps> | null;
    // A stamp that is not what storePlan writes matches no file: its inode, size, mtime or hash is no file's.
    if (code !== undefined && stamps?.version === 2 && stamps.code === code) {
      const object = <T>(value: unknown) =>
        (typeof value === 'object' && value !== null ? value : {}) as Record<string, T | undefined>;
      return { sources: object<Stamp>(stamps.sources), generated: object<Made>(stamps.generated) };
    }
  } catch {
    // none yet, or unreadable
  }
  return { sources: {}, generated: {} };
}
