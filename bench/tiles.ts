/// <reference lib="dom" />
// (DOM types: this file drives a browser, and its page.evaluate() callbacks run there.)
// `npm run bench:tiles`: what the map tiles cost and move (issue 19). Cold
// builds of the sample data (data/, copied to scratch roots so every cache
// starts empty) with and without tiles, alternated, as CPU seconds (user +
// system, worker threads included) and wall time; a no-op rebuild against
// the cold one; the archives' size; then in headless Chromium, the USA page's
// JavaScript before the first interaction (gzip) and the bytes of the views
// after it, at 1×, 8× and 64×.
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
  for (const iso of ['USA', 'CHL']) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const moved: { url: string; bytes: number }[] = [];
    page.on('response', (r) => {
      void r
        .body()
        .then((b) => moved.push({ url: r.url(), bytes: b.length }))
        .catch(() => undefined);
    });
    await page.goto(`${server.origin}/earth/${iso}/`);
    await page.waitForLoadState('networkidle');
    const scripts = moved.filter((m) => m.url.endsWith('.js'));
    const jsGzip = scripts.reduce((n, m) => {
      const path = new URL(m.url).pathname;
      return n + gzipSync(readFileSync(join(root, 'dist', path))).length;
    }, 0);
    console.log(
      `${iso} page, JS before the first interaction: ${scripts.length} files, ${(jsGzip / 1024).toFixed(1)} KB gzip (budget 150 KB)`,
    );
    for (const zoom of [1, 8, 64]) {
      const before = moved.length;
      const box = (await page.locator('.map-view').boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      // Zoom buttons: 1.5× a press, from wherever the last zoom left the view.
      await page.keyboard.press('0');
      await page.locator('.map-view').focus();
      await page.keyboard.press('0');
      const presses = Math.round(Math.log(zoom) / Math.log(1.5));
      for (let i = 0; i < presses; i++) await page.keyboard.press('+');
      await page.waitForTimeout(300);
      await page.waitForLoadState('networkidle');
      const view = moved.slice(before).filter((m) => !m.url.endsWith('.js'));
      const bytes = view.reduce((n, m) => n + m.bytes, 0);
      console.log(
        `  view at ${String(zoom).padStart(2)}× on the centre: ${(bytes / 1024).toFixed(1)} KB of tiles (budget 600 KB)`,
      );
    }
    await page.close();
  }
  await browser.close();
  server.close();
}
rmSync(root, { recursive: true, force: true });
console.log(`load average after: ${load()}`);
