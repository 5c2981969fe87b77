// How `release` stores its catalogue (build/release/store.ts): each file in
// its stored form under its sha256, once, a country's small files packed
// together; data and built files whose stamp (inode, size, modification and
// change time) is the one recorded last time are known without being read,
// and a stamps file that is missing, damaged or stale, or a stored file
// deleted by hand, only makes the work be done again. Nothing outside data/
// is stored, what is stored is a copy, never a link, and bytes that are not
// those validate measured are a problem.
import { createHash } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BASE_MARK } from '../../build/release/ledger.ts';
import { PACK_INDEX, packMembers, readObject, type StoredObject } from '../../build/release/object-store.ts';
import { storePlan } from '../../build/release/store.ts';
import type { DistPlan } from '../../build/output/write-dist.ts';

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const ADM1 = 'data/earth/CHL/CHL_ADM1.geojson';
const ADM1_TEXT = '{"type":"FeatureCollection","features":[]}';
const PAGE = `<a href="${BASE_MARK}earth/CHL/">Chile</a>`;
const ZIP = Buffer.from([80, 75, 5, 6]);

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'geoshelf-store-'));
  mkdirSync(join(root, 'data/earth/CHL'), { recursive: true });
  writeFileSync(join(root, ADM1), ADM1_TEXT);
  writeFileSync(join(root, 'built.zip'), ZIP);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const plan = (adm1 = sha256(ADM1_TEXT)): DistPlan => ({
  generated: new Map<string, string | Buffer>([
    ['earth/CHL/index.html', PAGE],
    ['earth/CHL/copy.html', Buffer.from(PAGE)], // the same page as bytes: the same stored file
    ['tiles/x.pmtiles', Buffer.from([0, 1, 2, 255])],
  ]),
  data: new Map([[ADM1, adm1]]),
  built: new Map([['downloads/earth/CHL/CHL.zip', { from: join(root, 'built.zip'), sha256: sha256(ZIP) }]]),
});

/** Returns every content stored in `dir` (an objects/ folder), by sha256, each read back and checked. */
async function objectsIn(dir: string): Promise<Map<string, Buffer>> {
  const found = new Map<string, StoredObject>();
  for (const name of readdirSync(dir)) {
    const pack = PACK_INDEX.exec(name)?.[1];
    if (pack) {
      const members = packMembers(readFileSync(join(dir, name), 'utf8'));
      if (typeof members === 'string') throw new Error(members);
      for (const [sha, offset, bytes] of members)
        found.set(sha, { path: join(dir, `pack-${pack}.br`), encoding: 'pack', offset, bytes });
    } else if (/^[0-9a-f]{64}(\.br)?$/.test(name)) {
      found.set(name.slice(0, 64), { path: join(dir, name), encoding: name.endsWith('.br') ? 'br' : 'raw' });
    }
  }
  const out = new Map<string, Buffer>();
  for (const [sha, object] of found) out.set(sha, await readObject('/', sha, object));
  return out;
}

/** Stores `what` into a new objects folder; returns what storing gave and the contents it wrote. */
async function store(stored = new Set<string>(), what = plan()) {
  const into = join(root, `objects-${Math.random()}`);
  mkdirSync(into);
  const kept = await storePlan(root, what, into, stored, join(root, 'stamps.json'));
  return { ...kept, into, contents: await objectsIn(into) };
}

describe('storing a release catalogue', () => {
  it('stores each content once under its sha256, a page as text or bytes alike, sorted by path', async () => {
    const { files, problems, contents, into } = await store();
    const relative = '<a href="../../earth/CHL/">Chile</a>';
    expect(problems).toEqual([]);
    expect(files).toEqual([
      { path: ADM1, sha256: sha256(ADM1_TEXT), bytes: ADM1_TEXT.length },
      { path: 'downloads/earth/CHL/CHL.zip', sha256: sha256(ZIP), bytes: 4 },
      { path: 'earth/CHL/copy.html', sha256: sha256(relative), bytes: relative.length },
      { path: 'earth/CHL/index.html', sha256: sha256(relative), bytes: relative.length },
      { path: 'tiles/x.pmtiles', sha256: sha256(Buffer.from([0, 1, 2, 255])), bytes: 4 },
    ]);
    expect([...contents.keys()].sort()).toEqual([...new Set(files.map((f) => f.sha256))].sort());
    // Packed by country; a zip (compressed already) stored alone, as it is, and a copy, never a link.
    const names = readdirSync(into);
    expect(names.filter((n) => PACK_INDEX.test(n))).toHaveLength(2); // earth/CHL, and the site's own files
    expect(names).toContain(sha256(ZIP));
    expect(statSync(join(into, sha256(ZIP))).nlink).toBe(1);
  });

  it('an unchanged data or built file is known by its stamp, not read again', async () => {
    const first = await store();
    const stored = new Set(first.files.map((f) => f.sha256));
    const again = await store(stored);
    expect(again.files).toEqual(first.files);
    expect(again.contents.size).toBe(0);
  });

  it('an edit that keeps inode, size and mtime is read again (the change time moved), and is a problem when validate measured other bytes', async () => {
    const when = new Date('2026-01-01T00:00:00Z'); // a time every file system keeps exactly
    utimesSync(join(root, ADM1), when, when);
    const first = await store();
    const stored = new Set(first.files.map((f) => f.sha256));
    writeFileSync(join(root, ADM1), ADM1_TEXT.replace('[]', '{}')); // same length
    utimesSync(join(root, ADM1), when, when);
    const again = await store(stored);
    expect(again.problems).toEqual([
      expect.objectContaining({
        file: ADM1,
        rule: 'file-changed',
        message: expect.stringMatching(/^changed while release read it/),
      }),
    ]);
  });

  it('a stale stamp (the file changed, as validate measured) → read again and stored', async () => {
    const first = await store();
    const text = '{"type":"FeatureCollection","features":[ ]}';
    writeFileSync(join(root, ADM1), text);
    const again = await store(new Set(first.files.map((f) => f.sha256)), plan(sha256(text)));
    expect(again.files.find((f) => f.path === ADM1)!.sha256).toBe(sha256(text));
    expect([...again.contents.keys()]).toEqual([sha256(text)]);
  });

  it('a missing or damaged stamps file → every file read, the same result', async () => {
    const first = await store();
    for (const stamps of [undefined, '{"', '[]', 'null']) {
      if (stamps === undefined) rmSync(join(root, 'stamps.json'));
      else writeFileSync(join(root, 'stamps.json'), stamps);
      expect((await store()).files).toEqual(first.files);
    }
  });

  it('a stamp whose stored file the ledger no longer holds → read and stored again', async () => {
    const first = await store();
    const adm1 = first.files.find((f) => f.path === ADM1)!;
    const stored = new Set(first.files.map((f) => f.sha256).filter((s) => s !== adm1.sha256));
    const again = await store(stored);
    expect(again.files).toEqual(first.files);
    expect([...again.contents.keys()]).toEqual([adm1.sha256]);
  });

  it('a generated file made otherwise at the same path (a stale stamp) → its stored form worked out again', async () => {
    const first = await store();
    const changed = plan();
    changed.generated.set('earth/CHL/index.html', PAGE.replace('Chile', 'Chili'));
    const again = await store(new Set(first.files.map((f) => f.sha256)), changed);
    const relative = '<a href="../../earth/CHL/">Chili</a>';
    expect(again.files.find((f) => f.path === 'earth/CHL/index.html')).toEqual({
      path: 'earth/CHL/index.html',
      sha256: sha256(relative),
      bytes: relative.length,
    });
    expect([...again.contents.keys()]).toEqual([sha256(relative)]);
  });

  it('stamps another code made (a lib/ compiled from other sources) are not trusted', async () => {
    const first = await store();
    const stamps = JSON.parse(readFileSync(join(root, 'stamps.json'), 'utf8')) as {
      stamp: string;
      data: { generated: Record<string, { sha256: string }>; sources: Record<string, { sha256: string }> };
    };
    // Wrong sha256s that the ledger holds: trusted, they would be recorded.
    const other = first.files.find((f) => f.path === 'tiles/x.pmtiles')!.sha256;
    for (const stamp of [...Object.values(stamps.data.generated), ...Object.values(stamps.data.sources)]) {
      stamp.sha256 = other;
    }
    writeFileSync(join(root, 'stamps.json'), JSON.stringify({ ...stamps, stamp: 'another' }));
    expect((await store(new Set(first.files.map((f) => f.sha256)))).files).toEqual(first.files);
  });

  it('a generated page holding a mark that came from the data is a problem, not a template', async () => {
    const marked = plan();
    marked.generated.set('earth/FJI/index.html', `<h1>Fiji geoshelf-release-version-8c1e0f</h1>`);
    const { problems } = await store(new Set(), marked);
    expect(problems).toEqual([
      expect.objectContaining({ rule: 'release-base-mark', file: 'releases/VERSION/earth/FJI/index.html' }),
    ]);
  });

  it('a data file linked outside data/ is refused (link-outside), whatever its stamp says', async () => {
    await store();
    writeFileSync(join(root, 'secret.geojson'), '{"token":"secret"}');
    rmSync(join(root, ADM1));
    symlinkSync(join(root, 'secret.geojson'), join(root, ADM1));
    await expect(store()).rejects.toMatchObject({
      problems: [expect.objectContaining({ file: ADM1, rule: 'link-outside' })],
    });
  });
});
