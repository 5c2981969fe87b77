// A build spread over machines (build/shard/, docs/deployment.md): shards
// K/N of a small tree with two releases (three Earth countries, the Moon's and
// Mars's sample), each built in a root of its own as on its own machine,
// then merged, give the bytes of a single build with the same --base, every
// file, both ways; a shard may be empty (more shards than tasks). A
// merge that is not given every shard of one build by this geoshelf with
// this --base is refused in one line per problem, and writes nothing.
import {
  cpSync,
  existsSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
  type Dirent,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../build/build.ts';
import { UserError } from '../../build/core/errors.ts';
import { makeRelease } from '../../build/release/release.ts';
import { assignShards, shardTasks, WORLD_MAP } from '../../build/shard/assign.ts';
import { mergeShards } from '../../build/shard/merge.ts';
import { buildShard } from '../../build/shard/shard.ts';
import { copyDataTree, copyRoot } from '../support/cli.ts';
import { filesUnder, sha256, snapshot } from '../build/helpers.ts';

const FIXTURE = new URL('../fixtures/build', import.meta.url).pathname;
const TMP = join(tmpdir(), `geoshelf-shard-${process.pid}`);
const BASE = '/boundaries/';
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

let tree: string; // released once; every shard and build runs on a copy
let single: Record<string, string>; // path → sha256 of the single build
beforeAll(async () => {
  tree = copyDataTree(FIXTURE, TMP);
  for (const body of ['moon', 'mars'])
    cpSync(new URL(`../../data/${body}`, import.meta.url).pathname, join(tree, 'data', body), {
      recursive: true,
    });
  expect((await makeRelease(tree, '1.0.0', { date: '2026-12-03' })).status).toBe('recorded');
  // A second release, the same data: its folders are links to the first's (write-dist.ts).
  expect((await makeRelease(tree, '1.1.0', { date: '2026-12-04', allowEmpty: true })).status).toBe(
    'recorded',
  );
  const out = join(TMP, 'single');
  expect((await buildCatalogue({ root: copyRoot(tree, TMP), out, base: BASE })).ok).toBe(true);
  single = sums(out);
  expect(Object.values(single).filter((v) => v.startsWith('link ')).length).toBeGreaterThan(0); // links compared too
}, 120_000); // a bound for a hang only

/** Returns path → sha256 of every file under `dir`, and path → "link TARGET" of every link (a release folder shared with an earlier one's). */
function sums(dir: string): Record<string, string> {
  const entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  const path = (e: Dirent) => relative(dir, join(e.parentPath, e.name));
  return Object.fromEntries(
    entries
      .filter((e) => e.isFile() || e.isSymbolicLink())
      .map((e) => [
        path(e),
        e.isSymbolicLink()
          ? `link ${readlinkSync(join(dir, path(e)))}`
          : sha256(readFileSync(join(dir, path(e)))),
      ]),
  );
}

/** Builds every shard of N, each in a copy of the tree of its own, into TMP/`name`/K; returns the folders. */
async function shards(name: string, n: number, base = BASE): Promise<string[]> {
  const dirs: string[] = [];
  for (let k = 1; k <= n; k++) {
    const out = join(TMP, name, String(k));
    const made = await buildShard({ root: copyRoot(tree, TMP), out, shard: k, of: n, base });
    expect(made.ok).toBe(true);
    dirs.push(out);
  }
  return dirs;
}

/** Returns the lines of the UserError `run` throws. */
async function refusal(run: () => Promise<unknown>): Promise<string[]> {
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UserError);
  return (error as UserError).problems.map((p) => `${p.file}: ${p.message}`);
}

/** Returns how many tasks the tree has (countries, world levels, the world map): more shards leave some empty. */
function taskCount(): number {
  const files = filesUnder(join(tree, 'data')).filter((f) => /^[^/]+\/[^/]+\/manifest\.json$/.test(f));
  return shardTasks(
    files.map((f) => ({ file: `data/${f}`, text: readFileSync(join(tree, 'data', f), 'utf8') })),
  ).length;
}

describe('a sharded build is byte-identical to a single build', () => {
  it.each([1, 2, 3, 7, 0])(
    'N = %i (0: two more than tasks): every file of the merge has the sha256 of the single build, none more, none less',
    async (given) => {
      const n = given || taskCount() + 2;
      const dirs = await shards(`n${given}`, n);
      // An artifact keeps files, not folders: an empty shard's dist/ may not come back.
      for (const dir of dirs)
        if (filesUnder(join(dir, 'dist')).length === 0) rmSync(join(dir, 'dist'), { recursive: true });
      const out = join(TMP, `merged-${given}`);
      const merged = await mergeShards({ shards: [...dirs].reverse(), out, base: BASE }); // any order
      expect(merged.ok).toBe(true);
      expect(sums(out)).toEqual(single);
    },
  );

  it('more shards than tasks: the shards without any are valid and empty, and every country is in one shard', () => {
    const n = taskCount() + 2;
    const heads = Array.from({ length: n }, (_, i) =>
      JSON.parse(readFileSync(join(TMP, 'n0', String(i + 1), 'shard.json'), 'utf8')),
    ) as { countries: string[]; world: string[] }[];
    expect(heads.filter((h) => h.countries.length + h.world.length === 0)).toHaveLength(2);
    expect(heads.flatMap((h) => h.countries)).toHaveLength(5);
    expect(heads.filter((h) => h.world.includes(WORLD_MAP))).toHaveLength(1);
  });
});

describe('the assignment', () => {
  it('gives the largest task first to the lightest shard, ties to the lowest K, and every task once', () => {
    const tasks = [
      { id: 'data/earth/AAA/manifest.json', bytes: 10 },
      { id: 'data/earth/BBB/manifest.json', bytes: 40 },
      { id: 'data/earth/CCC/manifest.json', bytes: 30 },
      { id: 'data/earth/DDD/manifest.json', bytes: 30 },
      { id: 'data/moon/EEE/manifest.json', bytes: 0 },
    ];
    // BBB → 1 (40); CCC → 2 (30); DDD → 3 (30); AAA → 2 (40); EEE → 3 (30)
    expect(assignShards(tasks, 3)).toEqual([
      ['data/earth/BBB/manifest.json'],
      ['data/earth/AAA/manifest.json', 'data/earth/CCC/manifest.json'],
      ['data/earth/DDD/manifest.json', 'data/moon/EEE/manifest.json'],
    ]);
    expect(assignShards(tasks, 7).filter((s) => s.length === 0)).toHaveLength(2);
  });

  it("weighs a world task an eighth of the bytes it reads: a level's world files, the world map Earth's", () => {
    const manifest = (body: string, levels: [string, number][]) =>
      JSON.stringify({
        body,
        datasets: levels.map(([level, bytes]) => ({ level, bytes, preview_bytes: 8 })),
      });
    const tasks = shardTasks([
      {
        file: 'data/earth/AAA/manifest.json',
        text: manifest('earth', [
          ['ADM0', 792],
          ['ADM1', 1592],
        ]),
      },
      { file: 'data/moon/BBB/manifest.json', text: manifest('moon', [['QUAD', 72]]) },
      { file: 'data/earth/CCC/manifest.json', text: '{ not json' },
    ]);
    expect(tasks).toEqual([
      { id: 'data/earth/AAA/manifest.json', bytes: 2400 },
      { id: 'data/moon/BBB/manifest.json', bytes: 80 },
      { id: 'data/earth/CCC/manifest.json', bytes: 0 },
      { id: WORLD_MAP, bytes: 300 },
      { id: 'world/earth/ADM0', bytes: 100 },
      { id: 'world/earth/ADM1', bytes: 200 },
      { id: 'world/moon/QUAD', bytes: 10 },
    ]);
  });
});

describe('a merge that is not every shard of one build writes nothing', () => {
  let two: string[];
  let out: string;
  let before: Record<string, string>;
  beforeAll(async () => {
    two = await shards('refused', 2);
    out = join(TMP, 'refused-out');
    expect((await mergeShards({ shards: two, out, base: BASE })).ok).toBe(true);
    before = snapshot(out);
  }, 120_000);
  const untouched = () => expect(snapshot(out)).toEqual(before);

  it('a missing shard: "shard 2/2 is missing"', async () => {
    expect(await refusal(() => mergeShards({ shards: [two[0]!], out, base: BASE }))).toEqual([
      ': shard 2/2 is missing: no folder given holds it; nothing was written',
    ]);
    untouched();
  });

  it('a folder that is not a shard, or is not there, is refused by name', async () => {
    const lines = await refusal(() =>
      mergeShards({ shards: [...two, FIXTURE, join(TMP, 'nowhere')], out, base: BASE }),
    );
    expect(lines).toEqual([
      `${FIXTURE}: not a shard folder (no shard.json); nothing was written`,
      `${join(TMP, 'nowhere')}: no such folder; nothing was written`,
    ]);
    untouched();
  });

  it('a foreign shard: one of another tree, or of another N', async () => {
    const other = copyRoot(tree, TMP);
    const manifest = join(other, 'data/earth/CHL/manifest.json');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('"Chile"', '"Chile (another tree)"'));
    const foreign = join(TMP, 'foreign');
    expect((await buildShard({ root: other, out: foreign, shard: 2, of: 2, base: BASE })).ok).toBe(true);
    const lines = await refusal(() => mergeShards({ shards: [two[0]!, foreign], out, base: BASE }));
    expect(lines).toEqual([
      `${foreign}: shard 2/2 is foreign: it was built from another tree or as one of another number of shards than ${two[0]} (shard 1/2)`,
    ]);
    const three = join(TMP, 'n3', '3'); // shard 3/3 of the same tree
    expect(await refusal(() => mergeShards({ shards: [...two, three], out, base: BASE }))).toHaveLength(1);
    untouched();
  });

  it('another --base: the merge is refused, naming both', async () => {
    expect(await refusal(() => mergeShards({ shards: two, out }))).toEqual([
      `${two[0]}: shard 1/2 was built with --base /boundaries/, the merge has --base /; give the merge the shards' flags`,
      `${two[1]}: shard 2/2 was built with --base /boundaries/, the merge has --base /; give the merge the shards' flags`,
    ]);
    untouched();
  });

  it('another geoshelf: a shard made by another version is refused', async () => {
    const old = copyRoot(two[1]!, TMP);
    const head = join(old, 'shard.json');
    writeFileSync(head, readFileSync(head, 'utf8').replace(/"geoshelf": "[^"]*"/, '"geoshelf": "0.0.9"'));
    expect(await refusal(() => mergeShards({ shards: [two[0]!, old], out, base: BASE }))).toEqual([
      `${old}: shard 2/2 was made by geoshelf 0.0.9, not this geoshelf 0.1.0; build every shard with the geoshelf that merges them`,
    ]);
    untouched();
  });

  it('a shard that failed fails the merge in one line naming it', async () => {
    const broken = copyRoot(tree, TMP);
    // The same tree (manifests, ledger) on a machine whose copy of shard 2's data differs: its checks fail.
    const head = JSON.parse(readFileSync(join(two[1]!, 'shard.json'), 'utf8')) as { countries: string[] };
    for (const file of head.countries) {
      const { datasets } = JSON.parse(readFileSync(join(broken, file), 'utf8')) as {
        datasets: { path: string }[];
      };
      writeFileSync(
        join(broken, datasets[0]!.path),
        `${readFileSync(join(broken, datasets[0]!.path), 'utf8')} `,
      );
    }
    const failed = join(TMP, 'failed');
    const made = await buildShard({ root: broken, out: failed, shard: 2, of: 2, base: BASE });
    expect(made.ok).toBe(false);
    const lines = await refusal(() => mergeShards({ shards: [two[0]!, failed], out, base: BASE }));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^${failed}: shard 2/2 failed \\([1-9][0-9]* error\\(s\\), listed by its own run\\); nothing was written$`,
      ),
    );
    untouched();
  });

  it('a damaged or incomplete shard folder is refused; a merge into a new folder leaves none', async () => {
    const cut = copyRoot(two[1]!, TMP);
    rmSync(join(cut, 'dist', filesUnder(join(cut, 'dist'))[0]!));
    const fresh = join(TMP, 'never-made');
    const lines = await refusal(() => mergeShards({ shards: [two[0]!, cut], out: fresh, base: BASE }));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/shard 2\/2: its folder is incomplete/);
    expect(existsSync(fresh)).toBe(false);
    writeFileSync(join(cut, 'work.v8'), 'damaged');
    expect((await refusal(() => mergeShards({ shards: [two[0]!, cut], out, base: BASE })))[0]).toMatch(
      /work\.v8 is not the one shard\.json names/,
    );
    untouched();
  });
});
