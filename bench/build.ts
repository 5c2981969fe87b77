/// <reference lib="dom" />
// (DOM types: this file drives a browser, and its page.evaluate() callbacks run there.)
// `npm run bench:build`: a cold build of the sample data (data/, copied to a
// scratch root so every cache starts empty), no-op rebuilds and a one-manifest
// change, as ratios of the cold build; then the index page's transfer size
// (raw and gzip, everything it loads) and its FCP/LCP in headless Chromium
// (a fresh browser context per run: nothing cached).
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildCatalogue, type BuildResult } from '../build/build.ts';
import { HAVE_CHROMIUM, launchChromium, serveStatic } from '../test/e2e/browser.ts';

const REPEATS = 5;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
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

/** Returns the median FCP and LCP of `path` (e.g. "" for the index), each run in a fresh browser context. */
async function paintMetrics(out: string, path: string) {
  const server = await serveStatic(out);
  const browser = await launchChromium();
  const runs: { fcp: number; lcp: number }[] = [];
  try {
    for (let i = 0; i < REPEATS; i++) {
      const context = await browser.newContext(); // fresh cache each time
      const page = await context.newPage();
      // Start the site's renderer process first (a browser already open has one), without caching any asset.
      await page.goto(`${server.origin}/robots.txt`);
      await page.goto(`${server.origin}/${path}`, { waitUntil: 'load' });
      runs.push(
        await page.evaluate(
          () =>
            new Promise<{ fcp: number; lcp: number }>((resolve) => {
              let lcp = 0;
              new PerformanceObserver((list) => {
                for (const entry of list.getEntries()) lcp = Math.max(lcp, entry.startTime);
              }).observe({ type: 'largest-contentful-paint', buffered: true });
              setTimeout(() => {
                const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
                resolve({ fcp, lcp });
              }, 500);
            }),
        ),
      );
      await context.close();
    }
  } finally {
    await browser.close();
    server.close();
  }
  return { fcp: median(runs.map((r) => r.fcp)), lcp: median(runs.map((r) => r.lcp)) };
}

const scratch = mkdtempSync(join(tmpdir(), 'geoshelf-bench-build-'));
try {
  cpSync('data', join(scratch, 'data'), { recursive: true, filter: (src) => !src.endsWith('.sqlite') });
  const out = join(scratch, 'dist');
  console.log(
    `machine: ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GB, Node ${process.versions.node}, load ${loadavg()[0].toFixed(1)}`,
  );
  const { cold, noop, changed } = await timeBuilds(scratch, out);
  console.log(
    `sample data: ${cold.manifests} manifests, ${cold.datasets} datasets, ${cold.write.files} files, ${(cold.write.bytes / 1e6).toFixed(1)} MB`,
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
  if (HAVE_CHROMIUM) {
    // Baseline: 404.html, the same frame, stylesheet and script around one paragraph.
    const base = await paintMetrics(out, '404.html');
    const { fcp, lcp } = await paintMetrics(out, '');
    console.log(`404 page (baseline):     FCP ${ms(base.fcp)}, LCP ${ms(base.lcp)}`);
    console.log(
      `index in Chromium (median ${REPEATS}, 127.0.0.1): FCP ${ms(fcp)}, LCP ${ms(lcp)} = ${(lcp / base.lcp).toFixed(2)}× baseline (target LCP < 500 ms)`,
    );
  } else {
    console.log('index paint metrics: skipped, /usr/bin/chromium is absent');
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
