// The sha256 of a whole file, read synchronously in 1 MiB pieces: for worker
// threads, where blocking is the point (build/measure/hash-worker.ts, and the
// measurer's segment worker before it scans).
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';

/** A file's sha256 (hex) and the number of bytes hashed. */
export interface Hashed {
  sha256: string;
  bytes: number;
}

/** Returns the sha256 of the file at `path` and how many bytes it read. Throws on a read error. */
export function sha256OfFile(path: string): Hashed {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    const hash = createHash('sha256');
    let bytes = 0;
    for (let n; (n = readSync(fd, buf, 0, buf.length, null)) > 0; bytes += n) hash.update(buf.subarray(0, n));
    return { sha256: hash.digest('hex'), bytes };
  } finally {
    closeSync(fd);
  }
}
