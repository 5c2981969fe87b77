// The ledger's record chunks (build/release/record-chunks.ts): boundaries
// that depend only on the items' keys, so that a change to one item, or one
// inserted, leaves every other chunk as it was: what lets a release that
// changes one country store only that country's records again.
import { describe, expect, it } from 'vitest';
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
});
