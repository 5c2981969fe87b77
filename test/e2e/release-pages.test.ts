// A release's pages link relatively (build/release/site-files.ts), and their
// scripts take the base from the page: searched, opened and fetched in
// Chromium under releases/VERSION/, everything stays inside the release,
// the world map its front page links as a file of its own included.
import { rmSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRelease } from '../../build/release/release.ts';
import { fixtureCopy } from '../build/helpers.ts';
import { HAVE_CHROMIUM, pageWithErrors, serveBuilt } from './browser.ts';

describe.skipIf(!HAVE_CHROMIUM)('a release in Chromium', () => {
  let root: string;
  let browser: Browser;
  let server: { origin: string; close: () => void };
  let page: Page;
  const errors: string[] = [];
  const outside: string[] = []; // requests that leave the release's folder

  beforeAll(async () => {
    root = fixtureCopy();
    const made = await makeRelease(root, '1.0.0', {
      geometry: false,
    });
    expect(made.status).toBe('recorded');
    ({ server, browser } = await serveBuilt(root));
    page = await pageWithErrors(browser, errors);
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin === server.origin && !url.pathname.startsWith('/releases/1.0.0/'))
        outside.push(url.pathname);
    });
  });

  afterAll(async () => {
    await browser?.close();
    server?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('its front page searches places from its own files, and a hit opens its country page in the release', async () => {
    await page.goto(`${server.origin}/releases/1.0.0/`);
    expect(await page.textContent('#release')).toContain('This is release 1.0.0');
    await page.fill('#q', 'antofagasta');
    await page.waitForSelector('#results-list a');
    const hit = page.locator('#results-list a').first();
    expect(new URL((await hit.evaluate((a) => (a as HTMLAnchorElement).href)) as string).pathname).toMatch(
      /^\/releases\/1\.0\.0\/earth\/CHL\//,
    );
    await hit.click();
    await page.waitForURL(/\/releases\/1\.0\.0\/earth\/CHL\//);
    expect(await page.textContent('h1')).toBe('Chile');
    await page.waitForLoadState('networkidle');
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('its world map is an image of its own file without script, and with script the map that opens countries in the release', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const plain = await context.newPage();
    await plain.goto(`${server.origin}/releases/1.0.0/`);
    const image = plain.locator('figure.world img.map-picture');
    expect(await image.getAttribute('alt')).toBe('Map of every country and territory in the catalogue');
    await expect
      .poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    expect(await plain.locator('figure.world svg').count()).toBe(0);
    await context.close();

    await page.goto(`${server.origin}/releases/1.0.0/`);
    await page.waitForSelector('figure.world .map-view svg');
    expect(await page.locator('figure.world img, figure.world svg style').count()).toBe(0); // the page's style draws it
    await page.focus('figure.world .map-view');
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => (document.activeElement as SVGElement | null)?.dataset.u);
    expect(focused).toMatch(/^\.\/earth\/[A-Z]{3}\/$/);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.origin}/releases/1.0.0/${focused!.slice(2)}`);
    await page.waitForLoadState('networkidle');
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
  });
});
