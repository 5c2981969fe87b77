/// <reference lib="dom" />
// (DOM types: this file drives a browser, and its page.evaluate() callbacks run there.)
// axe-core (WCAG 2.2 AA) on a country page with its map zoomed in until the
// full-detail tiles and the unit labels draw (issue 19, "Done when"), in light
// and dark: what the page adds as the reader zooms must stay as accessible as
// the first paint. One page load per colour scheme.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, pageWithErrors, serveBuilt } from './browser.ts';
import { axeViolations } from './axe.ts';

const SAMPLE = join(import.meta.dirname, '../../data/earth');

describe.skipIf(!HAVE_CHROMIUM)('the zoomed map in Chromium', () => {
  let root: string;
  let browser: Browser;
  let server: { origin: string; close: () => void };
  const errors: string[] = [];

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'geoshelf-map-axe-'));
    cpSync(join(SAMPLE, 'CHL'), join(root, 'data/earth/CHL'), { recursive: true });
    ({ server, browser } = await serveBuilt(root));
  }, 120_000);

  afterAll(async () => {
    expect(errors).toEqual([]);
    await browser?.close();
    server?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it.each(['light', 'dark'] as const)(
    'axe-core (WCAG 2.2 AA): Chile zoomed in until tiles and labels draw (%s)',
    async (colorScheme) => {
      const page = await pageWithErrors(browser, errors, {
        viewport: { width: 1280, height: 900 },
        colorScheme,
      });
      try {
        await page.goto(`${server.origin}/earth/CHL/`);
        await page.waitForSelector('.map-tools');
        const zoomIn = page.locator('.map-tools button[aria-label="Zoom in"]');
        for (let i = 0; i < 3; i++) await zoomIn.click();
        await expect.poll(() => page.locator('figure.map svg .t').count()).toBeGreaterThan(0);
        await expect.poll(() => page.locator('figure.map svg g.labels text').count()).toBeGreaterThan(0);
        const violations = await axeViolations(page);
        expect(violations, colorScheme).toEqual([]);
      } finally {
        await page.close();
      }
    },
    120_000,
  );
});
