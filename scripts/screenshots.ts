// Takes the docs' pictures into docs/images/ (`npm run screenshots`), in
// Debian's Chromium, from the committed sample data:
// - catalogue.png: the index page's search, filters and table at 1024 × 700
//   (the README's picture);
// - world-map.png: the index's world map at 640 px, China named as by a pointer;
// - country-{desktop,phone}-{light,dark}.png: Chile's page at 1200 × 800 and
//   390 × 844, its map with a region chosen by its permalink, framed and named.
// Run by hand after a change to how those pages look (docs/development.md).
// Each must stay under MAX_BYTES: the docs link them, and the repository keeps
// every version. The site is built into a temporary folder and served as a
// CDN would serve it (test/e2e/browser.ts); the data's measurements are cached
// in .cache/ as by any build.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
// @ts-expect-error: plain JavaScript without declarations, run before anything is compiled
import { ensureCompiled } from '../bin/compile.js';
import { buildCatalogue } from '../build/build.ts';
import { HAVE_CHROMIUM, CHROMIUM, launchChromium, serveStatic } from '../test/e2e/browser.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const IMAGES = join(ROOT, 'docs', 'images');
const MAX_BYTES = 150 * 1024;
// Sizes that keep each picture under MAX_BYTES (a map's anti-aliased edges weigh in PNG).
const INDEX = { width: 1024, height: 700 };
const WORLD = { width: 640, height: 600 };
const DESKTOP = { width: 1200, height: 800 };
const PHONE = { width: 390, height: 844 };

if (!HAVE_CHROMIUM) {
  console.error(`screenshots: ${CHROMIUM} is missing (apt-get install chromium)`);
  process.exit(1);
}
await (ensureCompiled as (options: { say: (why: string) => void }) => Promise<string | undefined>)({
  say: (why) => console.error(`compiling lib/ (${why})…`),
});

type Shot = (browser: Browser, origin: string) => Promise<Page>;

/** Opens `path` in a new page of `size` and colour scheme, once its scripts and map are idle. */
async function open(
  browser: Browser,
  url: string,
  size: { width: number; height: number },
  scheme: 'light' | 'dark',
  touch = false,
): Promise<Page> {
  const page = await browser.newPage({
    viewport: size,
    colorScheme: scheme,
    hasTouch: touch,
    isMobile: touch,
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  return page;
}

/** Chile's page with Santiago's region chosen in the units list: the map frames and names it. */
function countryShot(
  size: { width: number; height: number },
  scheme: 'light' | 'dark',
  phone: boolean,
): Shot {
  return async (browser, origin) => {
    const page = await open(browser, `${origin}/earth/CHL/#unit-CL-RM`, size, scheme, phone);
    await page.waitForSelector('figure.map .map-info strong');
    await page.waitForLoadState('networkidle');
    await page.locator('figure.map').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.waitForTimeout(300);
    return page;
  };
}

const SHOTS: Record<string, Shot> = {
  'catalogue.png': async (browser, origin) => {
    const page = await open(browser, `${origin}/`, INDEX, 'light');
    await page.locator('#filters').evaluate((el) => el.scrollIntoView({ block: 'start' })); // the map has its own picture
    return page;
  },
  'world-map.png': async (browser, origin) => {
    const page = await open(browser, `${origin}/`, WORLD, 'light');
    // The middle of China's largest polygon (data-box, SVG units) on screen.
    const at = await page.locator('figure.world path.f[data-u="/earth/CHN/"]').evaluate((path) => {
      const [x0, y0, x1, y1] = (path.getAttribute('data-box') ?? '').split(' ').map(Number);
      const m = (path as SVGGraphicsElement).getScreenCTM()!;
      const [x, y] = [(x0 + x1) / 2, (y0 + y1) / 2];
      return { x: m.a * x + m.c * y + m.e, y: m.b * x + m.d * y + m.f };
    });
    await page.mouse.move(at.x, at.y);
    await page.waitForSelector('figure.world .map-info strong');
    return page;
  },
  'country-desktop-light.png': countryShot(DESKTOP, 'light', false),
  'country-desktop-dark.png': countryShot(DESKTOP, 'dark', false),
  'country-phone-light.png': countryShot(PHONE, 'light', true),
  'country-phone-dark.png': countryShot(PHONE, 'dark', true),
};

const dist = join(mkdtempSync(join(tmpdir(), 'geoshelf-screenshots-')), 'dist');
let tooLarge = 0;
try {
  const built = await buildCatalogue({ root: ROOT, out: dist });
  if (!built.ok) throw new Error(`the sample data does not build: ${built.problems.length} problem(s)`);
  const server = await serveStatic(dist);
  const browser = await launchChromium();
  try {
    for (const [name, shot] of Object.entries(SHOTS)) {
      const page = await shot(browser, server.origin);
      const path = join(IMAGES, name);
      if (name === 'world-map.png') await page.locator('figure.world').screenshot({ path, type: 'png' });
      else await page.screenshot({ path, type: 'png' });
      await page.close();
      const bytes = statSync(path).size;
      if (bytes > MAX_BYTES) tooLarge++;
      console.log(
        `docs/images/${name}: ${Math.round(bytes / 1024)} KB${bytes > MAX_BYTES ? ' (over 150 KB)' : ''}`,
      );
    }
  } finally {
    await browser.close();
    server.close();
  }
} finally {
  rmSync(join(dist, '..'), { recursive: true, force: true });
}
if (tooLarge) process.exit(1);
