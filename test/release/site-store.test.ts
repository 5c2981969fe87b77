// How `release` stores its catalogue (build/release/site-store.ts): each file
// in its stored form under its sha256, once; data and built files whose
// stamp (inode, size, mtime) is the one recorded last time are known without
// being read, and a stamps file that is missing, damaged or stale, or a stored
// file deleted by hand, only makes the work be done again. Nothing outside
// data/ is stored, and what is stored is a copy, never a link.
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
import { storePlan } from '../../build/release/site-store.ts';
import type { DistPlan } from '../../build/output/write-dist.ts';

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const ADM1 = 'data/earth/CHL/CHL_ADM1.geojson';
const PAGE = `<a href="${BASE_MARK}earth/CHL/">Chile</a>`;

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'geoshelf-site-store-'));
  mkdirSync(join(root, 'data/earth/CHL'), { recursive: true });
  writeFileSync(join(root, ADM1), '{"type":"FeatureCollection","features":[]}');
  writeFileSync(join(root, 'built.zip'), Buffer.from([80, 75, 5, 6]));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const plan = (): DistPlan => ({
  generated: new Map<string, string | Buffer>([
    ['earth/CHL/index.html', PAGE],
    ['earth/CHL/copy.html', Buffer.from(PAGE)], // the same page as bytes: the same stored file
    ['tiles/x.pmtiles', Buffer.from([0, 1, 2, 255])],
  ]),
  data: [ADM1],
  built: new Map([['downloads/CHL.zip', join(root, 'built.zip')]]),
});

/** Stores `plan()` into a new folder; returns the files and what was written there. */
async function store(stored = new Set<string>(), folder = `into-${Math.random()}`) {
  const into = join(root, folder);
  mkdirSync(into);
  const kept = await storePlan(root, plan(), into, stored, join(root, 'stamps.json'));
  return { ...kept, into, written: readdirSync(into).sort() };
}

describe('storing a release catalogue', () => {
  it('stores each content once under its sha256, a page as text or bytes alike, sorted by path', async () => {
    const { files, stats, into, written } = await store();
    const relative = '<a href="../../earth/CHL/">Chile</a>';
    expect(files).toEqual([
      { path: ADM1, sha256: sha256(readFileSync(join(root, ADM1))), bytes: 42 },
      { path: 'downloads/CHL.zip', sha256: sha256(Buffer.from([80, 75, 5, 6])), bytes: 4 },
      { path: 'earth/CHL/copy.html', sha256: sha256(relative), bytes: relative.length },
      { path: 'earth/CHL/index.html', sha256: sha256(relative), bytes: relative.length },
      { path: 'tiles/x.pmtiles', sha256: sha256(Buffer.from([0, 1, 2, 255])), bytes: 4 },
    ]);
    expect(written).toEqual([...new Set(files.map((f) => f.sha256))].sort());
    for (const f of files) expect(sha256(readFileSync(join(into, f.sha256)))).toBe(f.sha256);
    expect(stats).toMatchObject({ files: 5, written: 4, reused: 1, dataBytesCopied: 42 });
    expect(statSync(join(into, files[0]!.sha256)).nlink).toBe(1); // a copy, never a link
  });

  it('an unchanged data or built file is known by its stamp, not read again', async () => {
    const when = new Date('2026-01-01T00:00:00Z'); // a time every file system keeps exactly
    utimesSync(join(root, ADM1), when, when);
    const first = await store();
    const stored = new Set(first.files.map((f) => f.sha256));
    // Other bytes now, but the same inode, size and mtime: the stamp's sha256 stands, the file unread.
    writeFileSync(join(root, ADM1), '{"type":"FeatureCollection","features":{}}');
    utimesSync(join(root, ADM1), when, when);
    const again = await store(stored);
    expect(again.files).toEqual(first.files);
    expect(again.written).toEqual([]);
  });

  it('a stale stamp (the file changed) → read again', async () => {
    const first = await store();
    writeFileSync(join(root, ADM1), '{"type":"FeatureCollection","features":[ ]}');
    const again = await store(new Set(first.files.map((f) => f.sha256)));
    const adm1 = again.files.find((f) => f.path === ADM1)!;
    expect(adm1.sha256).toBe(sha256(readFileSync(join(root, ADM1))));
    expect(again.written).toEqual([adm1.sha256]);
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
    expect(again.written).toEqual([adm1.sha256]);
  });

  it('a generated file made otherwise at the same path (a stale stamp) → its stored form worked out again', async () => {
    const first = await store();
    const page = first.files.find((f) => f.path === 'earth/CHL/index.html')!;
    const changed = plan();
    changed.generated.set('earth/CHL/index.html', PAGE.replace('Chile', 'Chili'));
    const into = join(root, 'again');
    mkdirSync(into);
    const stored = new Set(first.files.map((f) => f.sha256));
    const again = await storePlan(root, changed, into, stored, join(root, 'stamps.json'));
    const relative = '<a href="../../earth/CHL/">Chili</a>';
    expect(again.files.find((f) => f.path === 'earth/CHL/index.html')).toEqual({
      path: 'earth/CHL/index.html',
      sha256: sha256(relative),
      bytes: relative.length,
    });
    expect(sha256(relative)).not.toBe(page.sha256);
    expect(readdirSync(into)).toEqual([sha256(relative)]);
  });

  it('stamps another code made (a lib/ compiled from other sources) are not trusted', async () => {
    const first = await store();
    const stamps = JSON.parse(readFileSync(join(root, 'stamps.json'), 'utf8')) as {
      code: string;
      generated: Record<string, { sha256: string }>;
      sources: Record<string, { sha256: string }>;
    };
    // Wrong sha256s that the ledger holds: trusted, they would be recorded.
    const other = first.files.find((f) => f.path === 'tiles/x.pmtiles')!.sha256;
    for (const stamp of [...Object.values(stamps.generated), ...Object.values(stamps.sources)]) {
      stamp.sha256 = other;
    }
    writeFileSync(join(root, 'stamps.json'), JSON.stringify({ ...stamps, code: 'another' }));
    expect((await store(new Set(first.files.map((f) => f.sha256)))).files).toEqual(first.files);
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
