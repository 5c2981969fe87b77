/// <reference lib="dom" />
// (DOM types: this file drives a browser, and its page.evaluate() callbacks run there.)
// `npm run bench:build`: a cold build of the sample data (data/, copied to a
// scratch root so every cache starts empty), no-op rebuilds and a one-manifest
// change, as ratios of the cold build; then the index page's transfer size
// (raw and gzip, everything it loads) and its FCP/LCP in headless Chromium
// (a fresh browser context per run: nothing cached), with its world map and
// without (a copy of the page without the figure), a country page's LCP
// with its map and units list against the same page without their chunks
// (the static picture it had before the atlas), and the place search's latency. Then the
// same on a generated catalogue of 50,000 units (bench/atlas-catalogue.ts).
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildCatalogue, type BuildResult } from '../build/build.ts';
import { HAVE_CHROMIUM } from '../test/e2e/browser.ts';
import { generateCatalogue } from './atlas-catalogue.ts';
import { ATLAS_CHUNKS, median, paintMetrics, REPEATS, searchLatency } from './browser-metrics.ts';
const ms = (x: number) => `${x.toFixed(0)} ms`;

function ok(result: BuildResult): Extract<BuildResult, { ok: true }> {
  if (!result.ok) throw new Error(`build failed: ${result.problems.length} problems`);
  return result;
}

async function timeBuilds(root: string, out: string) {
  const cold = ok(await buildCatalogue({ root, out }));
  const noop: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const run = ok(await buildCatalogue({ root, out }));
    if (run.write.written !== 0 || run.geojsonFilesRead !== 0)
      throw new Error('no-op rebuild wrote or read files');
    noop.push(run.ms);
  }
  // One manifest edited (a note added): validation, render and swap, but no GeoJSON read.
  const file = join(root, 'data/earth/CHL/manifest.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileSync(file, `${JSON.stringify({ ...manifest, notes: 'benchmark edit' }, null, 2)}\n`);
  const changed = ok(await buildCatalogue({ root, out }));
  return { cold, noop: median(noop), changed };
}

/** Returns the index page and every file it loads (stylesheets, scripts), with raw and gzip sizes. */
function indexTransfer(out: string) {
  const html = readFileSync(join(out, 'index.html'));
  const assets = [...html.toString().matchAll(/(?:href|src)="\/(assets\/[^"]+)"/g)].map((m) => m[1]);
  const files = [
    { path: 'index.html', bytes: html },
    ...assets.map((path) => ({ path, bytes: readFileSync(join(out, path)) })),
  ];
  return files.map(({ path, bytes }) => ({ path, raw: bytes.length, gzip: gzipSync(bytes).length }));
}

/** Prints the build times of `root` into `out` and returns the cold result. */
async function reportBuilds(root: string, out: string, label: string) {
  const { cold, noop, changed } = await timeBuilds(root, out);
  console.log(
    `${label}: ${cold.manifests} manifests, ${cold.datasets} datasets, ${cold.write.files} files, ${(cold.write.bytes / 1e6).toFixed(1)} MB`,
  );
  console.log(
    `cold build:              ${ms(cold.ms)} (${cold.geojsonFilesRead} GeoJSON files, ${(cold.geojsonBytesRead / 1e6).toFixed(1)} MB read)`,
  );
  console.log(
    `no-op rebuild (median ${REPEATS}): ${ms(noop)} = ${((noop / cold.ms) * 100).toFixed(1)}% of cold (target ≤ 5%)`,
  );
  console.log(
    `one manifest changed:    ${ms(changed.ms)} = ${((changed.ms / cold.ms) * 100).toFixed(1)}% of cold (${changed.write.written} files written, ${changed.geojsonFilesRead} GeoJSON read)`,
  );
}

function reportTransfer(out: string) {
  const transfer = indexTransfer(out);
  for (const t of transfer)
    console.log(
      `  ${t.path.padEnd(28)} ${String(t.raw).padStart(8)} B raw ${String(t.gzip).padStart(7)} B gzip`,
    );
  const raw = transfer.reduce((n, t) => n + t.raw, 0);
  const gzip = transfer.reduce((n, t) => n + t.gzip, 0);
  console.log(
    `index page transfer:     ${(raw / 1024).toFixed(1)} KB raw, ${(gzip / 1024).toFixed(1)} KB gzip (budget 150 KB gzip)`,
  );
  const shards = readdirSync(join(out, 'search')).map(
    (f) => gzipSync(readFileSync(join(out, 'search', f))).length,
  );
  console.log(
    `search shards:           ${shards.length}, largest ${(Math.max(...shards) / 1024).toFixed(1)} KB gzip, median ${(median(shards) / 1024).toFixed(1)} KB (one loaded per query word prefix)`,
  );
}

async function reportCountry(out: string, path: string) {
  // Baseline: the same page without the atlas chunks, i.e. the static picture it showed before them.
  const plain = await paintMetrics(out, path, ATLAS_CHUNKS);
  const atlas = await paintMetrics(out, path);
  console.log(
    `${path} LCP: ${ms(atlas.lcp)} with the map and units list, ${ms(plain.lcp)} without (the static picture) = ${(atlas.lcp / plain.lcp).toFixed(2)}× (target ≤ 1.10×)`,
  );
}

/**
 * The index's first paint with its world map against the same page without
 * it (the figure cut out of a copy, index-without-world.html, beside it): the
 * picture is inline SVG, so it must not hold back the page's largest paint.
 */
async function reportWorld(out: string) {
  const html = readFileSync(join(out, 'index.html'), 'utf8');
  const without = html.replace(/<figure class="map world"[\s\S]*?<\/figure>\n/, '');
  if (without === html) throw new Error('index.html has no world map');
  writeFileSync(join(out, 'index-without-world.html'), without);
  const plain = await paintMetrics(out, 'index-without-world.html');
  const world = await paintMetrics(out, '');
  console.log(
    `index LCP: ${ms(world.lcp)} with the world map, ${ms(plain.lcp)} without = ${(world.lcp / plain.lcp).toFixed(2)}× (target ≤ 1.10×)`,
  );
}

async function reportSearch(out: string, queries: string[]) {
  const { first, next } = await searchLatency(out, queries);
  const fmt = (xs: number[]) => `median ${ms(median(xs))}, max ${ms(Math.max(...xs))}`;
  console.log(
    `search latency (${queries.length} queries, keydown → results shown): second letter, shard fetched: ${fmt(first)}; later letters: ${fmt(next)} (target ≤ 100 ms)`,
  );
}

const scratch = mkdtempSync(join(tmpdir(), 'geoshelf-bench-build-'));
try {
  cpSync('data', join(scratch, 'data'), { recursive: true, filter: (src) => !src.endsWith('.sqlite') });
  const out = join(scratch, 'dist');
  console.log(
    `machine: ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GB, Node ${process.versions.node}, load ${loadavg()[0].toFixed(1)}`,
  );
  await reportBuilds(scratch, out, 'sample data');
  reportTransfer(out);
  if (HAVE_CHROMIUM) {
    // Baseline: 404.html, the same frame, stylesheet and script around one paragraph.
    const base = await paintMetrics(out, '404.html');
    const { fcp, lcp } = await paintMetrics(out, '');
    console.log(`404 page (baseline):     FCP ${ms(base.fcp)}, LCP ${ms(base.lcp)}`);
    console.log(
      `index in Chromium (median ${REPEATS}, 127.0.0.1): FCP ${ms(fcp)}, LCP ${ms(lcp)} = ${(lcp / base.lcp).toFixed(2)}× baseline (target LCP < 500 ms)`,
    );
    await reportWorld(out);
    await reportCountry(out, 'earth/USA/');
    await reportCountry(out, 'earth/CHL/');
    await reportSearch(out, [
      'texa',
      'santi',
      'bayer',
      'brit',
      'holl',
      'fiyi',
      'queen',
      'mont',
      'los a',
      'sao p',
    ]);
  } else {
    console.log('browser metrics: skipped, /usr/bin/chromium is absent');
  }

  const big = join(scratch, 'generated');
  const { units, names } = await generateCatalogue(big);
  console.log(`\ngenerated catalogue: ${units.toLocaleString('en-US')} units`);
  await reportBuilds(big, join(big, 'dist'), 'generated');
  reportTransfer(join(big, 'dist'));
  if (HAVE_CHROMIUM) {
    const queries = names.filter((_, i) => i % 2500 === 7).map((n) => n.slice(0, 5).toLowerCase());
    await reportSearch(join(big, 'dist'), queries);
    await reportCountry(join(big, 'dist'), 'earth/ABW/');
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
