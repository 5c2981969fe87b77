// The ledger's record chunks (build/release/record-chunks.ts): boundaries
// that depend only on the items' keys, so that a change to one item, or one
// inserted, leaves every other chunk as it was: what lets a release that
// changes one country store only that country's records again.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLedger } from '../../build/release/ledger.ts';
import { chunkText, cutChunks, sha256Text } from '../../build/release/record-chunks.ts';

interface Item {
  key: string;
  value: number;
}
const items = Array.from({ length: 2_000 }, (_, i): Item => ({ key: `earth/C${i}`, value: i }));
const shas = (list: Item[]) => cutChunks(list, (x) => x.key, 32).map((c) => sha256Text(chunkText(c)));
const added = (before: string[], after: string[]) => after.filter((s) => !before.includes(s));

describe('record chunks', () => {
  it('chunks hold every item once, in order, and average about `every` items', () => {
    const chunks = cutChunks(items, (x) => x.key, 32);
    expect(chunks.flat()).toEqual(items);
    expect(chunks.length).toBeGreaterThan(2_000 / 32 / 2);
    expect(chunks.length).toBeLessThan((2_000 / 32) * 2);
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThanOrEqual(4 * 32);
  });

  it("a chunk ends after an item whose key's sha256, read as a big-endian 32-bit number, is a multiple of `every`, or after 4 × every items", () => {
    const ends = (chunks: Item[][]) => chunks.map((c) => c.at(-1)!.key);
    let run = 0;
    const expected = items.flatMap((x, i) => {
      run++;
      const h = createHash('sha256').update(x.key).digest().readUInt32BE(0);
      if (h % 32 !== 0 && run < 4 * 32 && i < items.length - 1) return [];
      run = 0;
      return [x.key];
    });
    expect(ends(cutChunks(items, (x) => x.key, 32))).toEqual(expected);
  });

  it('a changed item changes only the chunk that holds it', () => {
    const before = shas(items);
    const changed = items.map((x) => (x.key === 'earth/C1000' ? { ...x, value: -1 } : x));
    expect(added(before, shas(changed))).toHaveLength(1);
  });

  it('an inserted or removed item changes at most the two chunks beside it', () => {
    const before = shas(items);
    const inserted = [...items.slice(0, 700), { key: 'earth/C699b', value: 0 }, ...items.slice(700)];
    expect(added(before, shas(inserted)).length).toBeLessThanOrEqual(2);
    const removed = items.filter((x) => x.key !== 'earth/C1500');
    expect(added(before, shas(removed)).length).toBeLessThanOrEqual(2);
  });

  it('a chunk is stored one item per line, as git compares it', () => {
    expect(chunkText([{ a: 1 }, { b: 'x' }])).toBe('[\n{"a":1},\n{"b":"x"}\n]\n');
    expect(JSON.parse(chunkText([{ a: 1 }, { b: 'x' }]))).toEqual([{ a: 1 }, { b: 'x' }]);
  });

  it('a damaged release.json is a problem naming it, never an unexpected error', async () => {
    const root = mkdtempSync(join(tmpdir(), 'geoshelf-chunks-'));
    try {
      const dir = join(root, 'data/releases/1.0.0');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'changes.json'), '[]\n');
      const problems = async (text: string) => {
        writeFileSync(join(dir, 'release.json'), text);
        return (await readLedger(root)).problems.map((p) => `${p.pointer ?? ''} ${p.message}`);
      };
      expect(await problems('{"ledger_version":2,"version":"1.0.0","sequence":1}')).toContain(
        '/chunks/files expected a list of sha256s',
      );
      expect(await problems('{"ledger_version":2,"chunks":{"files":"x"}}')).toContain(
        '/chunks/files expected a list of sha256s',
      );
      expect(await problems('null')).toEqual([' expected a JSON object, a release record']);
      expect(await problems('{"ledger_version":3}')).toEqual([
        ' ledger_version 3 is not one this geoshelf reads; use a newer geoshelf',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
