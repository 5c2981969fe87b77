// bench:releases, the ledger's part (issue 18):
//
// 1. Ten releases of the sample data (data/, copied to a scratch root), one
//    country changed in each (a unit renamed in its ADM1 file, its manifest
//    updated): how much the ledger (data/releases/) and dist/releases/ grow,
//    against the bytes of the changed files, measured in the same run. The
//    changed files are counted two ways: the publisher's (the ADM1 file and
//    the manifest), and the catalogue's (every file of a plain `build`, no
//    releases, whose bytes the change alters: the GeoJSON, its downloads,
//    the country's pages, map and search files), which is what any
//    publication of the change must hold at least once. Bytes
//    are counted as a checksum-based CDN sync counts them: distinct content
//    (by sha256) that no earlier release holds, raw; and, for the ledger, as
//    git does: the ledger committed release by release in a scratch
//    repository, each commit's growth being the thin pack `git push` sends
//    (zlib, and deltas against what the remote has). dist/releases/ is what
//    `build` writes there (build/release/publish.ts), computed without writing
//    it. Target: ≤ 1.2× the changed files.
// 2. `release` with one country changed in a generated 250-country root
//    (test/support/synthetic-tree.ts) against a cold `release` of the same
//    root (every cache emptied): the median of three such releases, each
//    changing another country, in process and as the CLI. Target: ≤ 10 %.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { buildCatalogue } from '../build/build.ts';
import { cacheDir, listFiles } from '../build/core/files.ts';
import { GeometryChecker } from '../build/geometry/cache.ts';
import { NestingChecker } from '../build/identity/nesting-cache.ts';
import { updateManifests } from '../build/manifest/update-all.ts';
import { MeasurementCache } from '../build/measure/cache.ts';
import { readLedger, type ReleaseRecord } from '../build/release/ledger.ts';
import { publishReleases, releaseStatus } from '../build/release/publish.ts';
import { makeRelease } from '../build/release/release.ts';
import { writeTree, type CountrySpec } from '../test/support/synthetic-tree.ts';

const SAMPLE = new URL('../data', import.meta.url).pathname;
const BIN = new URL('../bin/geoshelf.js', import.meta.url).pathname;
// Ten countries of the sample data with an ADM1 file, of several sizes.
const CHANGED = ['CRI', 'URY', 'BOL', 'CUB', 'ZAF', 'PER', 'ARG', 'JPN', 'CHL', 'MEX'];
const load = () => `load ${loadavg()[0]!.toFixed(2)}`;
const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`;
const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/**
 * Records release `version` of `root` as the CLI does; returns its record, the
 * milliseconds it took and the CPU milliseconds of the process (every thread:
 * steadier than wall time on a shared machine).
 */
async function release(
  root: string,
  version: string,
): Promise<{ record: ReleaseRecord; ms: number; cpuMs: number }> {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const measurer = MeasurementCache.forRoot(root);
  const geometry = GeometryChecker.forRoot(root);
  const nesting = NestingChecker.forRoot(root);
  const outcome = await makeRelease(root, version, {
    measurer,
    geometry,
    nesting,
  });
  await Promise.all([measurer.save(), geometry.save(), nesting.save()]);
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  if (outcome.status !== 'recorded') throw new Error(`release ${version}: ${outcome.status}`);
  return { record: outcome.record, ms, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/** Renames the first unit of `iso`'s ADM1 file and updates its manifest; returns the changed files' bytes. */
async function changeCountry(root: string, iso: string, mark: string): Promise<number> {
  const folder = join(root, 'data/earth', iso);
  const file = readdirSync(folder).find((f) => f.endsWith('_ADM1.geojson'));
  if (!file) throw new Error(`${iso} has no ADM1 file`);
  const before = new Map<string, string>();
  for (const f of [file, 'manifest.json']) before.set(f, sha256(readFileSync(join(folder, f))));
  const text = readFileSync(join(folder, file), 'utf8');
  const edited = text.replace(
    /"shapeName":\s*"([^"]*)"/,
    (_, name: string) => `"shapeName":"${name} ${mark}"`,
  );
  if (edited === text) throw new Error(`${iso}: no shapeName to change`);
  writeFileSync(join(folder, file), edited);
  const run = await updateManifests(root, [iso]);
  if (run.problems.length) throw new Error(`manifest ${iso}: ${run.problems[0]!.message}`);
  let bytes = 0;
  for (const [f, sha] of before) {
    const now = readFileSync(join(folder, f));
    if (sha256(now) !== sha) bytes += now.length;
  }
  return bytes;
}

/** Distinct contents seen so far, and what a new set of files adds to them (raw and zlib-compressed bytes). */
class Distinct {
  private seen = new Set<string>();
  add(contents: Iterable<[string, () => Buffer]>): { raw: number; zlib: number } {
    let raw = 0;
    let zlib = 0;
    for (const [sha, bytes] of contents) {
      if (this.seen.has(sha)) continue;
      this.seen.add(sha);
      const b = bytes();
      raw += b.length;
      zlib += deflateSync(b).length;
    }
    return { raw, zlib };
  }
}

/** Runs git in `root`, bounded; returns its stdout. */
function git(root: string, args: string[], input?: string): Buffer {
  const run = spawnSync('git', ['-C', root, ...args], {
    input,
    timeout: 600_000,
    killSignal: 'SIGKILL',
    maxBuffer: 2 ** 30, // a first release's pack is tens of MB
  });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.error?.message ?? String(run.stderr)}`);
  return run.stdout;
}

/** Commits the ledger; returns the bytes of the thin pack a push of that commit sends. */
function commitLedger(root: string, version: string): number {
  git(root, ['add', 'data/releases']);
  git(root, ['-c', 'user.name=bench', '-c', 'user.email=bench@example.org', 'commit', '-qm', version]);
  const first = git(root, ['rev-list', '--count', 'HEAD']).toString().trim() === '1';
  const pack = git(
    root,
    ['pack-objects', '--revs', '--thin', '--stdout', '-q'],
    first ? 'HEAD\n' : 'HEAD\n^HEAD~1\n',
  );
  return pack.length;
}

/** The files of a ledger release folder, by content. */
async function ledgerContents(root: string, version: string): Promise<[string, () => Buffer][]> {
  const dir = join(root, 'data/releases', version);
  const out: [string, () => Buffer][] = [];
  for (const file of await listFiles(dir)) {
    const bytes = readFileSync(join(dir, file));
    out.push([sha256(bytes), () => bytes]);
  }
  return out;
}

/** The files `build` publishes under releases/VERSION/, by content. */
async function publishedContents(root: string, version: string): Promise<[string, () => Buffer][]> {
  const ledger = readLedger(root);
  const status = releaseStatus(ledger, ledger.releases.at(-1)!.record.files);
  const published = await publishReleases(root, '/', ledger, status);
  const prefix = `releases/${version}/`;
  const out: [string, () => Buffer][] = [];
  for (const [path, text] of published.generated)
    if (path.startsWith(prefix)) out.push([sha256(text), () => Buffer.from(text)]);
  for (const [path, file] of published.stored) {
    if (!path.startsWith(prefix)) continue;
    const scratch = join(tmpdir(), `geoshelf-bench-object-${process.pid}`);
    await file.unpack(scratch);
    const bytes = readFileSync(scratch);
    rmSync(scratch);
    out.push([sha256(bytes), () => bytes]);
  }
  return out;
}

/** Builds the root's catalogue without releases into `out`; returns its files by path: sha256, bytes, zlib bytes. */
async function catalogueFiles(
  root: string,
  out: string,
  before?: Map<string, { sha: string; zlib: number }>,
): Promise<Map<string, { sha: string; bytes: number; zlib: number }>> {
  const bare = join(tmpdir(), `geoshelf-bench-bare-${process.pid}`);
  rmSync(bare, { recursive: true, force: true });
  cpSync(join(root, 'data'), join(bare, 'data'), {
    recursive: true,
    filter: (src) => !src.includes('/data/releases'),
  });
  const built = await buildCatalogue({ root: bare, out });
  if (!built.ok) throw new Error(`build: ${built.problems[0]!.message}`);
  const files = new Map<string, { sha: string; bytes: number; zlib: number }>();
  for (const file of await listFiles(out)) {
    const bytes = readFileSync(join(out, file));
    const sha = sha256(bytes);
    const was = before?.get(file);
    const zlib = was?.sha === sha ? was.zlib : deflateSync(bytes).length;
    files.set(file, { sha, bytes: bytes.length, zlib });
  }
  return files;
}

/** The bytes of the files of `after` that `before` lacks or holds with other bytes, raw and zlib-compressed. */
function changedBytes(
  before: Map<string, { sha: string }>,
  after: Map<string, { sha: string; bytes: number; zlib: number }>,
): { raw: number; zlib: number } {
  let raw = 0;
  let zlib = 0;
  for (const [path, file] of after) {
    if (before.get(path)?.sha === file.sha) continue;
    raw += file.bytes;
    zlib += file.zlib;
  }
  return { raw, zlib };
}

async function ledgerGrowth(scratch: string): Promise<void> {
  const root = join(scratch, 'sample');
  cpSync(SAMPLE, join(root, 'data'), { recursive: true });
  rmSync(join(root, 'data/releases'), { recursive: true, force: true });
  git(root, ['init', '-q']);
  const ledger = new Distinct();
  const dist = new Distinct();
  const first = await release(root, '1.0.0');
  const l0 = ledger.add(await ledgerContents(root, '1.0.0'));
  const g0 = commitLedger(root, '1.0.0');
  const d0 = dist.add(await publishedContents(root, '1.0.0'));
  console.log(
    `sample data, release 1.0.0 (cold, ${(first.ms / 1000).toFixed(1)} s, ${load()}): ledger ${mb(l0.raw)} (git ${mb(g0)}), dist/releases/ ${mb(d0.raw)}`,
  );
  const totals = {
    changed: 0,
    changedGit: 0,
    catalogue: 0,
    catalogueZ: 0,
    ledger: 0,
    ledgerGit: 0,
    dist: 0,
    distGit: 0,
  };
  const plain = join(scratch, 'plain-dist');
  let catalogue = await catalogueFiles(root, plain);
  for (let i = 0; i < CHANGED.length; i++) {
    const iso = CHANGED[i]!;
    const version = `1.0.${i + 1}`;
    const changed = await changeCountry(root, iso, `(edit ${i + 1})`);
    const now = await catalogueFiles(root, plain, catalogue);
    const { raw: changedCatalogue, zlib: changedCatalogueZ } = changedBytes(catalogue, now);
    catalogue = now;
    const changedGit = (await ledgerFiles(root, iso)).reduce((n, b) => n + deflateSync(b).length, 0);
    const made = await release(root, version);
    const l = { raw: ledger.add(await ledgerContents(root, version)).raw, git: commitLedger(root, version) };
    const d = dist.add(await publishedContents(root, version));
    totals.changed += changed;
    totals.changedGit += changedGit;
    totals.catalogue += changedCatalogue;
    totals.catalogueZ += changedCatalogueZ;
    totals.ledger += l.raw;
    totals.ledgerGit += l.git;
    totals.dist += d.raw;
    totals.distGit += d.zlib;
    console.log(
      `release ${version} (${iso} changed, ${(made.ms / 1000).toFixed(1)} s, ${load()}): changed files ${mb(changed)} ` +
        `(the catalogue's ${mb(changedCatalogue)}); ` +
        `ledger +${mb(l.raw)} (${(l.raw / changedCatalogue).toFixed(2)}× the catalogue's; git +${mb(l.git)}, ${(l.git / changed).toFixed(2)}× the publisher's), ` +
        `dist/releases/ +${mb(d.raw)} (${(d.raw / changedCatalogue).toFixed(2)}× the catalogue's)`,
    );
  }
  const ratio = (n: number, of: number) => `${(n / of).toFixed(2)}×`;
  const verdict = (n: number, of: number) => (n <= 1.2 * of ? 'met' : 'missed');
  const c = totals.catalogue;
  const p = totals.changed;
  console.log(
    `ten releases, one country changed in each: the publisher's changed files ${mb(p)} (compressed ${mb(totals.changedGit)}), ` +
      `the catalogue's changed files ${mb(c)}; ` +
      `ledger +${mb(totals.ledger)} raw (${ratio(totals.ledger, c)} the catalogue's, ${ratio(totals.ledger, p)} the publisher's), ` +
      `+${mb(totals.ledgerGit)} as git stores it (${ratio(totals.ledgerGit, totals.catalogueZ)} the catalogue's compressed, ${ratio(totals.ledgerGit, p)} the publisher's raw); ` +
      `dist/releases/ +${mb(totals.dist)} raw (${ratio(totals.dist, c)} the catalogue's, ${ratio(totals.dist, p)} the publisher's), ` +
      `+${mb(totals.distGit)} zlib-compressed (${ratio(totals.distGit, totals.catalogueZ)} the catalogue's compressed, ${mb(totals.catalogueZ)}). ` +
      `Target ≤ 1.2× against the catalogue's changed files: ledger ${verdict(totals.ledger, c)}, dist/releases/ ${verdict(totals.dist, c)}; ` +
      `against the publisher's files alone: ledger as git stores it ${verdict(totals.ledgerGit, p)}, dist/releases/ ${verdict(totals.dist, p)}`,
  );
}

/** The changed files of `iso` (its ADM1 file and manifest), for their compressed size. */
async function ledgerFiles(root: string, iso: string): Promise<Buffer[]> {
  const folder = join(root, 'data/earth', iso);
  const adm1 = readdirSync(folder).find((f) => f.endsWith('_ADM1.geojson'))!;
  return [readFileSync(join(folder, adm1)), readFileSync(join(folder, 'manifest.json'))];
}

async function oneCountryRelease(scratch: string): Promise<void> {
  const root = join(scratch, 'synthetic');
  const countries: CountrySpec[] = Array.from({ length: 250 }, (_, k) => ({
    iso: `${String.fromCharCode(65 + Math.floor(k / 26 / 26))}${String.fromCharCode(65 + (Math.floor(k / 26) % 26))}${String.fromCharCode(65 + (k % 26))}`,
    levels: [
      { level: 'ADM0', bytes: 8_000, layout: 'one-line' },
      { level: 'ADM1', bytes: 40_000, layout: 'per-line' },
      ...(k % 10 === 0 ? [{ level: 'ADM2' as const, bytes: 150_000, layout: 'per-line' as const }] : []),
    ],
  }));
  writeTree(root, countries);
  const run = await updateManifests(root, []);
  if (run.problems.length) throw new Error(`manifest: ${run.problems[0]!.message}`);
  rmSync(cacheDir(root), { recursive: true, force: true }); // cold: no measurement, geometry or build cache
  // The same, as a publisher runs it: `geoshelf release` in a fresh process each time (no warm JIT, its start counted).
  const cliRoot = join(scratch, 'synthetic-cli');
  cpSync(root, cliRoot, { recursive: true });
  // Three one-country releases after the cold one, each changing another country with an ADM2
  // level (the larger kind): their median is the figure, so one run slowed by a neighbour is not.
  const changed = [10, 110, 210].map((k) => countries[k]!.iso);
  const coldCli = cliRelease(cliRoot, '1.0.0');
  const warmCli: number[] = [];
  for (const [i, iso] of changed.entries()) {
    await changeCountry(cliRoot, iso, '(edit)');
    warmCli.push(cliRelease(cliRoot, `1.0.${i + 1}`));
  }
  const cold = await release(root, '1.0.0');
  const warm: { ms: number; cpuMs: number }[] = [];
  for (const [i, iso] of changed.entries()) {
    await changeCountry(root, iso, '(edit)');
    warm.push(await release(root, `1.0.${i + 1}`));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const warmMs = median(warm.map((w) => w.ms));
  const warmCpu = median(warm.map((w) => w.cpuMs));
  const warmCliMs = median(warmCli);
  const ratio = warmMs / cold.ms;
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const runs = (values: number[], of: number) =>
    values.map((ms) => `${((ms / of) * 100).toFixed(1)} %`).join(', ');
  console.log(
    `250 countries (${cold.record.counts.units} units): cold release ${s(cold.ms)} (CPU ${s(cold.cpuMs)}), ` +
      `one country changed, median of ${changed.length} (${changed.join(', ')}): ${s(warmMs)} (CPU ${s(warmCpu)}) = ` +
      `${(ratio * 100).toFixed(1)} % wall (runs ${runs(
        warm.map((w) => w.ms),
        cold.ms,
      )}), ` +
      `${((warmCpu / cold.cpuMs) * 100).toFixed(1)} % CPU in process (${load()}; target ≤ 10 %: ${ratio <= 0.1 ? 'met' : 'missed'}); ` +
      `as the CLI, a process each: cold ${s(coldCli)}, one country changed ${s(warmCliMs)} = ` +
      `${((warmCliMs / coldCli) * 100).toFixed(1)} % (runs ${runs(warmCli, coldCli)}; ` +
      `target ≤ 10 %: ${warmCliMs <= 0.1 * coldCli ? 'met' : 'missed'})`,
  );
}

/** Runs `geoshelf release VERSION` on `root` as a child process (bounded); returns its wall milliseconds. */
function cliRelease(root: string, version: string): number {
  const t0 = performance.now();
  const run = spawnSync('node', [BIN, 'release', version, '--root', root], {
    timeout: 600_000,
    killSignal: 'SIGKILL',
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 2 ** 26,
  });
  if (run.status !== 0)
    throw new Error(`geoshelf release ${version}: exit ${run.status}: ${String(run.stderr).slice(-500)}`);
  return performance.now() - t0;
}

const scratch = mkdtempSync(join(tmpdir(), 'geoshelf-bench-ledger-'));
try {
  if (process.env.GEOSHELF_BENCH_ONLY !== 'release') await ledgerGrowth(scratch);
  if (process.env.GEOSHELF_BENCH_ONLY !== 'ledger') await oneCountryRelease(scratch);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
