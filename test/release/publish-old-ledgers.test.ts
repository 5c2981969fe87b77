// Ledgers written by earlier versions of geoshelf are read as they are:
// build publishes their releases byte for byte, and the next release adds
// to them in today's form. Each builds or releases the fixture tree twice:
// the long project.
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RegistryUnit } from '../../build/core/shared/api.ts';
import type { ReleaseSite } from '../../build/release/ledger.ts';
import { publishedTemplate } from '../../build/release/site-files.ts';
import { cli, copyDataTree, editLevel } from '../support/cli.ts';
import { ledgerRelease } from '../support/ledger.ts';
import { build, hashes, sha256 } from '../support/publish.ts';

const FIXTURE = new URL('../fixtures/build', import.meta.url).pathname;
// A ledger written by the first layout (pages built for base "/"): release 1.0.0 of FIXTURE, trimmed to five published files.
const LAYOUT1 = new URL('../fixtures/release-layout1', import.meta.url).pathname;
// A ledger of the record format before chunks (made by geoshelf at 236a098), its site cut to a few files.
const V1_LAYOUT2 = new URL('../fixtures/release-v1-layout2', import.meta.url).pathname;
// Release 1.0.0 of FIXTURE as geoshelf wrote it at 9f4531f (ledger_version 3: release.json names every chunk), whole.
const V3 = new URL('../fixtures/release-v3', import.meta.url).pathname;
const TMP = join(tmpdir(), `geoshelf-old-ledgers-${process.pid}`);
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

const ADM1 = 'data/earth/CHL/CHL_ADM1.geojson';

const format = (root: string, version: string) =>
  (
    JSON.parse(readFileSync(join(root, 'data/releases', version, 'release.json'), 'utf8')) as {
      ledger_version: number;
    }
  ).ledger_version;

/**
 * What a release holds, whatever its format: its lists, without the date it
 * was made, and its published files by path only (their bytes change with
 * geoshelf's own pages and scripts, and a script's name with its hash).
 */
/** The files a release made by the code of the ledger_version 3 fixture held that one made today does not (crawlers read only the root's). */
const UNTIL_V3 = new Set(['robots.txt', 'sitemap.xml']);
/** The files a release made today holds that one made by the code of the ledger_version 3 fixture did not. */
const SINCE_V3 =
  /^(?:stac\/.*|CITATION\.cff|citation\.bib|api\/v1\/[a-z]+\/[A-Z]{3}\/units\/.*|downloads\/[a-z]+\/[A-Z]{3}\/(?:datapackage\.json|[^/.]+\.geojson|[^/]+\.parquet))$/;

async function held(root: string, version: string) {
  const r = await ledgerRelease(root, version);
  const {
    released: _,
    ledger_version: __,
    date: ___,
    ...record
  } = r.record as typeof r.record & {
    released?: string;
  };
  return {
    record: { ...record },
    registry: r.registry,
    site: r.site
      .map((f) =>
        f.path.replace(/^(assets\/[\w-]+)-[\w-]{8}\./, '$1.').replace(/^search\/[^/]+\/(?=.)/, 'search/'),
      )
      .sort(),
    changes: r.changes,
  };
}

describe('ledgers of earlier versions', () => {
  it('publishes a release of the first ledger layout byte for byte, and refuses another base in one line', async () => {
    const root = copyDataTree(FIXTURE, TMP);
    const out = join(root, '..', `${root.split('/').pop()}-dist`);
    cpSync(LAYOUT1, join(root, 'data/releases'), { recursive: true });
    const site = JSON.parse(readFileSync(join(LAYOUT1, '1.0.0/site.json'), 'utf8')) as ReleaseSite;
    await build(root, out);
    expect(await hashes(join(out, 'releases/1.0.0'))).toEqual(
      Object.fromEntries(site.files.map((f) => [f.path, f.sha256])),
    );
    const refused = await cli('build', '--root', root, '--out', out, '--base', '/atlas/');
    expect([refused.code, refused.stderr.split('\n').filter(Boolean)[0]]).toEqual([
      1,
      `${root}/data/releases/1.0.0/site.json: release 1.0.0 was built for --base /, and its pages link there; build with --base /`,
    ]);
    // The next release compares with the old layout's level files, and keeps their IDs.
    await editLevel(root, ADM1, '"Antofagasta"', '"Antofagasta Norte"');
    const next = await cli('release', '1.1.0', '--root', root);
    expect([next.code, next.stdout]).toEqual([0, expect.stringMatching(/since 1\.0\.0: 1 renamed\n$/)]);
    await build(root, out);
    expect(await hashes(join(out, 'releases/1.0.0'))).toEqual(
      Object.fromEntries(site.files.map((f) => [f.path, f.sha256])),
    );
  });

  it('publishes a release of the first record format (ledger_version 1, whole records) byte for byte, and the next release reads it', async () => {
    const root = copyDataTree(FIXTURE, TMP);
    const out = join(root, '..', `${root.split('/').pop()}-dist`);
    cpSync(V1_LAYOUT2, join(root, 'data/releases'), { recursive: true });
    const site = JSON.parse(readFileSync(join(V1_LAYOUT2, '1.0.0/site.json'), 'utf8')) as ReleaseSite;
    const stored = (sha: string) => readFileSync(join(V1_LAYOUT2, '1.0.0/site', sha), 'utf8');
    const expected = Object.fromEntries(
      site.files.map((f) => [
        f.path,
        'template' in f && f.template
          ? sha256(publishedTemplate(stored(f.sha256), '/releases/1.0.0/', '1.0.0'))
          : f.sha256,
      ]),
    );
    await build(root, out);
    expect(await hashes(join(out, 'releases/1.0.0'))).toEqual(expected);
    const before = JSON.parse(
      readFileSync(join(V1_LAYOUT2, '1.0.0/registry.json'), 'utf8'),
    ) as RegistryUnit[];
    const units = JSON.parse(readFileSync(join(out, 'api/releases/units.json'), 'utf8')) as RegistryUnit[];
    expect(units).toEqual([...before].sort((a, b) => (a.id < b.id ? -1 : 1)));
    await editLevel(root, ADM1, '"Antofagasta"', '"Antofagasta Norte"');
    const next = await cli('release', '1.1.0', '--root', root);
    expect([next.code, next.stdout]).toEqual([0, expect.stringMatching(/since 1\.0\.0: 1 renamed\n$/)]);
    const after = (await ledgerRelease(root, '1.1.0')).registry;
    expect(after.map((u) => u.id)).toEqual(before.map((u) => u.id));
    expect(after.every((u) => u.last_seen === '1.1.0')).toBe(true);
    await build(root, out);
    expect(await hashes(join(out, 'releases/1.0.0'))).toEqual(expected);
  });

  it('a ledger_version 3 release holds what a release of the same tree made today holds, and the next release (ledger_version 4) reads it', async () => {
    const old = copyDataTree(FIXTURE, TMP);
    cpSync(V3, join(old, 'data/releases'), { recursive: true });
    const fresh = copyDataTree(FIXTURE, TMP);
    const made = await cli('release', '1.0.0', '--root', fresh);
    expect(made.code, made.stderr).toBe(0);
    expect([format(old, '1.0.0'), format(fresh, '1.0.0')]).toEqual([3, 4]);
    // The same record, registry and feed; today's release publishes files the code that wrote the
    // fixture did not make (issue 30: the STAC catalogue, the citations, each unit's own GeoJSON, the
    // downloads folder's Data Package and GeoJSON, GeoParquet), and every file the fixture's release holds
    // but the sitemap and robots.txt (search shards compared by name: today's are in folders).
    const [was, now] = [await held(old, '1.0.0'), await held(fresh, '1.0.0')];
    const since = (path: string) => SINCE_V3.test(path);
    expect(was.site.filter(since)).toEqual([]);
    expect(now.site.filter((path) => UNTIL_V3.has(path))).toEqual([]);
    expect({ ...was, site: was.site.filter((path) => !UNTIL_V3.has(path)) }).toEqual({
      ...now,
      site: now.site.filter((path) => !since(path)),
    });

    await editLevel(old, 'data/earth/CHL/CHL_ADM1.geojson', '"Antofagasta"', '"Antofagasta Norte"');
    const next = await cli('release', '1.1.0', '--root', old);
    expect([next.code, next.stdout]).toEqual([0, expect.stringMatching(/since 1\.0\.0: 1 renamed\n$/)]);
    expect(format(old, '1.1.0')).toBe(4);
    const [before, after] = [await ledgerRelease(old, '1.0.0'), await ledgerRelease(old, '1.1.0')];
    expect(after.registry.map((u) => u.id).sort()).toEqual(before.registry.map((u) => u.id).sort());
  }, 180_000);
});
