/// <reference lib="dom" />
// (DOM types: this file drives a browser, and its page.evaluate() callbacks run there.)
// `npm run bench:tiles`: what the map tiles cost and move (issue 19). Cold
// builds of the sample data (data/, copied to scratch roots so every cache
// starts empty) with and without tiles, alternated, as CPU seconds (user +
// system, worker threads included) and wall time; a no-op rebuild against
// the cold one; the archives' size (the world map's apart); then in headless
// Chromium, the JavaScript before the first interaction (gzip) of the index
// (with its world map) and the USA and Chile pages, and the bytes of the
// views after it, at 1×, 8× and 64×.
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildCatalogue } from '../build/build.ts';
import { HAVE_CHROMIUM, launchChromium, serveStatic } from '../test/e2e/browser.ts';

const REPEATS = Number(process.env.REPEATS ?? 2);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

async function coldBuild(tiles: boolean): Promise<{ cpu: number; ms: number; root: string }> {
  const root = mkdtempSync(join(tmpdir(), 'geoshelf-bench-tiles-'));
  cpSync('data', join(root, 'data'), { recursive: true });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await buildCatalogue({ root, out: join(root, 'dist'), tiles });
  const ms = performance.now() - t0;
  const used = process.cpuUsage(cpu0);
  if (!result.ok) throw new Error('build failed');
  return { cpu: (used.user + used.system) / 1e6, ms, root };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(`load average before: ${load()}`);
rmSync((await coldBuild(true)).root, { recursive: true, force: true }); // warm-up: JIT, disk cache
const runs: Record<'with' | 'without', { cpu: number; ms: number }[]> = { with: [], without: [] };
let kept: string | undefined;
for (let i = 0; i < REPEATS; i++) {
  for (const tiles of i % 2 ? [true, false] : [false, true]) {
    const run = await coldBuild(tiles);
    runs[tiles ? 'with' : 'without'].push(run);
    if (tiles && !kept) kept = run.root;
    else rmSync(run.root, { recursive: true, force: true });
  }
}
const [w, wo] = [runs.with, runs.without].map((r) => ({
  cpu: median(r.map((x) => x.cpu)),
  ms: median(r.map((x) => x.ms)),
}));
console.log(
  `cold build without tiles: ${wo.cpu.toFixed(1)} s CPU, ${(wo.ms / 1000).toFixed(1)} s wall (median of ${REPEATS})`,
);
console.log(`cold build with tiles:    ${w.cpu.toFixed(1)} s CPU, ${(w.ms / 1000).toFixed(1)} s wall`);
console.log(
  `tiles add:                ${(((w.cpu - wo.cpu) / wo.cpu) * 100).toFixed(1)}% CPU, ${(((w.ms - wo.ms) / wo.ms) * 100).toFixed(1)}% wall (target ≤ 25%)`,
);

const root = kept!;
const noop: number[] = [];
for (let i = 0; i < 3; i++) {
  const t0 = performance.now();
  const r = await buildCatalogue({ root, out: join(root, 'dist') });
  if (!r.ok || r.write.written !== 0) throw new Error('no-op rebuild wrote files');
  noop.push(performance.now() - t0);
}
console.log(
  `no-op rebuild:            ${median(noop).toFixed(0)} ms = ${((median(noop) / w.ms) * 100).toFixed(1)}% of cold (target ≤ 5%)`,
);

const world = readFileSync(join(root, 'dist/map-world.pmtiles')).length;
console.log(`world archive:            ${(world / 1e6).toFixed(2)} MB (map-world.pmtiles, the index's map)`);
let archives = 0;
let archiveBytes = 0;
for (const country of readdirSync(join(root, 'dist/earth'))) {
  for (const f of readdirSync(join(root, 'dist/earth', country))) {
    if (!f.endsWith('.pmtiles')) continue;
    archives++;
    archiveBytes += readFileSync(join(root, 'dist/earth', country, f)).length;
  }
}
console.log(`archives:                 ${archives}, ${(archiveBytes / 1e6).toFixed(2)} MB`);

if (HAVE_CHROMIUM) {
  const server = await serveStatic(join(root, 'dist'));
  const browser = await launchChromium();
  // The index (its world map), then two country pages.
  for (const path of ['', 'earth/USA/', 'earth/CHL/']) {
    const name = path ? `${path.slice(6, 9)} page` : 'index';
    const js = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const scripts: string[] = [];
    js.on('request', (r) => {
      if (r.url().endsWith('.js')) scripts.push(new URL(r.url()).pathname);
    });
    await js.goto(`${server.origin}/${path}`);
    await js.waitForLoadState('networkidle');
    const jsGzip = scripts.reduce(
      (n, path) => n + gzipSync(readFileSync(join(root, 'dist', path))).length,
      0,
    );
    console.log(
      `${name}, JS before the first interaction: ${scripts.length} files, ${(jsGzip / 1024).toFixed(1)} KB gzip (budget 150 KB)`,
    );
    await js.close();
    // Each view in a fresh page: the tiles it needs from nothing, the archive's first 16 KiB included.
    for (const zoom of [1, 8, 64]) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const sizes: Promise<number>[] = [];
      page.on('response', (r) => {
        // A body still arriving when the page closes belongs to no measured view (and must not end the bench).
        if (r.url().endsWith('.pmtiles'))
          sizes.push(
            r.body().then(
              (b) => b.length,
              () => 0,
            ),
          );
      });
      await page.goto(`${server.origin}/${path}`);
      await page.waitForLoadState('networkidle');
      await page.locator('.map-view').focus(); // the first interaction: the tiles of the home view load
      const presses = Math.round(Math.log(zoom) / Math.log(1.5)); // the zoom-in key: 1.5× a press, on the centre
      for (let i = 0; i < presses; i++) await page.keyboard.press('+');
      await page.waitForTimeout(300);
      await page.waitForLoadState('networkidle');
      const bytes = (await Promise.all(sizes)).reduce((n, b) => n + b, 0);
      console.log(
        `  home view, then ${String(zoom).padStart(2)}× on its centre: ${(bytes / 1024).toFixed(1)} KB of tiles in all (budget 600 KB a view)`,
      );
      await page.close();
    }
  }
  await browser.close();
  server.close();
}
rmSync(root, { recursive: true, force: true });
console.log(`load average after: ${load()}`);
