/// <reference lib="dom" />
// (DOM types: this file drives a browser, and its page.evaluate() callbacks run there.)
// Issue 16 §6: a name of 100 KB without a space (a country's, a unit's) must
// not widen the country page: it wraps, and the page clamps it to a few lines
// with the whole name in a title. The page is rendered in process with the
// real client bundle and served as files, as `build` writes them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CountryAtlas } from '../../build/site/atlas.ts';
import { clientBundle } from '../../build/site/client-bundle.ts';
import { renderCountryPage } from '../../build/site/pages/country-page.ts';
import { levelUnits } from '../../build/site/units.ts';
import type { Dataset, Manifest } from '../../build/core/shared/manifest.ts';
import { HAVE_CHROMIUM, launchChromium, serveStatic } from './browser.ts';

const LONG = 'Ü'.repeat(100_000);
const manifest = {
  schema_version: 1,
  body: 'earth',
  iso_a3: 'LNG',
  name: { en: LONG },
  crs: { authority: 'OGC', code: 'CRS84', epsg: 4326 },
  status: 'ok',
  source: { name: 'Test', url: 'https://example.org/', license: 'public-domain', retrieved: '2026-11-24' },
  datasets: [
    {
      level: 'ADM1',
      path: 'data/earth/LNG/LNG_ADM1.geojson',
      bytes: 1,
      sha256: 'ab'.repeat(32),
      features: 1,
      bbox: [0, 0, 1, 1],
      geometry_types: { Polygon: 1 },
      properties: ['shapeName'],
      license: 'public-domain',
    },
  ],
} as unknown as Manifest;
const square = {
  type: 'Polygon',
  coordinates: [
    [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
      [0, 0],
    ],
  ],
};
const atlas: CountryAtlas = {
  levels: [
    {
      level: 'ADM1',
      units: levelUnits(
        [{ properties: { shapeName: LONG, shapeISO: 'LN-01', parentISO: 'LNG' }, geometry: square }] as never,
        { level: 'ADM1' } as Dataset,
      ),
    },
  ],
} as CountryAtlas;

describe.skipIf(!HAVE_CHROMIUM)('long names in Chromium', () => {
  let dir: string;
  let browser: Browser;
  let server: { origin: string; close: () => void };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'geoshelf-long-'));
    const bundle = await clientBundle();
    for (const [file, bytes] of bundle.files) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), bytes);
    }
    const context = { base: '/', script: bundle.script, styles: bundle.styles };
    mkdirSync(join(dir, 'earth/LNG'), { recursive: true });
    writeFileSync(
      join(dir, 'earth/LNG/index.html'),
      renderCountryPage(context, 'data/earth/LNG/manifest.json', manifest, { atlas, geometry: new Map() }),
    );
    server = await serveStatic(dir);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.each([320, 390, 1280])(
    'a 100 KB name without spaces: no sideways scroll at %i px, clamped with its title',
    async (width) => {
      const page = await browser.newPage({ viewport: { width, height: 844 }, javaScriptEnabled: false });
      await page.goto(`${server.origin}/earth/LNG/`);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      ).toBeLessThanOrEqual(0);
      const h1 = page.locator('h1 .clamp');
      expect(await h1.getAttribute('title')).toBe(LONG);
      expect((await h1.boundingBox())!.height).toBeLessThan(200); // three lines, not 2,500
      expect((await page.locator('.breadcrumb [aria-current=page]').boundingBox())!.height).toBeLessThan(60);
      // The unit's name in the units list wraps inside its table too.
      const cell = (await page.locator('#unit-LN-01 th').boundingBox())!;
      expect(cell.x + cell.width).toBeLessThanOrEqual(width);
      await page.close();
    },
  );
});
