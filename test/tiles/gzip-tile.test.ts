// gzipTile fits zlib's window to each tile: the archives' bytes must stay
// those of zlib's default 32 KiB window, at every size (around each power of
// two, where the window grows) and for text as compressible as MVT and as
// random as a tile of dense coordinates.
import { gzipSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gzipTile } from '../../build/tiles/pmtiles.ts';
import { seededRandom } from '../support/random.ts';

describe('gzipTile', () => {
  it("gives the bytes of zlib's default window at level 6, at every size up to past 32 KiB", () => {
    const random = seededRandom(2026);
    const sizes = [1, 100, 250];
    for (let bits = 8; bits <= 16; bits++)
      for (const d of [-263, -262, -261, -1, 0, 1]) sizes.push(2 ** bits + d);
    const differ: string[] = [];
    for (const size of sizes.filter((n) => n > 0)) {
      for (const alphabet of [2, 16, 256]) {
        const bytes = Buffer.alloc(size);
        for (let i = 0; i < size; i++) bytes[i] = Math.floor(random() * alphabet);
        const ours = gzipTile(bytes);
        if (!ours.equals(gzipSync(bytes, { level: 6 }))) differ.push(`${size} bytes of ${alphabet} values`);
        if (!gunzipSync(ours).equals(bytes))
          differ.push(`${size} bytes of ${alphabet} values: not read back`);
      }
    }
    expect(differ).toEqual([]);
  });

  it('holds no more memory than its bytes: a level keeps every tile until its archive is written', () => {
    // zlib's default output chunk is 16 KiB, and the result was a slice of it: 24 bytes kept 16 KiB.
    const inputs = Array.from({ length: 2000 }, (_, i) => Buffer.alloc(100, i % 7));
    const before = process.memoryUsage().arrayBuffers;
    const kept = inputs.map((b) => gzipTile(b));
    const grown = process.memoryUsage().arrayBuffers - before;
    expect(kept.reduce((n, t) => n + t.length, 0)).toBeLessThan(100_000);
    expect(grown).toBeLessThan(4 * 2 ** 20); // 2,000 tiles of 16 KiB each would be 31 MiB
  });
});
