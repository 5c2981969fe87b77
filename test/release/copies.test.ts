// A CDN deploy of release N+1 uploads only its new bytes (issue 18): every
// file of releases/N+1/ that holds the bytes of a file release N published
// is made in the bucket by a server-side copy (`geoshelf release-copies`
// says which), and only the others are uploaded. Checked on two releases of
// the build fixture, the second with one CHL unit renamed, against the dist/
// that `build` writes.
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../build/build.ts';
import { releaseTransfers, type ReleaseTransfer } from '../../build/release/copies.ts';
import { readLedger } from '../../build/release/ledger.ts';
import { BIN, CHILD_BOUND_MS, cli, copyDataTree, editLevel } from '../support/cli.ts';

const FIXTURE = new URL('../fixtures/build', import.meta.url).pathname;
const TMP = join(tmpdir(), `geoshelf-copies-${process.pid}`);
const ADM1 = 'data/earth/CHL/CHL_ADM1.geojson';
const FJI = 'data/earth/FJI/FJI_ADM0.geojson';
const FJI_MOVED = 'data/earth/FJI/FJI_ADM0_2026.geojson';
let root: string;
let out: string;
let out1: string; // the build when 1.0.0 was the only release

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** Every file under `dir` with its sha256. */
async function hashes(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const file of await publishedFiles(dir)) files.set(file, sha256(join(dir, file)));
  return files;
}

/**
 * Every file a CDN serves from `dir`: its files, and those of the folders that are symbolic links
 * (a release folder identical to an earlier release's is one; rclone copies it with --copy-links).
 */
async function publishedFiles(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...(await publishedFiles(path, `${prefix}${name}/`)));
    else out.push(`${prefix}${name}`);
  }
  return prefix ? out : out.sort();
}

beforeAll(async () => {
  root = copyDataTree(FIXTURE, TMP);
  out = join(TMP, 'dist');
  out1 = join(TMP, 'dist-1.0.0');
  expect((await cli('release', '1.0.0', '--root', root)).code).toBe(0);
  expect((await buildCatalogue({ root, out: out1 })).ok).toBe(true);
  await editLevel(root, ADM1, '"Antofagasta"', '"Antofagasta Norte"');
  // FJI's file renamed, its bytes unchanged: a copy from another path.
  renameSync(join(root, FJI), join(root, FJI_MOVED));
  const fji = join(root, 'data/earth/FJI/manifest.json');
  writeFileSync(fji, readFileSync(fji, 'utf8').replace(FJI, FJI_MOVED));
  expect((await cli('manifest', '--root', root, 'CHL', 'FJI')).code).toBe(0);
  expect((await cli('release', '1.1.0', '--root', root)).code).toBe(0);
  expect((await buildCatalogue({ root, out })).ok).toBe(true);
});
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

async function transfers(base = '/'): Promise<ReleaseTransfer[]> {
  const ledger = readLedger(root);
  expect(ledger.problems).toEqual([]);
  return releaseTransfers(root, base, ledger);
}

describe('release-copies: which files of a release an earlier release already published', () => {
  it('copies are exactly the files of 1.1.0 whose published bytes 1.0.0 published, from the same path', async () => {
    const [first, second] = await transfers();
    const v1 = await hashes(join(out, 'releases/1.0.0'));
    const v2 = await hashes(join(out, 'releases/1.1.0'));
    // The first release has no earlier one: all uploads.
    expect(first!.copies).toEqual([]);
    expect(first!.uploads.map((u) => u.path)).toEqual([...v1.keys()].map((p) => `releases/1.0.0/${p}`));
    // The oracle: the bytes build wrote.
    const earlier = new Set(v1.values());
    const same = [...v2].filter(([, sha]) => earlier.has(sha)).map(([path]) => path);
    expect(second!.copies.map((c) => c.destination)).toEqual(same.map((p) => `releases/1.1.0/${p}`));
    for (const c of second!.copies) {
      expect(sha256(join(out, c.source)), c.destination).toBe(sha256(join(out, c.destination)));
      const samePath = c.destination.slice('releases/1.1.0/'.length);
      if (v1.get(samePath) === v2.get(samePath)) expect(c.source).toBe(`releases/1.0.0/${samePath}`);
      expect(c.bytes).toBe(statSync(join(out, c.destination)).size);
    }
    const uploads = second!.uploads.map((u) => u.path);
    expect([...uploads, ...second!.copies.map((c) => c.destination)].sort()).toEqual(
      [...v2.keys()].map((p) => `releases/1.1.0/${p}`).sort(),
    );
    expect(same.length).toBeGreaterThan(uploads.length); // most of the release is unchanged
  });

  it("a changed country's changed files are uploads, never copies; the unchanged countries' are copies", async () => {
    const [, second] = await transfers();
    const copied = new Set(second!.copies.map((c) => c.destination.slice('releases/1.1.0/'.length)));
    for (const changed of [ADM1, 'data/earth/CHL/manifest.json', 'earth/CHL/index.html']) {
      expect(copied.has(changed), changed).toBe(false);
      expect(second!.uploads.map((u) => u.path)).toContain(`releases/1.1.0/${changed}`);
    }
    // Its downloads are converted from the changed file (e.g. downloads/earth/CHL/CHL_ADM1.gpkg).
    const downloads = [...(await hashes(join(out, 'releases/1.1.0'))).keys()].filter(
      (p) => p.startsWith('downloads/earth/CHL/') && p.includes('ADM1'),
    );
    expect(downloads.length).toBeGreaterThan(2);
    for (const changed of downloads) expect(copied.has(changed), changed).toBe(false);
    for (const unchanged of ['earth/ANT/index.html', 'data/earth/ANT/ANT_ADM0.geojson']) {
      expect(copied.has(unchanged), unchanged).toBe(true);
    }
    expect(copied.has('data/earth/CHL/CHL_ADM0.geojson')).toBe(true); // the same country's unchanged level
  });

  it('a file moved to another path is a copy from the path the earlier release published it at', async () => {
    const [, second] = await transfers();
    expect(second!.copies.filter((c) => c.destination.includes('/data/earth/FJI/'))).toEqual([
      {
        source: `releases/1.0.0/${FJI}`,
        destination: `releases/1.1.0/${FJI_MOVED}`,
        bytes: statSync(join(root, FJI_MOVED)).size,
      },
    ]);
  });

  it('templates (rewritten per release as build publishes them) are uploads, under any base', async () => {
    const ledger = readLedger(root);
    const site = ledger.releases[1]!.site;
    const templates = site.files.filter((f) => 'template' in f && f.template).map((f) => f.path);
    expect(templates).toContain('404.html'); // it names the release's URL
    for (const base of ['/', '/atlas/']) {
      const [, second] = await transfers(base);
      const uploads = second!.uploads.map((u) => u.path);
      for (const t of templates) expect(uploads, `${base} ${t}`).toContain(`releases/1.1.0/${t}`);
    }
    // A country's API document links relatively: an unchanged country's is a copy.
    const [, second] = await transfers();
    expect(second!.copies.map((c) => c.destination)).toContain('releases/1.1.0/api/v1/earth/ANT.json');
  });

  it('the recipe, on a bucket simulated as a folder, yields dist/ byte for byte, uploading only new bytes', async () => {
    const bucket = join(TMP, 'bucket');
    const dist = await hashes(out);
    const uploaded = new Map<string, number>(); // release → bytes sent
    const deploy = async () => {
      for (const { version, copies } of await transfers()) {
        let sent = 0;
        // 1. server-side copies (bucket to bucket: nothing uploaded) of what the bucket lacks
        for (const c of copies) {
          if (existsSync(join(bucket, c.destination))) continue;
          mkdirSync(dirname(join(bucket, c.destination)), { recursive: true });
          copyFileSync(join(bucket, c.source), join(bucket, c.destination));
        }
        // 2. then every file whose key the bucket lacks (a sync that skips existing keys)
        for (const file of await publishedFiles(join(out, 'releases', version))) {
          const key = join(bucket, 'releases', version, file);
          if (existsSync(key)) continue;
          mkdirSync(dirname(key), { recursive: true });
          copyFileSync(join(out, 'releases', version, file), key);
          sent += statSync(key).size;
        }
        uploaded.set(version, sent);
      }
      // 3. the root, whole (what the root's own sync compares is not this test's concern)
      for (const file of dist.keys()) {
        if (file.startsWith('releases/')) continue;
        mkdirSync(dirname(join(bucket, file)), { recursive: true });
        copyFileSync(join(out, file), join(bucket, file));
      }
    };
    await deploy();
    expect(await hashes(bucket)).toEqual(dist);
    const [first, second] = await transfers();
    const folderBytes = async (v: string) =>
      (await publishedFiles(join(out, 'releases', v))).reduce(
        (n, f) => n + statSync(join(out, 'releases', v, f)).size,
        0,
      );
    expect(uploaded.get('1.0.0')).toBe(await folderBytes('1.0.0'));
    expect(uploaded.get('1.1.0')).toBe(second!.uploads.reduce((n, u) => n + u.bytes, 0));
    // A sync by path would send all of releases/1.1.0/.
    expect(uploaded.get('1.1.0')! + second!.copies.reduce((n, c) => n + c.bytes, 0)).toBe(
      await folderBytes('1.1.0'),
    );
    expect(uploaded.get('1.1.0')!).toBeLessThan((await folderBytes('1.1.0')) / 2);
    expect(first!.copies).toEqual([]);
    // Deploying again sends nothing for the releases.
    await deploy();
    expect([...uploaded.values()]).toEqual([0, 0]);
    expect(await hashes(bucket)).toEqual(dist);
  });
});

describe('geoshelf release-copies', () => {
  it('prints one SOURCE<TAB>DESTINATION line per copy, and a summary per release on stderr', async () => {
    const [, second] = await transfers();
    const all = await cli('release-copies', '--root', root);
    expect(all.code).toBe(0);
    expect(all.stdout).toBe(second!.copies.map((c) => `${c.source}\t${c.destination}\n`).join(''));
    expect(all.stderr).toMatch(
      /^release 1\.0\.0: 0 files \(0 B\) by server-side copy, [\d,]+ files \([\d.]+ [KM]B\) to upload\nrelease 1\.1\.0: [\d,]+ files/,
    );
    const one = await cli('release-copies', '1.1.0', '--root', root);
    expect(one.stdout).toBe(all.stdout);
    expect((await cli('release-copies', '1.0.0', '--root', root)).stdout).toBe('');
  });

  it('--json: one object per release asked for, with its copies and uploads', async () => {
    const { code, stdout } = await cli('release-copies', '1.1.0', '--root', root, '--json');
    expect(code).toBe(0);
    const [, second] = await transfers();
    expect(JSON.parse(stdout)).toEqual([second]);
  });

  it('a version the ledger lacks → exit 1, one line naming the ledger and its releases', async () => {
    const result = await cli('release-copies', '2.0.0', '--root', root);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toBe(
      `geoshelf release-copies: release 2.0.0 is not in ${root}/data/releases/: 1.0.0, 1.1.0\n`,
    );
  });

  it('a damaged ledger → exit 1, the missing file named, nothing on stdout', async () => {
    const damaged = copyDataTree(root, TMP);
    const records = join(damaged, 'data/releases/1.0.0/records');
    const lost = readdirSync(records).sort()[0]!; // e.g. "0f97….json.br"
    rmSync(join(records, lost));
    const result = await cli('release-copies', '--root', damaged);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toContain(`${damaged}/data/releases/1.0.0/release.json: /chunks/`);
    expect(result.stderr).toContain(`the ledger lost the record chunk ${lost.replace(/\.json\.br$/, '')}`);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('scripts/publish-cdn.sh (rclone stood in for by test/support/fake-rclone.mjs)', () => {
  const SCRIPT = new URL('../../scripts/publish-cdn.sh', import.meta.url).pathname;
  const FAKE = new URL('../support/fake-rclone.mjs', import.meta.url).pathname;

  /** Runs the script on `dist` against the bucket folder; returns the fake's log of this run. */
  async function publish(dist: string, bucket: string): Promise<string[]> {
    const bin = join(TMP, 'bin');
    mkdirSync(bin, { recursive: true });
    if (!existsSync(join(bin, 'rclone'))) symlinkSync(FAKE, join(bin, 'rclone'));
    const log = join(TMP, 'rclone.log');
    writeFileSync(log, '');
    await promisify(execFile)('bash', [SCRIPT, '--root', root, '--dist', dist, 'cdn:bucket'], {
      env: {
        ...process.env,
        PATH: `${bin}:${process.env.PATH}`,
        GEOSHELF: `node ${BIN}`,
        FAKE_RCLONE_BUCKET: bucket,
        FAKE_RCLONE_LOG: log,
      },
      timeout: CHILD_BOUND_MS,
      killSignal: 'SIGKILL',
    });
    return readFileSync(log, 'utf8').split('\n').filter(Boolean);
  }
  const bytesOf = (lines: string[], action: string, prefix: string) =>
    lines
      .map((l) => l.split(' '))
      .filter(([a, , key]) => a === action && key!.startsWith(prefix))
      .reduce((n, [, bytes]) => n + Number(bytes), 0);

  it(
    'release 1.1.0 after 1.0.0: its copies server-side, only its new files sent; the bucket is dist/ byte for byte',
    async () => {
      const bucket = join(TMP, 'cdn');
      const first = await publish(out1, bucket);
      expect(await hashes(join(bucket, 'bucket'))).toEqual(await hashes(out1));
      // The first release is all uploads; the root, which is that release, mostly copies of it.
      const inReleases = (l: string) => l.includes(' bucket/releases/');
      expect(first.filter(inReleases).every((l) => l.startsWith('upload '))).toBe(true);
      expect(first.filter((l) => !inReleases(l) && l.startsWith('copy ')).length).toBeGreaterThan(
        first.filter((l) => !inReleases(l) && l.startsWith('upload ')).length,
      );

      const second = await publish(out, bucket);
      expect(await hashes(join(bucket, 'bucket'))).toEqual(await hashes(out));
      const [, release] = await transfers();
      const newBytes = release!.uploads.reduce((n, u) => n + u.bytes, 0);
      expect(bytesOf(second, 'upload', 'bucket/releases/1.1.0/')).toBe(newBytes);
      expect(bytesOf(second, 'copy', 'bucket/releases/1.1.0/')).toBe(
        release!.copies.reduce((n, c) => n + c.bytes, 0),
      );
      expect(second.filter((l) => l.includes(' bucket/releases/1.0.0/'))).toEqual([]);
      expect(second.filter((l) => l.endsWith(`releases/1.1.0/${FJI_MOVED}`))).toEqual([
        `copy ${statSync(join(root, FJI_MOVED)).size} bucket/releases/1.1.0/${FJI_MOVED}`,
      ]);
      // The root: only what changed is sent (its pages name the new release), nothing under releases/ deleted.
      const rootSent = second.filter((l) => l.startsWith('upload ') && !l.includes(' bucket/releases/'));
      expect(rootSent.length).toBeGreaterThan(0);
      expect(rootSent.length).toBeLessThan(
        (await publishedFiles(out1)).filter((f) => !f.startsWith('releases/')).length / 2,
      );
      expect(second.filter((l) => l.startsWith('delete ') && l.includes(' bucket/releases/'))).toEqual([]);
      // A root file holding the bytes of the new release's at the same path is a server-side copy of it.
      for (const line of rootSent) {
        const key = line.split(' ')[2]!.slice('bucket/'.length);
        const twin = join(out, 'releases/1.1.0', key);
        if (existsSync(twin)) expect(sha256(twin), key).not.toBe(sha256(join(out, key)));
      }
      expect(second).toContain(`copy ${statSync(join(out, ADM1)).size} bucket/${ADM1}`);

      // Nothing changed: nothing sent.
      expect(await publish(out, bucket)).toEqual([]);
    },
    3 * CHILD_BOUND_MS,
  ); // three runs of the script, each bounded
});
