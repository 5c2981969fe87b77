// Writes .zip archives with yazl: entries stream from files on disk (so a
// level of any size zips with flat memory), Zip64 when needed, and fixed
// entry dates so the same inputs give the same bytes (and sha256).
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import { tempPathBeside } from '../core/atomic-write.ts';

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
export const ZIP_LEVEL = 1;

/** Writes `entries` (in order) into the archive `out`, through a temporary file renamed into place. */
export async function writeZip(out: string, entries: ZipEntry[]): Promise<void> {
  const temp = tempPathBeside(out);
  try {
    const zip = new yazl.ZipFile();
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
    throw error;
  }
}
