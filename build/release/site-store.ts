// Stores a release's catalogue into the ledger's staged folder straight from
// the build's plan (build/publish/write-dist.ts's DistPlan), without writing
// it as a tree first: each file in its stored form
// (build/release/site-files.ts), under its sha256, once across releases.
// Generated files are hashed in memory; a data or built file whose real
// path, inode, size and mtime are those recorded last time is known by its
// recorded sha256 without reading it, so a release that changed one country
// reads only that country's files. Data files are resolved through the data
// root as `build` resolves them: nothing outside it is ever stored.
import { createHash } from 'node:crypto';
import { copyFile, readFile, rename, stat, writeFile } from 'node:fs/promises';
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

/**
 * Returns every file of `plan`, sorted by path, in its stored form, and what
 * storing them took; writes each content that `stored` (the sha256s the ledger
 * and this release already hold, updated) lacks into `into`. `stampsFile`
 * records the data and built files' stamps for the next call.
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
  let written = 0;
  let dataBytesCopied = 0;
  const keep = async (bytes: Buffer, sha256: string) => {
    // Each new content once: two paths of this release may hold the same bytes.
    if (stored.has(sha256)) return;
    stored.add(sha256);
    written++;
    await writeFile(join(into, sha256), bytes);
  };
  const generated = runAll([...plan.generated], 16, async ([path, contents]): Promise<SiteFile> => {
    const file = storedSiteFile(path, typeof contents === 'string' ? Buffer.from(contents) : contents);
    const sha256 = createHash('sha256').update(file.bytes).digest('hex');
    await keep(file.bytes, sha256);
    return {
      path,
      sha256,
      bytes: file.bytes.length,
      ...(file.template ? { template: true as const } : {}),
    };
  });
  const files: [string, string | undefined][] = [
    ...plan.data.map((path): [string, undefined] => [path, undefined]),
    ...[...(plan.built ?? [])],
  ];
  const copied = runAll(files, 16, async ([path, from]): Promise<SiteFile> => {
    const { real, stats } =
      from === undefined ? await publishedDataFile(root, path) : { real: from, stats: await stat(from) };
    const was = before[real];
    if (
      was &&
      was.ino === stats.ino &&
      was.size === stats.size &&
      was.mtimeMs === stats.mtimeMs &&
      stored.has(was.sha256)
    ) {
      after[real] = was;
      return {
        path,
        sha256: was.sha256,
        bytes: was.bytes,
        ...(was.template ? { template: true as const } : {}),
      };
    }
    const file = storedSiteFile(path, await readFile(real));
    const sha256 = createHash('sha256').update(file.bytes).digest('hex');
    if (!stored.has(sha256)) {
      stored.add(sha256);
      written++;
      if (from === undefined) dataBytesCopied += file.bytes.length;
      // A copy, never a link: the publisher edits data files in place, and the ledger's must not change with them.
      if (file.template) await writeFile(join(into, sha256), file.bytes);
      else await copyFile(real, join(into, sha256));
    }
    const stamp: Stamp = {
      ino: stats.ino,
      size: stats.size,
      mtimeMs: stats.mtimeMs,
      sha256,
      bytes: file.bytes.length,
    };
    if (file.template) stamp.template = true;
    after[real] = stamp;
    return { path, sha256, bytes: stamp.bytes, ...(file.template ? { template: true as const } : {}) };
  });
  const all = [...(await generated), ...(await copied)].sort((a, b) => (a.path < b.path ? -1 : 1));
  await writeFile(`${stampsFile}.tmp`, JSON.stringify(after));
  await rename(`${stampsFile}.tmp`, stampsFile);
  const bytes = all.reduce((n, f) => n + f.bytes, 0);
  const stats = {
    files: all.length,
    bytes,
    written,
    reused: all.length - written,
    dataBytesCopied,
    swapped: false,
  };
  return { files: all, stats };
}

async function readStamps(file: string): Promise<Record<string, Stamp>> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as Record<string, Stamp>;
  } catch {
    return {}; // none yet, or unreadable: every file is read
  }
}
