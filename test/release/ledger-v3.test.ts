// A ledger written before index chunks (ledger_version 3: release.json names
// every record chunk) is read as it is, holds what a release of today holds,
// and the next release adds to it in today's form (ledger_version 4).
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, copyDataTree, editLevel } from '../support/cli.ts';
import { ledgerRelease } from '../support/ledger.ts';

const FIXTURE = new URL('../fixtures/build', import.meta.url).pathname;
// Release 1.0.0 of FIXTURE as geoshelf wrote it at 9f4531f (ledger_version 3), whole.
const V3 = new URL('../fixtures/release-v3', import.meta.url).pathname;
const TMP = join(tmpdir(), `geoshelf-ledger-v3-${process.pid}`);
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

const format = (root: string, version: string) =>
  (
    JSON.parse(readFileSync(join(root, 'data/releases', version, 'release.json'), 'utf8')) as {
      ledger_version: number;
    }
  ).ledger_version;

/** What a release holds, whatever its format: its lists, without the date it was made. */
async function held(root: string, version: string) {
  const r = await ledgerRelease(root, version);
  const { released: _, ledger_version: __, ...record } = r.record as typeof r.record & { released?: string };
  return { record: { ...record }, registry: r.registry, site: r.site, changes: r.changes };
}

describe('ledger_version 3', () => {
  it('a ledger_version 3 release holds what a release of the same tree made today holds, and the next release (ledger_version 4) reads it', async () => {
    const old = copyDataTree(FIXTURE, TMP);
    cpSync(V3, join(old, 'data/releases'), { recursive: true });
    const fresh = copyDataTree(FIXTURE, TMP);
    const made = await cli('release', '1.0.0', '--root', fresh);
    expect(made.code, made.stderr).toBe(0);
    expect([format(old, '1.0.0'), format(fresh, '1.0.0')]).toEqual([3, 4]);
    expect(await held(old, '1.0.0')).toEqual(await held(fresh, '1.0.0'));

    await editLevel(old, 'data/earth/CHL/CHL_ADM1.geojson', '"Antofagasta"', '"Antofagasta Norte"');
    const next = await cli('release', '1.1.0', '--root', old);
    expect([next.code, next.stdout]).toEqual([0, expect.stringMatching(/since 1\.0\.0: 1 renamed\n$/)]);
    expect(format(old, '1.1.0')).toBe(4);
    const [before, after] = [await ledgerRelease(old, '1.0.0'), await ledgerRelease(old, '1.1.0')];
    expect(after.registry.map((u) => u.id).sort()).toEqual(before.registry.map((u) => u.id).sort());
  }, 180_000);
});
