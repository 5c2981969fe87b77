// `geoshelf build` publishes every recorded release under releases/VERSION/,
// byte for byte what the release stored the day it was made, lists them in
// api/releases.json with one changes file each, and says on the root whether
// it is the last release or has changes not yet released. The fixture
// released as 1.0.0 is made once; the tests that start there copy it.
// Ledgers written by earlier versions: publish-old-ledgers.test.ts (long).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiReleases, ReleaseChange } from '../../build/core/shared/api.ts';
import { listFiles } from '../../build/core/files.ts';
import { cli, copyDataTree, copyRoot, editLevel } from '../support/cli.ts';
import { ledgerRelease } from '../support/ledger.ts';
import { build, hashes } from '../support/publish.ts';

const FIXTURE = new URL('../fixtures/build', import.meta.url).pathname;
const TMP = join(tmpdir(), `geoshelf-publish-${process.pid}`);
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

const ADM1 = 'data/earth/CHL/CHL_ADM1.geojson';

let released: string; // the fixture with release 1.0.0 recorded
beforeAll(async () => {
  released = copyDataTree(FIXTURE, TMP);
  expect((await cli('release', '1.0.0', '--root', released)).code).toBe(0);
}, 120_000); // a bound for a hang only

/**
 * Checks that every href and src of every page under `folder` of `out`
 * (and each page's data-base) leads to a file the build wrote, resolved as a
 * browser resolves it from the page's URL (a folder URL for index.html).
 */
async function expectLinksLead(out: string, folder: string, base = '/'): Promise<void> {
  const files = new Set(await listFiles(out));
  let followed = 0;
  for (const page of (await listFiles(join(out, folder))).filter((f) => f.endsWith('.html'))) {
    if (page === '404.html') continue; // served at any path: its links are absolute
    const url = new URL(`${base}${folder}${page.replace(/index\.html$/, '')}`, 'https://example.org');
    const html = readFileSync(join(out, folder, page), 'utf8');
    for (const [, link] of html.matchAll(/\s(?:href|src|data-base)="([^"]*)"/g)) {
      const target = new URL(link!.replaceAll('&amp;', '&'), url);
      if (target.origin !== url.origin) continue;
      expect(target.pathname.startsWith(base), `${folder}${page}: ${link} is outside ${base}`).toBe(true);
      const path = decodeURIComponent(target.pathname.slice(base.length));
      const file = path === '' || path.endsWith('/') ? `${path}index.html` : path;
      expect(files.has(file), `${folder}${page}: ${link} → ${file}`).toBe(true);
      followed++;
    }
  }
  expect(followed).toBeGreaterThan(100);
}

describe('geoshelf build with releases', () => {
  it('publishes each release byte-identical after later releases, lists them, and says what the root is', async () => {
    const root = copyRoot(released, TMP);
    const out = join(root, '..', `${root.split('/').pop()}-dist`);
    await build(root, out);
    const first = await hashes(join(out, 'releases/1.0.0'));
    // What the release stored the day it was made (its templates given their URL), and a catalogue of its own.
    const site = { files: (await ledgerRelease(root, '1.0.0')).site };
    const templates = site.files.filter((f) => 'template' in f && f.template).map((f) => f.path);
    // 404: the URL; the two citations: the URL and the version; index: the version. No sitemap
    // or robots.txt: crawlers read only the root's.
    expect(templates).toEqual(['404.html', 'CITATION.cff', 'citation.bib', 'index.html']);
    expect(site.files.filter((f) => /^(?:sitemap\.xml|robots\.txt)$/.test(f.path))).toEqual([]);
    expect(Object.keys(first)).toEqual(site.files.map((f) => f.path));
    for (const file of site.files)
      if (!templates.includes(file.path)) expect(first[file.path], file.path).toBe(file.sha256);
    expect(first['data/earth/CHL/CHL_ADM1.geojson']).toBe(
      createHash('sha256')
        .update(readFileSync(join(root, ADM1)))
        .digest('hex'),
    );
    expect(readFileSync(join(out, 'releases/1.0.0/index.html'), 'utf8')).toContain(
      'This is release <strong>1.0.0</strong>',
    );
    expect(readFileSync(join(out, 'releases/1.0.0/earth/CHL/index.html'), 'utf8')).toContain('href="../../');
    // Its JSON documents link relatively too (to themselves), so they are the same bytes in every release.
    expect(readFileSync(join(out, 'releases/1.0.0/api/v1/earth/CHL.json'), 'utf8')).toContain(
      '"url": "../../../data/earth/CHL/CHL_ADM1.geojson"',
    );
    await expectLinksLead(out, 'releases/1.0.0/');
    // Its own STAC catalogue, whose assets are the release's files.
    const item = JSON.parse(
      readFileSync(join(out, 'releases/1.0.0/stac/earth/CHL/CHL_ADM1.json'), 'utf8'),
    ) as {
      assets: { geojson: { href: string; 'file:checksum': string } };
    };
    expect(item.assets.geojson.href).toBe('../../../data/earth/CHL/CHL_ADM1.geojson');
    expect(item.assets.geojson['file:checksum']).toBe(`1220${first['data/earth/CHL/CHL_ADM1.geojson']}`);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toContain('This is release <strong>1.0.0</strong>');
    const api = () => JSON.parse(readFileSync(join(out, 'api/releases.json'), 'utf8')) as ApiReleases;
    expect(api().current).toEqual({ release: '1.0.0', latest: '1.0.0', unreleased_changes: false });

    // A change not yet released: the root says so, the release stays as it was.
    await editLevel(root, ADM1, '"Antofagasta"', '"Antofagasta Norte"');
    await build(root, out);
    expect(api().current).toEqual({ release: null, latest: '1.0.0', unreleased_changes: true });
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toContain('changes not yet released');
    expect(await hashes(join(out, 'releases/1.0.0'))).toEqual(first);

    // The next release: both published, the first unchanged to the byte, its registry and feed too.
    const records = () => hashes(join(out, 'api/releases/1.0.0'));
    const firstRecords = await records();
    // Its feed; the registry is one document (api/releases/units.json), not one per release.
    expect(Object.keys(firstRecords)).toEqual(['changes.json']);
    expect((await cli('release', '1.1.0', '--root', root)).code).toBe(0);
    await build(root, out);
    expect(await hashes(join(out, 'releases/1.0.0'))).toEqual(first);
    expect(await records()).toEqual(firstRecords);
    expect(readFileSync(join(out, 'releases/1.1.0/data/earth/CHL/CHL_ADM1.geojson'), 'utf8')).toContain(
      'Antofagasta Norte',
    );
    // Each release's front page names it, so each has its own; the world picture it links is a file
    // of its own, naming countries relatively: the same bytes in both, as no outline changed.
    expect(readFileSync(join(out, 'releases/1.1.0/index.html'), 'utf8')).not.toContain('<svg');
    const picture = (version: string) => readFileSync(join(out, `releases/${version}/map-world.svg`), 'utf8');
    expect(picture('1.0.0')).toContain('data-u="./earth/CHL/"');
    expect(picture('1.1.0')).toBe(picture('1.0.0'));
    const listed = api();
    expect(listed.current).toEqual({ release: '1.1.0', latest: '1.1.0', unreleased_changes: false });
    expect(
      listed.releases.map((r) => [
        r.version,
        r.previous,
        r.url,
        r.changes_url,
        r.counts.units,
        r.counts.changes,
      ]),
    ).toEqual([
      ['1.1.0', '1.0.0', '/releases/1.1.0/', '/api/releases/1.1.0/changes.json', 11, { renamed: 1 }],
      ['1.0.0', null, '/releases/1.0.0/', '/api/releases/1.0.0/changes.json', 11, {}],
    ]);
    const page = readFileSync(join(out, 'releases-changes/1.1.0/index.html'), 'utf8');
    expect(page).toContain('<h1>What changed in release 1.1.0</h1>');
    expect(page).toMatch(
      /<h2>Renamed \(1\)<\/h2>\n<ul class="changes">\n<li>Antofagasta Norte <code>CL-AN<\/code> <small>CHL ADM1 · [0-9a-z]{12}<\/small>: Antofagasta → Antofagasta Norte<\/li>/,
    );
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toContain('href="/releases-changes/1.1.0/"');
    const changes = JSON.parse(
      readFileSync(join(out, 'api/releases/1.1.0/changes.json'), 'utf8'),
    ) as ReleaseChange[];
    expect(changes.map((c) => c.type)).toEqual(['renamed']);
  });

  it('publishes a release under the base of the build, whatever base it was made with', async () => {
    const root = copyRoot(released, TMP);
    const out = join(root, '..', `${root.split('/').pop()}-dist`);
    await build(root, out, '/atlas/');
    // The JSON documents link relatively: resolved against their own URL, each link leads into the release.
    const doc = 'releases/1.0.0/api/v1/earth/CHL.json';
    const links = readFileSync(join(out, doc), 'utf8').match(/"\.\.\/[^"]*"/g) ?? [];
    expect(links.length).toBeGreaterThan(5);
    for (const link of links) {
      const url = new URL(JSON.parse(link) as string, `https://example.org/atlas/${doc}`);
      expect(url.pathname).toMatch(/^\/atlas\/releases\/1\.0\.0\//);
      const file = url.pathname.slice('/atlas/'.length);
      expect(existsSync(join(out, file.endsWith('/') ? `${file}index.html` : file)), link).toBe(true);
    }
    expect(readFileSync(join(out, 'releases/1.0.0/404.html'), 'utf8')).toContain('/atlas/releases/1.0.0/');
    await expectLinksLead(out, 'releases/1.0.0/', '/atlas/');
  });

  it('a build without any release publishes no releases', async () => {
    const root = copyDataTree(FIXTURE, TMP);
    const out = join(root, '..', `${root.split('/').pop()}-dist`);
    await build(root, out);
    const files = await listFiles(out);
    expect(files.filter((f) => f.startsWith('releases/') || f.startsWith('api/releases'))).toEqual([]);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).not.toContain('id="release"');
  });
});
