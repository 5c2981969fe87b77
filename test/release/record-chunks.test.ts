// The ledger's record chunks (build/release/record-chunks.ts): boundaries
// that depend only on the items' keys, so that a change to one item, or one
// inserted, leaves every other chunk as it was: what lets a release that
// changes one country store only that country's records again.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readLedger } from '../../build/release/ledger.ts';
import { RecordWriter } from '../../build/release/record-writer.ts';
import {
  chunkText,
  cutChunks,
  cutChunksKnowing,
  noMadeChunks,
  sameJson,
  sha256Text,
} from '../../build/release/record-chunks.ts';

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

  it('a large item is a chunk of its own: a change beside it stores neither it nor more than its own chunk again', () => {
    interface Level {
      key: string;
      value: number;
      ids?: string[];
    }
    const big: Level = {
      key: 'earth/C1001',
      value: 1001,
      ids: Array.from({ length: 600 }, (_, i) => `id${i}`),
    };
    const list: Level[] = items.map((x) => (x.key === big.key ? big : x));
    const cut = (l: Level[]) => cutChunks(l, (x) => x.key, 32);
    expect(cut(list).filter((c) => c.includes(big))).toEqual([[big]]);
    const sizes = (l: Level[]) => new Map(cut(l).map((c) => [sha256Text(chunkText(c)), chunkText(c).length]));
    const before = sizes(list);
    const after = sizes(
      list.map((x) => (x.key === 'earth/C1000' || x.key === 'earth/C1002' ? { ...x, value: -1 } : x)),
    );
    const stored = [...after].filter(([sha]) => !before.has(sha)).map(([, bytes]) => bytes);
    expect(stored.length).toBeLessThanOrEqual(2);
    expect(Math.max(...stored)).toBeLessThan(JSON.stringify(big).length);
  });

  it('an inserted or removed item changes at most the two chunks beside it', () => {
    const before = shas(items);
    const inserted = [...items.slice(0, 700), { key: 'earth/C699b', value: 0 }, ...items.slice(700)];
    expect(added(before, shas(inserted)).length).toBeLessThanOrEqual(2);
    const removed = items.filter((x) => x.key !== 'earth/C1500');
    expect(added(before, shas(removed)).length).toBeLessThanOrEqual(2);
  });

  it('a chunk cut before is found again, without its keys hashed, exactly where cutChunks cuts it', () => {
    const before = cutChunks(items, (x) => x.key, 32);
    const known = before.map((c) => ({
      sha256: sha256Text(chunkText(c)),
      items: JSON.parse(chunkText(c)) as Item[],
    }));
    const lists = {
      same: items,
      changed: items.map((x) => (x.key === 'earth/C1000' ? { ...x, value: -1 } : x)),
      inserted: [...items.slice(0, 700), { key: 'earth/C699b', value: 0 }, ...items.slice(700)],
      removed: items.filter((x) => x.key !== 'earth/C1500'),
      appended: [...items, ...Array.from({ length: 50 }, (_, i) => ({ key: `earth/D${i}`, value: i }))],
      cut: items.slice(0, 1_000),
      shifted: items.slice(1),
    };
    for (const [name, list] of Object.entries(lists)) {
      const cuts = cutChunksKnowing(list, (x) => x.key, 32, known);
      expect(
        cuts.map((c) => c.items),
        name,
      ).toEqual(cutChunks(list, (x) => x.key, 32));
      // A chunk found again is that chunk: the same text.
      for (const c of cuts) if (c.known) expect(sha256Text(chunkText(c.items))).toBe(c.known.sha256);
      expect(cuts.filter((c) => !c.known).length, name).toBeLessThanOrEqual(name === 'same' ? 0 : 3);
    }
  });

  it('two values are the same JSON only when JSON.stringify writes them alike', () => {
    class Box {
      a = 1;
    }
    const cases: [unknown, string][] = [
      [{ a: 1, b: 'x' }, '{"a":1,"b":"x"}'],
      [{ b: 'x', a: 1 }, '{"a":1,"b":"x"}'], // another order: another text
      [{ a: 1, gone: undefined, b: 'x' }, '{"a":1,"b":"x"}'], // JSON leaves undefined out
      [{ a: 1 }, '{"a":1,"b":"x"}'],
      [{ a: 1, b: 'x', c: null }, '{"a":1,"b":"x"}'],
      [{ a: [1, [2, { c: 'é' }]] }, '{"a":[1,[2,{"c":"é"}]]}'],
      [{ a: [1, 2] }, '{"a":[1,2,3]}'],
      [{ n: -0 }, '{"n":0}'],
      [{ n: NaN }, '{"n":null}'],
      [{ n: 1e21 }, '{"n":1e21}'],
      [[undefined], '[null]'],
      [{ d: new Date(0) }, '{"d":"1970-01-01T00:00:00.000Z"}'],
      [{ toJSON: () => 1 }, '1'],
      [new Box(), '{"a":1}'],
      [{ 2: 'b', 1: 'a' }, '{"1":"a","2":"b"}'],
      ['x', '"x"'],
      [1, '"1"'],
    ];
    const same = cases.map(([made, text]) => sameJson(made, JSON.parse(text)));
    for (const [i, [made, text]] of cases.entries()) {
      if (same[i]) expect(JSON.stringify(made), text).toBe(JSON.stringify(JSON.parse(text)));
    }
    // Where it can tell, it does: every case above but the unsure ones (NaN, undefined in an array, a Date, toJSON, a class).
    expect(same).toEqual([
      true,
      false,
      true,
      false,
      false,
      true,
      false,
      true,
      false,
      true,
      false,
      false,
      false,
      false,
      true,
      true,
      false,
    ]);
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
        return readLedger(root).problems.map((p) => `${p.pointer ?? ''} ${p.message}`);
      };
      const head =
        '"version":"1.0.0","sequence":1,"previous":null,"code_key":null,"thresholds":{},"counts":{"units":0,"changes":{}}';
      expect(await problems(`{"ledger_version":2,${head}}`)).toContain(
        '/chunks/files expected a list of sha256s',
      );
      expect(await problems(`{"ledger_version":3,${head},"chunks":{"files":"x"}}`)).toContain(
        '/chunks/files expected a list of sha256s',
      );
      expect(await problems('{"ledger_version":2,"version":"1.0.0","sequence":1}')).toEqual([
        '/previous expected a release version',
      ]);
      expect(
        await problems(`{"ledger_version":3,${head.replace('"sequence":1', '"sequence":"2"')}}`),
      ).toEqual(['/sequence expected a whole number ≥ 1']);
      expect(await problems('null')).toEqual([' expected a JSON object, a release record']);
      // ledger_version 4: release.json names index chunks, each a list of chunks' sha256s.
      expect(await problems(`{"ledger_version":4,${head},"chunks":{"files":"x"}}`)).toContain(
        '/chunks/files expected a list of sha256s',
      );
      const indexChunk = (items: unknown[]) => {
        const text = chunkText(items);
        mkdirSync(join(dir, 'records'), { recursive: true });
        writeFileSync(join(dir, `records/${sha256Text(text)}.json.br`), brotliCompressSync(text));
        return sha256Text(text);
      };
      const lying = indexChunk([42]);
      const lost = indexChunk(['0'.repeat(64)]);
      const v4 = (files: string) => `{"ledger_version":4,${head},"chunks":{"files":["${files}"]}}`;
      expect(await problems(v4(lying))).toContain(
        `/chunks/files/0 data/releases/1.0.0/records/${lying}.json.br: item 0: expected a sha256 (64 lower-case hexadecimal digits)`,
      );
      expect(await problems(v4(lost))).toContain(
        `/chunks/files/0/0 the ledger lost the record chunk ${'0'.repeat(64)} (in no release folder's records/)`,
      );
      expect(await problems('{"ledger_version":5}')).toEqual([
        '/ledger_version ledger_version 5 is not one this geoshelf reads; use a newer geoshelf',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("index chunks (ledger_version 4): release.json names about one in 32 of a list's chunks, and a changed chunk writes one or two index chunks", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'geoshelf-index-'));
    try {
      const leaves = Array.from({ length: 1_000 }, (_, i) => sha256Text(`chunk ${i}`));
      const writer = new RecordWriter(dir, new Set(), noMadeChunks());
      const before = await writer.index(leaves);
      expect(before.length).toBeGreaterThan(1_000 / 32 / 2);
      expect(before.length).toBeLessThan((1_000 / 32) * 2);
      const written = readdirSync(dir).length;
      expect(written).toBe(new Set(before).size);
      const changed = leaves.with(500, sha256Text('chunk 500, changed'));
      const after = await writer.index(changed);
      expect(added(before, after).length).toBeGreaterThanOrEqual(1);
      expect(added(before, after).length).toBeLessThanOrEqual(2);
      expect(readdirSync(dir).length - written).toBe(added(before, after).length);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
