// The releases a publisher can trust (issue 26), each rule through the CLI as
// a publisher runs it: versions only go up and an unchanged tree is no
// release (unless --allow-empty); a manifest without the optional bytes and
// sha256 releases; a unit removed and put back keeps its ID; the latest
// release withdrawn before it was published. A country added or described
// differently, through two releases and the built pages:
// test/release/trust-pages.test.ts (long project; in process here:
// test/release/country-details.test.ts, and the feed at every grain, at
// random: test/release/model/tree-model.test.ts). A stale preview refused:
// test/manifests/preview-stale.test.ts.
// The fixture released as 1.0.0 is made once; the tests that start there
// work on their own copies of it.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLedger } from '../../build/release/ledger.ts';
import { cli, copyDataTree, copyRoot } from '../support/cli.ts';
import { build, changes, feed, ok, read } from '../support/trust.ts';

const FIXTURE = new URL('../fixtures/build', import.meta.url).pathname;
const TMP = join(tmpdir(), `geoshelf-trust-${process.pid}`);
afterAll(() => rmSync(TMP, { recursive: true, force: true }));
/** Each test runs several commands (and a build): a bound for a hang only, generous for a loaded machine. */
const BOUND = 180_000;

let released: string; // the fixture with release 1.0.0 recorded
beforeAll(async () => {
  released = copyDataTree(FIXTURE, TMP);
  await ok(released, 'release', '1.0.0');
}, BOUND);

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
      const root = copyRoot(released, TMP); // 1.0.0: the data unchanged since, so each is empty
      await ok(root, 'release', '2027.9', '--allow-empty');
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
