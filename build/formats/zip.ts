// Writes .zip archives with yazl: entries stream from files on disk (so a
// level of any size zips with flat memory), Zip64 when needed, and fixed
// entry dates so the same inputs give the same bytes (and sha256).
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import { tempPathBeside } from '../core/atomic-write.ts';
import { UserError } from '../core/errors.ts';
import { problem } from '../core/problem.ts';

export interface ZipEntry {
  file?: string; // path on disk, streamed
  data?: Buffer; // or the contents, for small files built in memory
  name: string; // path inside the archive, e.g. "CHL/CHL_ADM1.geojson"
}

/** Entry dates are fixed: an archive's bytes depend only on its contents. */
const ENTRY_DATE = new Date(Date.UTC(2000, 0, 1));

/**
 * Deflate level 1: several times faster than zlib's default 6 for a little
 * more size on GeoJSON (docs/benchmarks.md, bench:formats); binary formats
 * barely compress either way.
 */
const ZIP_LEVEL = 1;

/**
 * Writes `entries` (in order) into the archive `out`, through a temporary
 * file renamed into place. Throws a UserError (rule file-changed) when a
 * file entry cannot be read or changed size while it was zipped; then
 * nothing is left behind.
 */
export async function writeZip(out: string, entries: ZipEntry[]): Promise<void> {
  const temp = tempPathBeside(out);
  let unread: Error | undefined; // what yazl said of a file it read
  try {
    const zip = new yazl.ZipFile();
    // yazl reports a file it cannot read, or whose size changed since it looked, on the
    // ZipFile, not on its stream: unheard, that 'error' event would end the process.
    zip.once('error', (error: Error) => {
      unread = error;
      (zip.outputStream as Readable).destroy(error);
    });
    const options = { mtime: ENTRY_DATE, mode: 0o100644, compressionLevel: ZIP_LEVEL };
    for (const entry of entries) {
      if (entry.data) zip.addBuffer(entry.data, entry.name, options);
      else zip.addFile(entry.file!, entry.name, options);
    }
    zip.end();
    await pipeline(zip.outputStream, createWriteStream(temp));
    await rename(temp, out);
  } catch (error) {
    await rm(temp, { force: true });
    if (unread === undefined) throw error;
    const files = entries.flatMap((e) => (e.file ? [e.file] : []));
    // yazl names the file only when it cannot open it; else it is the one file, or one of the archive's.
    const file = (unread as NodeJS.ErrnoException).path ?? (files.length === 1 ? files[0]! : out);
    const why = (unread as NodeJS.ErrnoException).code === 'ENOENT' ? 'it is gone' : unread.message;
    const what =
      file === out
        ? 'a file changed while it was zipped'
        : `changed while it was zipped into ${basename(out)}`;
    throw new UserError(problem(file, `${what} (${why}); run the command again`, { rule: 'file-changed' }));
  }
}
