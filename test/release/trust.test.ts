// The releases a publisher can trust (issue 26), each rule through the CLI as
// a publisher runs it: a country added is in the feed and changes.json, a
// country renamed or relicensed is a country-changed entry; a
// new country's history lists only releases that hold it; versions only go
// up and an unchanged tree is no release (unless --allow-empty); a manifest
// without the optional bytes and sha256 releases; a unit removed and put
// back keeps its ID. (A stale preview refused: test/manifests/preview-stale.test.ts;
// the feed at every grain, at random: test/release/model/tree-model.test.ts.)
// The fixture released as 1.0.0 is made once; the tests that start there
// work on their own copies of it.
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLedger } from '../../build/release/ledger.ts';
import { cli, copyDataTree, copyRoot } from '../support/cli.ts';

const FIXTURE = new URL('../fixtures/build', import.meta.url).pathname;
const TMP = join(tmpdir(), `geoshelf-trust-${process.pid}`);
afterAll(() => rmSync(TMP, { recursive: true, force: true }));
/** Each test runs several commands (and a build): a bound for a hang only, generous for a loaded machine. */
const BOUND = 180_000;

const read = <T>(path: string) => JSON.parse(readFileSync(path, 'utf8')) as T;

interface Entry {
  type: string;
  country: string;
  level?: string;
  id?: string;
  code?: string;
  name?: string;
  restored?: boolean;
}

/** Runs `geoshelf ARGS… --root ROOT` and returns its result; throws when it does not exit 0. */
async function ok(root: string, ...args: string[]) {
  const r = await cli(...args, '--root', root);
  if (r.code !== 0) throw new Error(`geoshelf ${args.join(' ')}: exit ${r.code}\n${r.stderr}`);
  return r;
}

let released: string; // the fixture with release 1.0.0 recorded
beforeAll(async () => {
  released = copyDataTree(FIXTURE, TMP);
  await ok(released, 'release', '1.0.0');
}, BOUND);

/** Builds the catalogue with every release to ROOT/dist; returns the folder. */
async function build(root: string): Promise<string> {
  await ok(root, 'build', '--out', join(root, 'dist'));
  return join(root, 'dist');
}

/** Returns the feed of release `version` as the built site publishes it. */
function changes(dist: string, version: string): Entry[] {
  return read<Entry[]>(join(dist, `api/releases/${version}/changes.json`));
}

/** Returns the feed of release `version` as the ledger holds it (build publishes it as changes.json). */
function feed(root: string, version: string): Entry[] {
  return readLedger(root).releases.find((r) => r.record.version === version)!.changes as Entry[];
}

/** Returns the ledger's files, each with its text: "as it was" compares them. */
function ledger(root: string): Record<string, string> {
  const dir = join(root, 'data/releases');
  if (!existsSync(dir)) return {};
  const out: Record<string, string> = {};
  for (const f of readdirRecursive(dir)) out[f] = readFileSync(join(dir, f), 'latin1');
  return out;
}

/** Returns the paths of the files under `dir`, relative to it. */
function readdirRecursive(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? readdirRecursive(dir, `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
  );
}

describe('release: a country added is reported', () => {
  it(
    'a country new in a release is country-added in the feed and changes.json, each of its units added; its history lists only the releases that hold it, and each link resolves',
    async () => {
      const root = copyDataTree(FIXTURE, TMP);
      rmSync(join(root, 'data/earth/FJI'), { recursive: true });
      await ok(root, 'release', '2026.12');
      cpSync(join(FIXTURE, 'data/earth/FJI'), join(root, 'data/earth/FJI'), { recursive: true });
      const r = await ok(root, 'release', '2027.01');
      expect(r.stdout).not.toContain('no changes');
      const dist = await build(root);
      const published = changes(dist, '2027.01');
      expect(published.map((e) => [e.type, e.country, e.level ?? ''])).toEqual([
        ['country-added', 'FJI', ''],
        ['level-added', 'FJI', 'ADM0'],
        ['added', 'FJI', 'ADM0'],
      ]);
      expect(published[2]).toMatchObject({ code: expect.any(String), name: 'Fiji', id: expect.any(String) });
      const history = read<{ releases: { version: string }[] }>(join(dist, 'api/v1/earth/FJI/history.json'));
      expect(history.releases.map((v) => v.version)).toEqual(['2027.01']);
      const html = readFileSync(join(dist, 'earth/FJI/index.html'), 'utf8');
      const links = [...html.matchAll(/href="(\/releases[^"#]*)"/g)].map((m) => m[1]!);
      expect(links.some((l) => l.includes('2026.12'))).toBe(false);
      expect(links.length).toBeGreaterThan(0);
      for (const link of links)
        expect(existsSync(join(dist, link, link.endsWith('/') ? 'index.html' : '')), link).toBe(true);
    },
    BOUND,
  );
});

describe('release: a country described differently is reported', () => {
  it(
    'a country renamed, its source licence and a level licence changed is one country-changed entry naming each field, from → to; its history and What changed say so',
    async () => {
      const root = copyDataTree(FIXTURE, TMP);
      await ok(root, 'release', '2026.12');
      const file = join(root, 'data/earth/FJI/manifest.json');
      const m = read<{
        name: { en: string };
        source: { license: string; url: string };
        datasets: { license: string }[];
      }>(file);
      m.name.en = 'Republic of Fiji';
      m.source.license = 'CC0-1.0';
      m.datasets[0]!.license = 'CC0-1.0';
      writeFileSync(file, JSON.stringify(m, null, 2) + '\n');
      const r = await ok(root, 'release', '2027.01');
      expect(r.stdout).not.toContain('no changes');
      expect(feed(root, '2027.01')).toEqual([
        {
          type: 'country-changed',
          country: 'FJI',
          body: 'earth',
          name: 'Republic of Fiji',
          fields: [
            { field: 'ADM0.license', from: 'CC-BY-4.0', to: 'CC0-1.0' },
            { field: 'name.en', from: 'Fiji', to: 'Republic of Fiji' },
            { field: 'source.license', from: 'CC-BY-4.0', to: 'CC0-1.0' },
          ],
        },
      ]);
      const dist = await build(root);
      expect(changes(dist, '2027.01')).toEqual(feed(root, '2027.01'));
      const history = read<{ releases: { version: string; changes: Record<string, number> }[] }>(
        join(dist, 'api/v1/earth/FJI/history.json'),
      );
      expect(history.releases[0]).toMatchObject({ version: '2027.01', changes: { 'country-changed': 1 } });
      const page = readFileSync(join(dist, 'releases-changes/2027.01/index.html'), 'utf8');
      expect(page).toContain('name.en “Fiji” → “Republic of Fiji”');
    },
    BOUND,
  );
});

describe('release: versions go up', () => {
  it(
    'a version lower than the latest is refused in one line naming the latest; the ledger, and so the latest, stay',
    async () => {
      const root = copyRoot(released, TMP);
      const before = ledger(root);
      const r = await cli('release', '0.9.0', '--root', root);
      const errors = r.stderr.split('\n').filter((l) => l !== '' && !l.includes(': warning: '));
      expect([r.code, errors.length, errors[0]]).toEqual([
        1,
        2, // the refusal and "release 0.9.0 not made"
        expect.stringContaining('release 0.9.0 does not come after the latest release, 1.0.0'),
      ]);
      expect(ledger(root)).toEqual(before);
      expect(readLedger(root).releases.map((v) => v.record.version)).toEqual(['1.0.0']); // the latest stays
    },
    BOUND,
  );

  it(
    'versions compare as numbers, not as text: 2027.10 comes after 2027.9, and 2027.09 is 2027.9',
    async () => {
      const root = copyDataTree(FIXTURE, TMP);
      await ok(root, 'release', '2027.9');
      await ok(root, 'release', '2027.10', '--allow-empty');
      expect((await cli('release', '2027.09', '--root', root, '--allow-empty')).code).toBe(1); // 2027.09 is 2027.9
    },
    BOUND,
  );
});

describe('release: an unchanged tree is no release', () => {
  it(
    'refused (exit 1, naming --allow-empty), the ledger as it was; with --allow-empty recorded, its feed empty',
    async () => {
      const root = copyRoot(released, TMP);
      const before = ledger(root);
      const r = await cli('release', '1.1.0', '--root', root);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('nothing changed since release 1.0.0');
      expect(r.stderr).toContain('--allow-empty');
      expect(ledger(root)).toEqual(before);
      await ok(root, 'release', '1.1.0', '--allow-empty');
      expect(feed(root, '1.1.0')).toEqual([]);
    },
    BOUND,
  );
});

describe('release: never trusts a number the manifest may leave out', () => {
  it(
    'a manifest without bytes and sha256 validates and releases; the ledger records the measured sha256',
    async () => {
      const root = copyDataTree(FIXTURE, TMP);
      const path = join(root, 'data/earth/FJI/manifest.json');
      const manifest = read<{ datasets: Record<string, unknown>[] }>(path);
      for (const d of manifest.datasets) {
        delete d.bytes;
        delete d.sha256;
      }
      writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
      await ok(root, 'validate');
      const r = await cli('release', '1.0.0', '--root', root);
      expect([r.code, r.stderr]).toEqual([0, expect.not.stringContaining('unexpected error')]);
      const record = Object.entries(ledger(root))
        .map(([, text]) => text)
        .join('\n');
      expect(record).toContain(
        '7368cddbc2c2a92f5a7dbeada38cd1df014d6f241a0d9a83e305588fb2b10a33', // sha256 of FJI_ADM0.geojson
      );
    },
    BOUND,
  );
});

describe('release: a unit removed and put back', () => {
  it(
    'keeps its ID: the feed says added (restored) with the ID it had',
    async () => {
      const root = copyRoot(released, TMP); // 1.0.0: every unit
      const adm1 = join(root, 'data/earth/CHL/CHL_ADM1.geojson');
      const text = readFileSync(adm1, 'utf8');
      const lines = text.split('\n');
      const last = lines.findIndex((l) => l.includes('"shapeName":"Magallanes'));
      const without = [
        ...lines.slice(0, last - 1),
        lines[last - 1]!.replace(/,$/, ''),
        ...lines.slice(last + 1),
      ];
      const publish = async (version: string, data: string) => {
        writeFileSync(adm1, data);
        await ok(root, 'manifest', 'CHL');
        await ok(root, 'preview', 'CHL/ADM1');
        await ok(root, 'release', version);
      };
      await publish('1.1.0', without.join('\n'));
      await publish('1.2.0', text);
      const dist = await build(root); // changes.json as published: the old code's ledger was read otherwise
      const removed = changes(dist, '1.1.0').filter((e) => e.type === 'removed');
      expect(removed.map((e) => [e.level, e.code])).toEqual([['ADM1', 'CL-MA']]);
      const back = changes(dist, '1.2.0').filter((e) => e.level === 'ADM1');
      expect(back).toEqual([
        expect.objectContaining({ type: 'added', id: removed[0]!.id, code: 'CL-MA', restored: true }),
      ]);
    },
    BOUND,
  );
});

describe('release: the latest release withdrawn before it was published', () => {
  it(
    'its folder removed, the same version is recorded again from the data as it is now, and the ledger reads clean',
    async () => {
      const root = copyRoot(released, TMP); // 1.0.0
      const adm1 = 'data/earth/CHL/CHL_ADM1.geojson';
      const rename = async (from: string, to: string) => {
        const path = join(root, adm1);
        writeFileSync(path, readFileSync(path, 'utf8').replace(from, to));
        await ok(root, 'manifest', 'CHL');
        await ok(root, 'preview', 'CHL/ADM1');
      };
      await rename('"shapeName":"Antofagasta"', '"shapeName":"Antofagasta Nortee"');
      await ok(root, 'release', '1.1.0');
      rmSync(join(root, 'data/releases/1.1.0'), { recursive: true }); // git rm -r data/releases/1.1.0
      await rename('Antofagasta Nortee', 'Antofagasta Norte');
      await ok(root, 'release', '1.1.0');
      expect(feed(root, '1.1.0')).toEqual([
        expect.objectContaining({
          type: 'renamed',
          code: 'CL-AN',
          from: 'Antofagasta',
          to: 'Antofagasta Norte',
        }),
      ]);
      expect(readLedger(root).problems).toEqual([]);
      const r = await cli('release', '1.2.0', '--root', root, '--allow-empty');
      expect([r.code, r.stderr]).toEqual([0, expect.not.stringContaining('ledger')]);
    },
    BOUND,
  );
});
