import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../build/build.ts';
import type { Manifest } from '../../build/core/shared/manifest.ts';
import { UserError } from '../../src/cli/command.ts';
import { copyRoot } from '../support/cli.ts';
import { filesUnder, fixtureCopy, sha256, snapshot } from './helpers.ts';

const roots: string[] = [];
function scratch(): string {
  const root = fixtureCopy();
  roots.push(root);
  return root;
}
const TMP = join(tmpdir(), `geoshelf-build-test-${process.pid}`);
afterAll(() => {
  roots.forEach((root) => rmSync(root, { recursive: true, force: true }));
  rmSync(TMP, { recursive: true, force: true });
});

// The fixture built once with the defaults (`built`, its dist/ and caches), and once with
// --base /geo/ --site-url (`absolute`): the tests that only read a build read these; a test
// that changes a tree works on its own copy of `built` (copyRoot).
let built: string;
let cold: Awaited<ReturnType<typeof build>>;
let absolute: string;
beforeAll(async () => {
  built = scratch();
  cold = await build(built);
  absolute = scratch();
  const result = await buildCatalogue({
    root: absolute,
    out: join(absolute, 'dist'),
    base: '/geo/',
    siteUrl: 'https://example.org',
  });
  expect(result.ok).toBe(true);
}, 120_000); // a bound for a hang only

async function build(root: string, options: { out?: string; base?: string } = {}) {
  const result = await buildCatalogue({ root, out: options.out ?? join(root, 'dist'), base: options.base });
  if (!result.ok) throw new Error(`build failed: ${JSON.stringify(result.problems)}`);
  return result;
}

function manifests(root: string): { file: string; manifest: Manifest }[] {
  return filesUnder(join(root, 'data'))
    .filter((f) => f.endsWith('manifest.json'))
    .map((f) => ({
      file: `data/${f}`,
      manifest: JSON.parse(readFileSync(join(root, 'data', f), 'utf8')) as Manifest,
    }));
}

describe('geoshelf build', () => {
  it('published files are byte-identical: sha256 and bytes equal the manifests', () => {
    const root = built;
    let checked = 0;
    for (const { file, manifest } of manifests(root)) {
      expect(readFileSync(join(root, 'dist', file))).toEqual(readFileSync(join(root, file)));
      for (const d of manifest.datasets) {
        for (const f of [...(d.path ? [d] : []), ...(d.parts ?? [])]) {
          const bytes = readFileSync(join(root, 'dist', f.path!));
          expect(sha256(bytes), f.path).toBe(f.sha256);
          expect(bytes.length).toBe(f.bytes);
          checked++;
        }
        if (d.preview) expect(readFileSync(join(root, 'dist', d.preview)).length).toBe(d.preview_bytes);
      }
    }
    expect(checked).toBe(7); // CHL ADM0, ADM1 and 3 ADM2 parts; FJI ADM0; ANT ADM0
  });

  it('a failing manifest → every problem returned, dist/ untouched (bytes, mtime, inode)', async () => {
    const root = copyRoot(built, TMP);
    const out = join(root, 'dist');
    const before = snapshot(out);
    const file = join(root, 'data/earth/CHL/manifest.json');
    const m = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
    m.datasets[0].bytes = 1;
    m.datasets[1].sha256 = '0'.repeat(64);
    writeFileSync(file, JSON.stringify(m, null, 2));
    const result = await buildCatalogue({ root, out });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => `${p.file}: ${p.pointer}: ${p.severity}`)).toEqual([
      'data/earth/CHL/manifest.json: /datasets/0/bytes: error',
      'data/earth/CHL/manifest.json: /datasets/1/sha256: error',
      // the fixture's boxes do not nest in their country (nesting: one summary per pair of
      // levels, a line for the unit outside every parent), and its Fiji has a bow-tie
      // (geometry): warnings, listed with the errors
      'data/earth/CHL/CHL_ADM1.geojson: undefined: warning',
      'data/earth/CHL/ADM2/unassigned.geojson: /features/0: warning',
      'data/earth/CHL/ADM2/CL-AN.geojson: undefined: warning',
      'data/earth/FJI/FJI_ADM0.geojson: /features/0/geometry/coordinates/4/0: warning',
    ]);
    expect(snapshot(out)).toEqual(before);
    expect(readdirSync(root).filter((name) => name.startsWith('.dist'))).toEqual([]);
  });

  it('CLI: exit 0 and a one-line summary (manifests, datasets, files, bytes, time); warnings counted on stderr', () => {
    const root = copyRoot(built, TMP); // its caches kept: the child converts nothing again
    const run = spawnSync(
      process.execPath,
      ['bin/geoshelf.js', 'build', '--root', root, '--out', join(root, 'site')],
      {
        encoding: 'utf8',
      },
    );
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(
      /^built .*site\/: 3 manifests, 5 datasets, (\d+) files, [\d.]+ KB, in [\d.]+ s \(\1 written, 0 unchanged; \d+ GeoJSON files read\)\n$/,
    );
    // Not a terminal: no progress. Fiji's invalid geometry and the CHL boxes that
    // do not nest are warnings: built anyway.
    expect(run.stderr).toBe(
      'geoshelf build: 4 warning(s) in 4 file(s) (geometry, nesting); published anyway (geoshelf validate lists them)\n',
    );
  });

  it('a failing manifest and no dist/ yet → nothing is created', async () => {
    const root = scratch();
    writeFileSync(join(root, 'data/earth/FJI/manifest.json'), '{"schema_version": 2}');
    const result = await buildCatalogue({ root, out: join(root, 'dist') });
    expect(result.ok).toBe(false);
    expect(readdirSync(root).sort()).toEqual(['data']);
  });

  it('no-op rebuild reads no GeoJSON byte and rewrites no file (same inodes)', async () => {
    const root = built; // rebuilt in place: nothing changes (what this test checks)
    const out = join(root, 'dist');
    expect(cold.geojsonFilesRead).toBeGreaterThan(0);
    const before = snapshot(out);
    const again = await build(root);
    expect(again.geojsonFilesRead).toBe(0);
    expect(again.geojsonBytesRead).toBe(0);
    expect(again.write.written).toBe(0);
    expect(again.write.reused).toBe(again.write.files);
    expect(snapshot(out)).toEqual(before);
  });

  it("the atlas cache is a file per country: one whose data changed is the only one rewritten, a damaged one is read again, a removed country's goes", async () => {
    const root = copyRoot(built, TMP);
    const out = join(root, 'dist');
    const dir = join(root, '.cache/geoshelf/atlas');
    const inodes = () => Object.fromEntries(readdirSync(dir).map((f) => [f, statSync(join(dir, f)).ino]));
    await build(root);
    const pages = Object.fromEntries(filesUnder(out).map((f) => [f, sha256(readFileSync(join(out, f)))]));
    const first = inodes();
    expect(Object.keys(first)).toEqual(['earth.ANT.json', 'earth.CHL.json', 'earth.FJI.json']);
    // Touched (same bytes, new mtime): FJI's units are read again, and only its cache file is written.
    const fji = join(root, 'data/earth/FJI/FJI_ADM0.geojson');
    utimesSync(fji, new Date(), new Date(Date.now() + 5000));
    expect((await build(root)).geojsonFilesRead).toBeGreaterThan(0);
    const second = inodes();
    expect(second['earth.FJI.json']).not.toBe(first['earth.FJI.json']);
    expect({ ...second, 'earth.FJI.json': 0 }).toEqual({ ...first, 'earth.FJI.json': 0 });
    // Damaged: CHL's files are read again, and the catalogue is the same.
    writeFileSync(join(dir, 'earth.CHL.json'), '{"units data/earth/CHL/CHL_ADM1.geojson": 5');
    rmSync(out, { recursive: true });
    const again = await build(root);
    expect(again.geojsonFilesRead).toBeGreaterThan(0);
    expect(Object.fromEntries(filesUnder(out).map((f) => [f, sha256(readFileSync(join(out, f)))]))).toEqual(
      pages,
    );
    expect(JSON.parse(readFileSync(join(dir, 'earth.CHL.json'), 'utf8'))).toBeTypeOf('object');
    rmSync(join(root, 'data/earth/ANT'), { recursive: true });
    await build(root);
    expect(Object.keys(inodes())).toEqual(['earth.CHL.json', 'earth.FJI.json']);
  });

  it('a file deleted or edited in dist/ → the next build puts it back', async () => {
    const root = copyRoot(built, TMP);
    const out = join(root, 'dist');
    await build(root);
    const before = readFileSync(join(out, 'earth/CHL/index.html'));
    rmSync(join(out, 'data/earth/FJI/FJI_ADM0.geojson'));
    writeFileSync(join(out, 'earth/CHL/index.html'), 'defaced');
    const result = await build(root);
    // The page and the data file, and the data file's second name in downloads/earth/FJI/ (one inode:
    // unlinking one name changed the other's change time, so it no longer matches its stamp).
    expect(result.write.written).toBe(3);
    expect(readFileSync(join(out, 'earth/CHL/index.html'))).toEqual(before);
    // Compared whole (toEqual on two Buffers compares them byte by byte through expect: ~0.5 s).
    const back = readFileSync(join(out, 'data/earth/FJI/FJI_ADM0.geojson'));
    expect(back.equals(readFileSync(join(root, 'data/earth/FJI/FJI_ADM0.geojson')))).toBe(true);
  });

  it('changed manifest → only the files that depend on it are rewritten', async () => {
    const root = copyRoot(built, TMP);
    const out = join(root, 'dist');
    await build(root);
    const file = join(root, 'data/earth/ANT/manifest.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('kept for', 'still kept for'));
    const result = await build(root);
    const after = snapshot(out);
    // The manifest, its page, its API document, the country archive (which holds the manifest) with
    // its SHA256SUMS and datapackage.json, and its STAC collection (both give the archive's checksum);
    // the level's other formats, its STAC item and its simplified copies come from the cache (same
    // source sha256).
    expect(result.write.written).toBe(7);
    expect(Object.keys(after).filter((f) => f.startsWith('downloads/earth/ANT/')).length).toBe(12);
    expect(after['earth/ANT/index.html']).toContain(sha256(readFileSync(join(out, 'earth/ANT/index.html'))));
    expect(readFileSync(join(out, 'earth/ANT/index.html'), 'utf8')).toContain('still kept for');
    expect(result.geojsonFilesRead).toBe(0);
  });

  it('--base /sub/ → every link and asset starts with /sub/ and points to a published file', async () => {
    // A copy of `built`, its caches warm, into a folder of its own: only the pages differ by base.
    const root = copyRoot(built, TMP);
    const out = join(root, 'dist-sub');
    await build(root, { base: '/sub', out });
    const published = new Set(filesUnder(out));
    const urls: string[] = [];
    for (const page of [...published].filter((f) => f.endsWith('.html'))) {
      const text = readFileSync(join(out, page), 'utf8');
      for (const match of text.matchAll(/\b(?:href|src)="([^"]*)"/g)) urls.push(match[1]);
    }
    const api = readFileSync(join(out, 'api/v1/index.json'), 'utf8');
    for (const match of api.matchAll(/"(\/[^"]*)"/g)) urls.push(match[1]);
    const internal = urls.filter((u) => !/^(https?:|data:|#)/.test(u));
    expect(internal.length).toBeGreaterThan(50);
    for (const url of internal) {
      expect(url, url).toMatch(/^\/sub\//);
      const path = url.slice('/sub/'.length).replace(/[?#].*/, ''); // e.g. the breadcrumb's ?body=earth
      const file = path === '' || path.endsWith('/') ? `${path}index.html` : path;
      expect(published.has(file), `${url} → ${file}`).toBe(true);
    }
  });

  it('publishes the manifest schema, robots.txt, sitemap.xml and 404.html', () => {
    const out = join(built, 'dist');
    expect(JSON.parse(readFileSync(join(out, 'schema/manifest.v1.json'), 'utf8'))).toHaveProperty(
      'properties',
    );
    expect(readFileSync(join(out, 'sitemap.xml'), 'utf8')).toContain('<loc>/earth/CHL/</loc>');
    expect(readFileSync(join(out, 'robots.txt'), 'utf8')).toContain('User-agent: *');
    expect(readFileSync(join(out, '404.html'), 'utf8')).toContain('<h1>Not found</h1>');
  });

  it('--site-url → every URL in the JSON API is absolute (index, country documents, units)', () => {
    const out = join(absolute, 'dist');
    type Doc = Record<string, unknown> & { entries?: Doc[]; datasets?: Doc[]; urls?: Doc[]; parts?: Doc[] };
    const read = (file: string) => JSON.parse(readFileSync(join(out, file), 'utf8')) as Doc;
    const links = (d: Doc) => ['page', 'api', 'manifest', 'url', 'preview_url'].map((k) => d[k]);
    const index = read('api/v1/index.json');
    const chile = read('api/v1/earth/CHL.json');
    const units = Object.values(chile.units as Record<string, Doc[]>).flat();
    const urls = [
      ...index.entries!.flatMap((e) => [...links(e), ...e.datasets!.flatMap(links)]),
      ...links(chile),
      ...chile.urls!.flatMap((u) => [...links(u), ...(u.parts ?? []).flatMap(links)]),
      ...units.map((u) => u.page),
    ].filter((u): u is string => typeof u === 'string');
    expect(urls.length).toBeGreaterThan(20);
    for (const url of urls) expect(url).toMatch(/^https:\/\/example\.org\/geo\//);
    expect(urls).toContain('https://example.org/geo/earth/CHL/#unit-CL-RM');
  });

  it('--site-url → sitemap.xml has absolute URLs and robots.txt points to it', () => {
    const out = join(absolute, 'dist');
    expect(readFileSync(join(out, 'sitemap.xml'), 'utf8')).toContain(
      '<loc>https://example.org/geo/earth/FJI/</loc>',
    );
    expect(readFileSync(join(out, 'robots.txt'), 'utf8')).toContain(
      'Sitemap: https://example.org/geo/sitemap.xml',
    );
  });

  it('a tree an interrupted build left beside dist/ (older than an hour) is removed', async () => {
    const root = copyRoot(built, TMP);
    const stale = join(root, '.dist-build-0badc0de');
    mkdirSync(stale);
    writeFileSync(join(stale, 'index.html'), 'half');
    utimesSync(stale, new Date(Date.now() - 7_200_000), new Date(Date.now() - 7_200_000));
    await build(root);
    expect(existsSync(stale)).toBe(false);
  });

  it('--out that is not a previous build and not empty → refused, left alone', async () => {
    const root = scratch();
    const out = join(root, 'precious');
    mkdirSync(out);
    writeFileSync(join(out, 'notes.txt'), 'keep me');
    await expect(buildCatalogue({ root, out })).rejects.toThrow(UserError);
    await expect(buildCatalogue({ root, out: root })).rejects.toThrow(/would replace the root/);
    await expect(buildCatalogue({ root, out: join(root, 'data', 'x') })).rejects.toThrow(
      /inside the data folder/,
    );
    expect(readFileSync(join(out, 'notes.txt'), 'utf8')).toBe('keep me');
    expect(existsSync(join(root, 'data', 'x'))).toBe(false);
  });
});
