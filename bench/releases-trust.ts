// bench:releases, storage against the change (issue 26): the sample data
// (data/, copied to a scratch root) released as a publisher does it, with
// the CLI, and `du -sb` over the ledger (data/releases/) and over dist/
// (what a host stores: hard links counted once, a symbolic link as itself)
// after each step:
//
// 1. the first release: the ledger against the bytes under data/earth/
//    (target ≤ 1.5×);
// 2. one country changed (a unit renamed in its ADM1 file, then `manifest`
//    and `preview`, as docs/manifests.md's round): what the ledger and dist/
//    grow by, against the bytes of the publisher's files the change altered
//    (the ADM1 file, its preview, the manifest) (target ≤ 1.5× each), and
//    against the bytes of the country's own published files it altered
//    (its page, files, downloads and API documents), and against the bytes of the
//    catalogue's files it altered (the files of
//    dist/ outside releases/ that the next build writes with other bytes:
//    the GeoJSON, its downloads, pages, API documents and search files);
// 3. a release with no change (--allow-empty): what both grow by, against
//    the bytes under data/earth/ (target ≤ 1 %).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const SAMPLE = new URL('../data', import.meta.url).pathname;
const BIN = new URL('../bin/geoshelf.js', import.meta.url).pathname;
const CHANGED = process.env.GEOSHELF_BENCH_COUNTRY ?? 'URY'; // a country with an ADM1 file and a preview
const load = () => `load ${loadavg()[0]!.toFixed(2)}`;
const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Runs `geoshelf ARGS… --root ROOT`, bounded; throws unless it exits 0. Returns its wall seconds. */
function geoshelf(root: string, ...args: string[]): number {
  const t0 = performance.now();
  const run = spawnSync('node', [BIN, ...args, '--root', root], {
    timeout: 1_800_000,
    killSignal: 'SIGKILL',
    maxBuffer: 64 << 20,
  });
  if (run.status !== 0)
    throw new Error(`geoshelf ${args.join(' ')}: exit ${run.status}\n${String(run.stderr)}`);
  return (performance.now() - t0) / 1000;
}

/** Returns `du -sb PATH` (`-L`: following symbolic links, as a bucket stores them): the bytes a folder holds, each inode once. */
function du(path: string, follow = false): number {
  const run = spawnSync('du', [follow ? '-sbL' : '-sb', path], { timeout: 600_000, killSignal: 'SIGKILL' });
  if (run.status !== 0) throw new Error(`du -sb ${path}: ${String(run.stderr)}`);
  return Number(String(run.stdout).split('\t')[0]);
}

/** Returns the sha256 of each file of a country's folder, by name (one level deep: the files a round edits). */
function countryFiles(root: string, iso: string): Map<string, { sha: string; bytes: number }> {
  const out = new Map<string, { sha: string; bytes: number }>();
  const walk = (dir: string, prefix: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name), `${prefix}${e.name}/`);
      else {
        const bytes = readFileSync(join(dir, e.name));
        out.set(`${prefix}${e.name}`, { sha: sha256(bytes), bytes: bytes.length });
      }
    }
  };
  walk(join(root, 'data/earth', iso), '');
  return out;
}

/** Returns the sha256 and size of every file of `dist` outside releases/: the catalogue as the root publishes it. */
function rootFiles(dist: string): Map<string, { sha: string; bytes: number }> {
  const out = new Map<string, { sha: string; bytes: number }>();
  const walk = (dir: string, prefix: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (prefix === '' && e.name === 'releases') continue;
      if (e.isDirectory()) walk(join(dir, e.name), `${prefix}${e.name}/`);
      else if (e.isFile()) {
        const bytes = readFileSync(join(dir, e.name));
        out.set(`${prefix}${e.name}`, { sha: sha256(bytes), bytes: bytes.length });
      }
    }
  };
  walk(dist, '');
  return out;
}

/** Returns the bytes of the files of `after` that `before` lacks or holds with other bytes. */
function altered(
  before: Map<string, { sha: string }>,
  after: Map<string, { sha: string; bytes: number }>,
): number {
  let bytes = 0;
  for (const [path, now] of after) if (before.get(path)?.sha !== now.sha) bytes += now.bytes;
  return bytes;
}

/** Returns the files of a catalogue listing that are country `iso`'s own: its page, files, downloads and API documents. */
function ofCountry<T>(files: Map<string, T>, iso: string): Map<string, T> {
  const folders = [`earth/${iso}/`, `data/earth/${iso}/`, `downloads/earth/${iso}/`, `api/v1/earth/${iso}/`];
  const own = (path: string) =>
    folders.some((folder) => path.startsWith(folder)) || path === `api/v1/earth/${iso}.json`;
  return new Map([...files].filter(([path]) => own(path)));
}

/** Renames the first unit of `iso`'s ADM1 file, then runs `manifest` and `preview`; returns the altered files' bytes. */
function changeCountry(root: string, iso: string): number {
  const before = countryFiles(root, iso);
  const folder = join(root, 'data/earth', iso);
  const file = readdirSync(folder).find((f) => f.endsWith('_ADM1.geojson'));
  if (!file) throw new Error(`${iso} has no ADM1 file`);
  const text = readFileSync(join(folder, file), 'utf8');
  const edited = text.replace(/"shapeName":\s*"([^"]*)"/, (_, name: string) => `"shapeName":"${name} Norte"`);
  if (edited === text) throw new Error(`${iso}: no shapeName to change`);
  writeFileSync(join(folder, file), edited);
  geoshelf(root, 'manifest', iso);
  geoshelf(root, 'preview', `${iso}/ADM1`);
  return altered(before, countryFiles(root, iso));
}

const ratio = (a: number, b: number) => (a / b).toFixed(3);
const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

const scratch = mkdtempSync(join(tmpdir(), 'geoshelf-bench-trust-'));
try {
  const root = join(scratch, 'root');
  cpSync(SAMPLE, join(root, 'data'), { recursive: true, filter: (src) => !src.includes('/data/releases') });
  const ledger = join(root, 'data/releases');
  const dist = join(root, 'dist');
  const data = du(join(root, 'data/earth'));
  console.log(`bench:releases (storage, issue 26): ${new Date().toISOString()}, ${load()}`);
  console.log(`data/earth/: ${mb(data)}`);

  let s = geoshelf(root, 'release', '2026.12');
  const l1 = du(ledger);
  s += geoshelf(root, 'build', '--out', dist, '--quiet');
  const d1 = du(dist);
  const catalogue1 = rootFiles(dist);
  console.log(
    `first release: ledger ${mb(l1)} = ${ratio(l1, data)}× data/earth (target ≤ 1.5: ${verdict(l1 <= 1.5 * data)}); dist/ ${mb(d1)} (${s.toFixed(0)} s, ${load()})`,
  );

  const changed = changeCountry(root, CHANGED);
  s = geoshelf(root, 'release', '2027.01');
  const l2 = du(ledger);
  s += geoshelf(root, 'build', '--out', dist, '--quiet');
  const d2 = du(dist);
  const catalogue2 = rootFiles(dist);
  const built = altered(catalogue1, catalogue2); // its GeoJSON, downloads, pages, API documents, search files
  const own = altered(ofCountry(catalogue1, CHANGED), ofCountry(catalogue2, CHANGED)); // the country's own of them
  const [gl, gd] = [l2 - l1, d2 - d1];
  console.log(
    `${CHANGED} changed: ledger +${mb(gl)}, dist/ +${mb(gd)} (${s.toFixed(0)} s, ${load()})
  against the publisher's files it altered (${mb(changed)}): ledger ${ratio(gl, changed)}× (target ≤ 1.5: ${verdict(gl <= 1.5 * changed)}), dist/ ${ratio(gd, changed)}× (${verdict(gd <= 1.5 * changed)})
  against the country's own published files it altered (${mb(own)}): ledger ${ratio(gl, own)}× (${verdict(gl <= 1.5 * own)}), dist/ ${ratio(gd, own)}× (${verdict(gd <= 1.5 * own)})
  against the catalogue's files it altered (${mb(built)}): ledger ${ratio(gl, built)}× (${verdict(gl <= 1.5 * built)}), dist/ ${ratio(gd, built)}× (${verdict(gd <= 1.5 * built)})`,
  );

  s = geoshelf(root, 'release', '2027.02', '--allow-empty');
  const l3 = du(ledger);
  s += geoshelf(root, 'build', '--out', dist, '--quiet');
  const d3 = du(dist);
  const [el, ed] = [l3 - l2, d3 - d2];
  const bucket = du(join(dist, 'releases/2027.02'), true);
  console.log(
    `no change (--allow-empty): ledger +${mb(el)} = ${((100 * el) / data).toFixed(3)} % of data/earth (target ≤ 1 %: ${verdict(el <= 0.01 * data)}); dist/ +${mb(ed)} = ${((100 * ed) / data).toFixed(3)} % (${verdict(ed <= 0.01 * data)}) (${s.toFixed(0)} s, ${load()})
  a bucket, which has no links, stores the release's folder whole: ${mb(bucket)} (du -sbL)`,
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
