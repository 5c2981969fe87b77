// The country tiles' cache index (build/tiles/tiles-index.ts): a build finds
// cached archives by the index and one stat each, publishes them from the
// cache, cuts again what was lost or damaged, and removes what no build uses.
// A damaged or hostile index is read as empty, never trusted. The fixture is
// built once; each test builds a copy of that root (its caches with it).
import {
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../build/build.ts';
import { codeIdentity } from '../../build/core/cache.ts';
import { fixtureCopy, sha256 } from '../build/helpers.ts';

const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

let built: string; // the fixture, built once: its tiles cut and indexed
beforeAll(async () => {
  built = fixtureCopy();
  roots.push(built);
  await build(built);
}, 120_000); // a bound for a hang only

/** Returns a copy of the built fixture (data/, dist/ and caches), for one test to change. */
function builtCopy(): string {
  const root = mkdtempSync(`${built}-copy-`);
  roots.push(root);
  cpSync(built, root, { recursive: true });
  return root;
}

/** Builds `root` into a fresh dist/; returns its tile archives by path (sha256) and the GeoJSON files the build read. */
async function build(root: string): Promise<{ archives: Record<string, string>; read: number }> {
  const out = join(root, 'dist');
  rmSync(out, { recursive: true, force: true }); // a full build, not "dist/ is already the result"
  const built = await buildCatalogue({ root, out });
  if (!built.ok) throw new Error(built.problems[0]!.message);
  const archives: Record<string, string> = {};
  for (const entry of readdirSync(out, { recursive: true }) as string[])
    if (entry.endsWith('.pmtiles') && !entry.startsWith('assets'))
      archives[entry] = sha256(readFileSync(join(out, entry)));
  return { archives, read: built.geojsonFilesRead };
}

const tilesDir = (root: string) => join(root, '.cache/geoshelf/tiles');
const index = (root: string) => join(tilesDir(root), 'index.json');
const levelFiles = (root: string) => readdirSync(tilesDir(root)).filter((f) => /^[0-9a-f]{32}\./.test(f));

describe('tiles cache index', () => {
  it('a second build takes every archive from the index, publishes the same bytes, and leaves the index unwritten', async () => {
    const root = builtCopy();
    const first = await build(root);
    expect(Object.keys(first.archives).length).toBeGreaterThan(1);
    const listed = JSON.parse(readFileSync(index(root), 'utf8')) as { data: Record<string, unknown> };
    expect(Object.keys(listed.data).length).toBe(levelFiles(root).length / 2);
    const { ino, mtimeMs } = statSync(index(root));
    const second = await build(root);
    expect(second.archives).toEqual(first.archives);
    expect(second.read).toBe(0);
    expect(statSync(index(root))).toMatchObject({ ino, mtimeMs });
  });

  it('an archive deleted or cut short by hand is cut again, and the same bytes are published', async () => {
    const root = builtCopy();
    const first = await build(root);
    const archives = levelFiles(root).filter((f) => f.endsWith('.pmtiles'));
    rmSync(join(tilesDir(root), archives[0]!));
    truncateSync(join(tilesDir(root), archives[1]!), 10);
    const again = await build(root);
    expect(again.read).toBeGreaterThan(0);
    expect(again.archives).toEqual(first.archives);
  });

  it.each([
    ['garbage', () => `{"stamp":"${codeIdentity()}","data":`],
    ['of other code', () => '{"stamp":"another","data":{}}'],
    ['levels not an object', () => `{"stamp":"${codeIdentity()}","data":[1,2]}`],
  ])(
    'a damaged index (%s) is read as empty: the records are read, nothing is cut, the same bytes are published',
    async (_, spoiled) => {
      const root = builtCopy();
      const first = await build(root);
      const whole = readFileSync(index(root), 'utf8');
      writeFileSync(index(root), spoiled());
      const again = await build(root);
      expect(again.read).toBe(0);
      expect(again.archives).toEqual(first.archives);
      expect(JSON.parse(readFileSync(index(root), 'utf8'))).toEqual(JSON.parse(whole));
    },
  );

  it('a hostile entry (wrong size, bad numbers, a key that is no key, __proto__) is never trusted', async () => {
    const root = builtCopy();
    const first = await build(root);
    const whole = JSON.parse(readFileSync(index(root), 'utf8')) as {
      stamp: string;
      data: Record<string, { bytes: number; tiles: Record<string, unknown> }>;
    };
    const [key, entry] = Object.entries(whole.data)[0]!;
    const [key2, entry2] = Object.entries(whole.data)[1]!;
    const hostile = {
      stamp: whole.stamp,
      data: {
        [key]: { ...entry, bytes: entry.bytes + 1, tiles: { ...entry.tiles, levels: 30 } },
        [key2]: { ...entry2, tiles: { ...entry2.tiles, root: ['0', 0, 1] } },
        '../../../etc/passwd': entry,
        __proto__: entry,
      },
    };
    writeFileSync(index(root), JSON.stringify(hostile));
    const again = await build(root);
    expect(again.read).toBe(0);
    expect(again.archives).toEqual(first.archives);
    expect(JSON.parse(readFileSync(index(root), 'utf8'))).toEqual(whole);
  });

  it("archives and records no build uses are removed; the world map's are left to it", async () => {
    const root = builtCopy();
    await build(root);
    const stale = join(tilesDir(root), `${'a'.repeat(32)}.pmtiles`);
    writeFileSync(stale, 'PMTiles');
    writeFileSync(`${stale.slice(0, -'.pmtiles'.length)}.json`, '{}');
    const world = readdirSync(tilesDir(root)).filter((f) => f.startsWith('world-'));
    await build(root);
    expect(readdirSync(tilesDir(root)).filter((f) => f.startsWith('aaaa'))).toEqual([]);
    expect(readdirSync(tilesDir(root)).filter((f) => f.startsWith('world-'))).toEqual(world);
  });
});
