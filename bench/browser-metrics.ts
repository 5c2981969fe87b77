/// <reference lib="dom" />
// Browser measurements of `npm run bench:build`, in Debian's Chromium on
// dist/ served by http-server on 127.0.0.1 (no caching, so every page load
// fetches its files): paint metrics of a page, and the place search's
// latency from a keystroke to its results on screen.
/** URL patterns of the atlas chunks (map, units list, their shared data loader). */
export const ATLAS_CHUNKS = /\/assets\/(map|units-table|country-data)-[\w-]+\.js$/;
import { launchChromium, serveStatic } from '../test/e2e/browser.ts';

export const REPEATS = 5;
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Returns the median FCP and LCP of `path` (e.g. "" for the index), each run
 * in a fresh browser context; `block` aborts requests to matching URLs (the
 * atlas chunks, for the page as it was before them).
 */
export async function paintMetrics(out: string, path: string, block?: RegExp) {
  const server = await serveStatic(out);
  const browser = await launchChromium();
  const runs: { fcp: number; lcp: number }[] = [];
  try {
    for (let i = 0; i < REPEATS; i++) {
      const context = await browser.newContext(); // fresh cache each time
      if (block) await context.route(block, (route) => route.abort());
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

/**
 * Types each query into the index's search box, a key once the previous one
 * is answered, on a freshly loaded page (so the first keystroke of two letters fetches its
 * shard), and returns the times from keydown to the results status being
 * rewritten: `first` for that keystroke (shard fetched), `next` for later ones.
 */
export async function searchLatency(out: string, queries: string[]) {
  const server = await serveStatic(out);
  const browser = await launchChromium();
  const first: number[] = [];
  const next: number[] = [];
  try {
    const page = await browser.newPage();
    await page.goto(`${server.origin}/robots.txt`); // start the renderer process, as paintMetrics does
    for (const query of queries) {
      await page.goto(`${server.origin}/`);
      await page.evaluate(() => {
        const w = window as unknown as { lat: number[]; t: number };
        w.lat = [];
        w.t = 0;
        document.getElementById('q')!.addEventListener('keydown', () => (w.t = performance.now()), true);
        new MutationObserver(() => {
          if (w.t) w.lat.push(performance.now() - w.t);
          w.t = 0;
        }).observe(document.getElementById('results-status')!, {
          childList: true,
          characterData: true,
          subtree: true,
        });
      });
      await page.focus('#q');
      for (const [i, key] of [...query].entries()) {
        // one key at a time, each once the previous one is answered (as a person types, ~100 ms apart)
        await page.keyboard.press(key);
        await page.waitForFunction((n) => (window as unknown as { lat: number[] }).lat.length > n, i);
        await page.waitForTimeout(50);
      }
      const lat = await page.evaluate(() => (window as unknown as { lat: number[] }).lat);
      // lat[0] is the one-letter keystroke ("type two letters"): no search
      first.push(lat[1]);
      next.push(...lat.slice(2));
    }
  } finally {
    await browser.close();
    server.close();
  }
  return { first, next };
}
