// `geoshelf release`: the ledger under data/releases/ (every file with its
// sha256, the unit registry, the changes), IDs kept across releases, level
// files stored once by sha256, and the refusals: validate errors, a version
// recorded with other files, a damaged ledger; a failed release leaves the
// ledger as it was (killed as a real process: test/release/kill.test.ts). The fixture is released (1.0.0), edited and released
// again (1.1.0) once, before the tests: each test that starts from one of
// those trees works on its own copy of it.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { readObject } from '../../build/release/object-store.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MeasurementCache } from '../../build/measure/cache.ts';
import { makeRelease } from '../../build/release/release.ts';
import { BASE_MARK, readLedger } from '../../build/release/ledger.ts';
import { cli, copyDataTree, copyRoot, editLevel, type CliResult } from '../support/cli.ts';
import { ledgerRelease } from '../support/ledger.ts';
import { hashes } from '../support/publish.ts';

const FIXTURE = new URL('../fixtures/build', import.meta.url).pathname;
const TMP = join(tmpdir(), `geoshelf-release-${process.pid}`);
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

const ADM1 = 'data/earth/CHL/CHL_ADM1.geojson';
const read = <T>(root: string, file: string) => JSON.parse(readFileSync(join(root, file), 'utf8')) as T;

/** Returns every file under the ledger with its sha256: what "as it was" compares. */
async function ledgerState(root: string): Promise<Record<string, string>> {
  const dir = join(root, 'data/releases');
  return existsSync(dir) ? hashes(dir) : {};
}

/** Edits CHL_ADM1 (a string replacement), then updates its manifest's derived fields and its preview. */
async function edit(root: string, from: string, to: string): Promise<void> {
  await editLevel(root, ADM1, from, to);
}

// The trees the tests start from, made once: the fixture released as 1.0.0 (`released`), then with
// Antofagasta renamed and its manifest and preview updated (`edited`), then released as 1.1.0 (`second`).
let released: string;
let edited: string;
let second: string;
let firstRun: CliResult;
let secondRun: CliResult;
beforeAll(async () => {
  released = copyDataTree(FIXTURE, TMP);
  firstRun = await cli('release', '1.0.0', '--root', released);
  expect(firstRun.code, firstRun.stderr).toBe(0);
  edited = copyRoot(released, TMP);
  await edit(edited, '"shapeName":"Antofagasta"', '"shapeName":"Antofagasta Norte"');
  second = copyRoot(edited, TMP);
  secondRun = await cli('release', '1.1.0', '--root', second);
  expect(secondRun.code, secondRun.stderr).toBe(0);
}, 180_000); // a bound for a hang only

describe('geoshelf release', () => {
  it('records every file with its sha256, a registry with one opaque ID per unit, and no changes for the first release', async () => {
    const [root, r] = [released, firstRun];
    // Warnings are listed, as build lists them; they do not stop a release (the
    // fixture's boxes do not nest in their country either: nesting warnings).
    expect(r.stderr).toMatch(
      /^\S+FJI_ADM0.geojson: \S+: warning: self-intersection at or near \[178.25, -19.15\]$/m,
    );
    expect(
      r.stderr
        .trimEnd()
        .split('\n')
        .every((line) => line.includes(': warning: ')),
    ).toBe(true);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^recorded release 1\.0\.0 in .*data\/releases\/1\.0\.0\/: 11 files, 11 units; the first release\n$/,
    );
    const { record, registry, site, changes, stored } = await ledgerRelease(root, '1.0.0');
    const adm1 = record.files.find((f) => f.path === ADM1)!;
    expect(adm1.sha256).toBe(
      createHash('sha256')
        .update(readFileSync(join(root, ADM1)))
        .digest('hex'),
    );
    expect(record.files.map((f) => f.path)).toContain('data/earth/CHL/manifest.json');
    expect(new Set(registry.map((u) => u.id)).size).toBe(11);
    expect(changes).toEqual([]);
    // Each region's parent is the country; each commune's its region, by parentISO.
    const chl = registry.find((u) => u.level === 'ADM0' && u.country === 'CHL')!;
    for (const u of registry.filter((u) => u.country === 'CHL' && u.level === 'ADM1'))
      expect(u.parent_id).toBe(chl.id);
    // Every level file stored once, among the published files the next release compares with.
    for (const file of record.levels.flatMap((l) => l.files)) {
      expect(site.find((f) => f.path === file.path)?.sha256).toBe(file.sha256);
      expect(stored.has(file.sha256)).toBe(true);
    }
  });

  it('a tree with no manifest is refused: no empty release is recorded', async () => {
    const root = copyDataTree(FIXTURE, TMP);
    rmSync(join(root, 'data/earth'), { recursive: true });
    const r = await cli('release', '1.0.0', '--root', root);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${root}/data: no manifests:`);
    expect(r.stderr).toContain('release 1.0.0 not made');
    expect(await ledgerState(root)).toEqual({});
  });

  it('the same version with the same files again does nothing', async () => {
    const root = copyRoot(released, TMP);
    const before = await ledgerState(root);
    const r = await cli('release', '1.0.0', '--root', root);
    expect([r.code, r.stdout]).toEqual([
      0,
      'release 1.0.0 is already recorded with these files: nothing to do\n',
    ]);
    expect(await ledgerState(root)).toEqual(before);
  });

  it('a refresh keeps the IDs: a renamed region keeps its ID, and only the changed file is stored again', async () => {
    const [root, r] = [second, secondRun]; // only read
    expect(r.stdout).toMatch(/11 units; since 1\.0\.0: 1 renamed\n$/);
    const before = (await ledgerRelease(root, '1.0.0')).registry;
    const { record, registry: after, changes, stored } = await ledgerRelease(root, '1.1.0');
    const antofagasta = before.find((u) => u.code === 'CL-AN' && u.level === 'ADM1')!;
    const now = after.find((u) => u.id === antofagasta.id)!;
    expect(now).toMatchObject({
      name: 'Antofagasta Norte',
      first_seen: '1.0.0',
      last_seen: '1.1.0',
      last_changed: '1.1.0',
    });
    expect(after.filter((u) => u.last_changed === '1.0.0').length).toBe(10);
    expect(after.map((u) => u.id).sort()).toEqual(before.map((u) => u.id).sort());
    expect(changes).toEqual([
      {
        type: 'renamed',
        country: 'CHL',
        level: 'ADM1',
        id: antofagasta.id,
        code: 'CL-AN',
        name: 'Antofagasta Norte',
        from: 'Antofagasta',
        to: 'Antofagasta Norte',
        spelling_only: false,
      },
    ]);
    expect([record.sequence, record.previous]).toEqual([2, '1.0.0']);
    expect(stored.has(record.files.find((f) => f.path === ADM1)!.sha256)).toBe(true);
  });

  it('a release stores again only what changed: no file of a country whose data did not change', async () => {
    const { site, stored } = await ledgerRelease(second, '1.1.0'); // only read
    const again = site.filter((f) => stored.has(f.sha256)).map((f) => f.path);
    // Pages link relatively, and name neither base nor version: the front page, which says which release
    // it is, keeps a mark for it, and is stored again only when it changes otherwise.
    expect(again).toContain(ADM1);
    expect(site.find((f) => f.path === 'index.html')).toMatchObject({ template: true });
    expect(again.filter((path) => /\b(ANT|FJI)\b/.test(path))).toEqual([]);
  });

  it("the ledger's copy of a data file is its own: editing the file in place leaves the release as it was", async () => {
    const root = copyRoot(released, TMP);
    const sha = (await ledgerRelease(root, '1.0.0')).record.files.find((f) => f.path === ADM1)!.sha256;
    const object = readLedger(root).objects.get(sha)!;
    expect(statSync(join(root, object.path)).nlink).toBe(1); // a copy, not a link to the publisher's file
    writeFileSync(
      join(root, ADM1),
      readFileSync(join(root, ADM1), 'utf8').replace('Antofagasta', 'Antofagasta Norte'),
    );
    const bytes = await readObject(root, sha, object); // checked against its sha256 as it is read
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(sha);
  });

  it('a release validates once: its catalogue build does not validate again, and reads only the changed level and its preview', async () => {
    const root = copyDataTree(FIXTURE, TMP);
    /** Releases `version` as the CLI does; returns the GeoJSON files its catalogue's plan read. */
    const release = async (version: string) => {
      const measurer = MeasurementCache.forRoot(root);
      const stages = new Set<string>();
      const outcome = await makeRelease(root, version, {
        measurer,
        onProgress: (stage) => stages.add(stage),
      });
      await measurer.save();
      if (outcome.status !== 'recorded') throw new Error(outcome.status);
      return { read: outcome.filesRead, validatedAgain: stages.has('validating manifests') };
    };
    const first = await release('1.0.0');
    await edit(root, '"shapeName":"Antofagasta"', '"shapeName":"Antofagasta Norte"');
    const second = await release('1.1.0');
    // The build takes what the release validated; it reads CHL_ADM1 to draw its map and cut its tiles, and
    // its new preview (the country page's map), and nothing else.
    expect(second).toEqual({ read: 3, validatedAgain: false });
    expect(first.read).toBeGreaterThan(second.read!);
  });

  it('refuses data holding the text a release reserves for its own URL, naming the file', async () => {
    const root = copyDataTree(FIXTURE, TMP);
    await edit(root, '"shapeName":"Antofagasta"', `"shapeName":"Antofagasta ${BASE_MARK}"`);
    const r = await cli('release', '1.0.0', '--root', root);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `\n${root}/${ADM1}: holds "${BASE_MARK}", which a release reserves for its own URL; change that text\n`,
    );
    expect(existsSync(join(root, 'data/releases'))).toBe(false);
  });

  it('refuses when validate finds errors (exit 1, every problem listed, no ledger written)', async () => {
    const root = copyDataTree(FIXTURE, TMP);
    const path = join(root, ADM1);
    writeFileSync(path, readFileSync(path, 'utf8').replace('Antofagasta', 'Antofagasta Norte')); // manifest not updated
    const r = await cli('release', '1.0.0', '--root', root);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`data/earth/CHL/manifest.json: /datasets/1/bytes:`);
    expect(r.stderr).toMatch(
      /\ngeoshelf release: \d+ problems? in \d+ files?( \(.*\))?; release 1\.0\.0 not made\n$/,
    );
    expect(existsSync(join(root, 'data/releases'))).toBe(false);
  });

  it('refuses a version already recorded with other files, and leaves it as it was', async () => {
    const root = copyRoot(edited, TMP);
    const before = await ledgerState(root);
    const r = await cli('release', '1.0.0', '--root', root);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `\n${root}/data/releases/1.0.0/release.json: release 1.0.0 is already recorded with other files; choose a new version\n`,
    );
    expect(await ledgerState(root)).toEqual(before);
  });

  it('refuses when a ledger file is missing, naming it once (not each file it held)', async () => {
    const root = copyRoot(released, TMP);
    const { record } = await ledgerRelease(root, '1.0.0');
    const sha = record.files.find((f) => f.path === ADM1)!.sha256;
    const pack = readLedger(root).objects.get(sha)!.path; // e.g. data/releases/1.0.0/objects/pack-….br
    rmSync(join(root, pack));
    const before = await ledgerState(root);
    const r = await cli('release', '1.1.0', '--root', root);
    expect(r.code).toBe(1);
    const index = pack.replace(/\.br$/, '.json');
    expect(r.stderr.split('\n').filter(Boolean)).toEqual([
      `${root}/${index}: names ${pack.slice(pack.lastIndexOf('/') + 1)}, which is missing from the ledger`,
      'geoshelf release: 1 problem in 1 file; release 1.1.0 not made',
    ]);
    expect(await ledgerState(root)).toEqual(before);
  });

  it('a stored file lost to two releases is named for each of them', async () => {
    const root = copyRoot(second, TMP);
    const fji = 'data/earth/FJI/FJI_ADM0.geojson'; // unchanged: both releases name the same stored file
    const { record } = await ledgerRelease(root, '1.1.0');
    const sha = record.files.find((f) => f.path === fji)!.sha256;
    // The pack that holds it, index and all: its contents are lost to both releases.
    const pack = readLedger(root).objects.get(sha)!.path;
    expect(pack.startsWith('data/releases/1.0.0/')).toBe(true); // stored once, by the first release that had it
    rmSync(join(root, pack));
    rmSync(join(root, pack.replace(/\.br$/, '.json')));
    const lost = readLedger(root).problems.map((p) => `${p.file}: ${p.message}`);
    expect(lost).toEqual([
      expect.stringMatching(/^data\/releases\/1\.0\.0\/release\.json: the ledger lost \S+ as released/),
      expect.stringMatching(/^data\/releases\/1\.1\.0\/release\.json: the ledger lost \S+ as released/),
    ]);
  });

  it('record chunks are the same with the made-chunks cache or without, and a chunk written otherwise is never taken for one geoshelf made', async () => {
    // Each released as 1.0.0 and edited; the edit touches no file of the ledger or its caches.
    // With the cache as the first release left it: `second`, released as 1.1.0 from such a copy before the tests.
    const roots = [0, 1].map(() => copyRoot(edited, TMP));
    const [uncached, rewritten] = roots as [string, string];
    const cached = second;
    rmSync(join(uncached, '.cache/geoshelf/release-chunks.json'));
    // Every chunk of 1.0.0 written on one line (the same items, a valid ledger), and a made-chunks
    // file that lists them from another geoshelf: were it trusted, 1.1.0 would name them again.
    const index = read<{ chunks: Record<string, string[]> }>(rewritten, 'data/releases/1.0.0/release.json');
    const records = join(rewritten, 'data/releases/1.0.0/records');
    const oneLine = new Map<string, string>(); // a chunk two lists share is stored once, and rewritten once
    for (const list of Object.values(index.chunks)) {
      list.forEach((sha, i) => {
        if (!oneLine.has(sha)) {
          const stored = brotliDecompressSync(readFileSync(join(records, `${sha}.json.br`))).toString('utf8');
          const text = `${JSON.stringify(JSON.parse(stored))}\n`;
          oneLine.set(sha, createHash('sha256').update(text).digest('hex'));
          rmSync(join(records, `${sha}.json.br`), { force: true });
          writeFileSync(join(records, `${oneLine.get(sha)}.json.br`), brotliCompressSync(text));
        }
        list[i] = oneLine.get(sha)!;
      });
    }
    writeFileSync(join(rewritten, 'data/releases/1.0.0/release.json'), `${JSON.stringify(index, null, 1)}\n`);
    const made = { stamp: 'another geoshelf', data: index.chunks };
    writeFileSync(join(rewritten, '.cache/geoshelf/release-chunks.json'), JSON.stringify(made));
    for (const root of roots) expect((await cli('release', '1.1.0', '--root', root)).code).toBe(0);
    const released = (root: string) => readFileSync(join(root, 'data/releases/1.1.0/release.json'), 'utf8');
    expect(released(uncached)).toBe(released(cached));
    expect(released(rewritten)).toBe(released(cached));
  });

  it('refuses when a record chunk is lost or damaged, naming it and where release.json names it', async () => {
    const root = copyRoot(released, TMP);
    const index = read<{ chunks: Record<string, string[]> }>(root, 'data/releases/1.0.0/release.json');
    const [registry, site] = [index.chunks.registry!, index.chunks.site!];
    rmSync(join(root, `data/releases/1.0.0/records/${registry.at(-1)}.json.br`));
    writeFileSync(join(root, `data/releases/1.0.0/records/${site[0]}.json.br`), brotliCompressSync('[\n]\n'));
    const r = await cli('release', '1.1.0', '--root', root);
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n').filter(Boolean)).toEqual([
      `${root}/data/releases/1.0.0/release.json: /chunks/registry/${registry.length - 1}: the ledger lost the record chunk ${registry.at(-1)} (in no release folder's records/)`,
      `${root}/data/releases/1.0.0/release.json: /chunks/site/0: data/releases/1.0.0/records/${site[0]}.json.br is damaged: its sha256 is not its name`,
      'geoshelf release: 2 problems in 1 file; release 1.1.0 not made',
    ]);
  });

  it('a release that fails while writing leaves the ledger as it was, and the next one succeeds', async () => {
    const root = copyRoot(edited, TMP);
    const before = await ledgerState(root);
    const failing = makeRelease(root, '1.1.0', {
      geometry: false,
      beforeCommit: (staged) => {
        expect(existsSync(join(staged, 'release.json'))).toBe(true); // the whole release, written aside
        throw new Error('disk full');
      },
    });
    await expect(failing).rejects.toThrow('disk full');
    expect(await ledgerState(root)).toEqual(before);
    expect(existsSync(join(root, '.cache/geoshelf/release-staging'))).toBe(false);
    expect((await cli('release', '1.1.0', '--root', root)).code).toBe(0);
  });

  it('a version must be a folder and URL segment on every host (exit 2)', async () => {
    for (const bad of ['v1', '1.0.', '1..2', '1/2', 'A1', '1.0.0+build']) {
      const r = await cli('release', bad, '--root', FIXTURE);
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toContain(`"${bad}" is not a release version`);
    }
    expect((await cli('release', '--root', FIXTURE)).code).toBe(2);
    const flag = await cli('release', '1.0.0', '--root', FIXTURE, '--redigitise-k-distance', 'many');
    expect([flag.code, flag.stderr]).toEqual([
      2,
      'geoshelf release: --redigitise-k-distance: expected a number ≥ 0, got "many"\n',
    ]);
  });
});
