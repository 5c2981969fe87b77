// Takes the README's picture, docs/images/catalogue.png: the catalogue's index
// page built from the committed sample data, in Debian's Chromium at
// 1280 × 900, light colour scheme. Run by hand after a change to the index
// page's look (docs/development.md): `npx tsx scripts/screenshots.ts`.
// The site is built into a temporary folder and served as a CDN would serve it
// (test/e2e/browser.ts); the data's measurements are cached in .cache/ as by
// any build.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: plain JavaScript without declarations, run before anything is compiled
import { ensureCompiled } from '../bin/compile.js';
import { buildCatalogue } from '../build/build.ts';
import { HAVE_CHROMIUM, CHROMIUM, launchChromium, serveStatic } from '../test/e2e/browser.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(ROOT, 'docs', 'images', 'catalogue.png');
const VIEWPORT = { width: 1280, height: 900 };

if (!HAVE_CHROMIUM) {
  console.error(`screenshots: ${CHROMIUM} is missing (apt-get install chromium)`);
  process.exit(1);
}
await (ensureCompiled as (options: { say: (why: string) => void }) => Promise<string | undefined>)({
  say: (why) => console.error(`compiling lib/ (${why})…`),
});

const dist = join(mkdtempSync(join(tmpdir(), 'geoshelf-screenshots-')), 'dist');
try {
  const built = await buildCatalogue({ root: ROOT, out: dist });
  if (!built.ok) throw new Error(`the sample data does not build: ${built.problems.length} problem(s)`);
  const server = await serveStatic(dist);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: VIEWPORT, colorScheme: 'light' });
    await page.goto(`${server.origin}/`, { waitUntil: 'networkidle' });
    await page.screenshot({ path: OUT, type: 'png' });
  } finally {
    await browser.close();
    server.close();
  }
  console.log(`${OUT.slice(ROOT.length)}: ${Math.round(statSync(OUT).size / 1024)} KB`);
} finally {
  rmSync(join(dist, '..'), { recursive: true, force: true });
}
