/// <reference lib="dom" />
// (DOM types: this file drives a browser, and its page.evaluate() callbacks run there.)
// End to end in a real browser: the built fixture catalogue, served as plain
// files, searched, opened, its map seen, a download checked against its sha256.
// Screenshots go to test-results/ (a CI artifact, gitignored).
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCopy } from '../build/helpers.ts';
import { HAVE_CHROMIUM, serveBuilt } from './browser.ts';

const RESULTS = join(process.cwd(), 'test-results');

if (!HAVE_CHROMIUM && process.env.CI) {
  throw new Error('/usr/bin/chromium is missing: CI must install Debian chromium (see .ci/run)');
}
if (!HAVE_CHROMIUM) {
  console.warn('skipping browser tests: /usr/bin/chromium is absent (apt-get install chromium)');
}

describe.skipIf(!HAVE_CHROMIUM)('catalogue in Chromium', () => {
  let root: string;
  let browser: Browser;
  let server: { origin: string; close: () => void };
  let page: Page;

  beforeAll(async () => {
    root = fixtureCopy();
    ({ server, browser } = await serveBuilt(root));
    const context = await browser.newContext({
      acceptDownloads: true,
      viewport: { width: 1280, height: 900 },
    });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
    page = await context.newPage();
    mkdirSync(RESULTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    server?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const visibleCodes = () =>
    page.$$eval('#catalogue tbody tr:not([hidden])', (rows) =>
      rows.map((r) => (r as HTMLTableRowElement).cells[1].textContent),
    );

  it('index: search "chile" → Chile; "Fiyi" (es) → Fiji; status deprecated → ANT; "CL" (ISO2) → Chile', async () => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${server.origin}/`);
    expect(await visibleCodes()).toEqual(['CHL', 'FJI', 'ANT']); // by English name
    await page.fill('#q', 'chile');
    expect(await visibleCodes()).toEqual(['CHL']);
    expect(await page.textContent('#count')).toBe('Showing 1 of 3');
    await page.fill('#q', 'Fiyi');
    expect(await visibleCodes()).toEqual(['FJI']);
    await page.fill('#q', '');
    await page.selectOption('#f-status', 'deprecated');
    expect(await visibleCodes()).toEqual(['ANT']);
    expect(page.url()).toContain('status=deprecated');
    await page.click('button[type=reset]');
    await page.fill('#q', 'CL');
    expect(await visibleCodes()).toEqual(['CHL']);
    await page.screenshot({ path: join(RESULTS, 'e2e-index.png'), fullPage: true });
    expect(errors).toEqual([]);
  });

  it('index search at 1280×900: above the fold; no request for a shard that does not exist; typos corrected; a code with a name', async () => {
    const failed: string[] = [];
    const logged: string[] = [];
    const onResponse = (r: { status(): number; url(): string }) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    };
    const onConsole = (m: { type(): string; text(): string }) => {
      if (m.type() === 'error' || m.type() === 'warning') logged.push(m.text());
    };
    page.on('response', onResponse);
    page.on('console', onConsole);
    try {
      await page.goto(`${server.origin}/`);
      // What can be found below the countries, counted from the data: only Chile has ADM1.
      expect(await page.textContent('#q-hint')).toBe(
        'Subdivisions (ADM1 and deeper) can be searched in 1 of the 3 countries and territories; the others are found by their own names and codes.',
      );
      const status = () => page.textContent('#results-status');
      const first = () => page.textContent('#results-list li:first-child a');
      await page.fill('#q', 'xyzzy'); // no word of any name starts "xy"
      await expect.poll(status).toBe('No place found for “xyzzy”.');
      await page.fill('#q', 'santaigo');
      await expect.poll(status).toBe('No place found for “santaigo”; 2 places found for “santiago”.');
      expect(
        await page.$$eval('#results-list li a:not(.result-geojson)', (as) => as.map((a) => a.textContent)),
      ).toEqual([
        'Santiago', // the commune (ADM2), an exact name
        'Región Metropolitana de Santiago',
      ]);
      await page.fill('#q', 'CL-RM santiago');
      await expect.poll(status).toBe('1 place found');
      expect(await first()).toBe('Región Metropolitana de Santiago');
      // The box and its first result are on screen without scrolling.
      const [box, result] = await page.evaluate(() => [
        document.getElementById('q')!.getBoundingClientRect().top,
        document.querySelector('#results-list li')!.getBoundingClientRect().bottom,
      ]);
      expect(box).toBeLessThan(300);
      expect(result).toBeLessThan(900);
      expect(failed).toEqual([]);
      expect(logged).toEqual([]);
    } finally {
      page.off('response', onResponse);
      page.off('console', onConsole);
    }
  });

  it('index: sorting by ISO3 reorders the rows, twice reverses them', async () => {
    await page.goto(`${server.origin}/`);
    await page.click('button[data-sort=iso3]');
    expect(await visibleCodes()).toEqual(['ANT', 'CHL', 'FJI']);
    await page.click('button[data-sort=iso3]');
    expect(await visibleCodes()).toEqual(['FJI', 'CHL', 'ANT']);
    expect(await page.getAttribute('th:has(button[data-sort=iso3])', 'aria-sort')).toBe('descending');
  });

  it('Chile: opened from the search, its map drawn, downloads (GeoJSON, part, GeoPackage, archive) match the sha256 on the page', async () => {
    await page.goto(`${server.origin}/?q=chile`);
    await page.click('#catalogue a:has-text("Chile")');
    await page.waitForURL(/\/earth\/CHL\/$/);
    expect(await page.textContent('h1')).toBe('Chile');

    const d = await page.getAttribute('figure.map svg path', 'd');
    expect(d?.length ?? 0).toBeGreaterThan(20);
    const box = await page.locator('figure.map svg').boundingBox();
    expect(box!.width).toBeGreaterThan(200);
    expect(box!.height).toBeGreaterThan(100);

    const row = page.locator('table.datasets tbody tr', { has: page.locator('th', { hasText: 'ADM1' }) });
    const shown = (await row.locator('code.sha').textContent())!.trim();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.locator('a.download', { hasText: 'GeoJSON' }).click(),
    ]);
    const bytes = readFileSync((await download.path())!);
    expect(download.suggestedFilename()).toBe('CHL_ADM1.geojson');
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(shown);

    const part = page.locator('tr', { has: page.locator('th code', { hasText: 'CL-RM' }) });
    const partSha = (await part.locator('code.sha').textContent())!.trim();
    const [partDownload] = await Promise.all([
      page.waitForEvent('download'),
      part.locator('a.download', { hasText: 'GeoJSON' }).click(),
    ]);
    expect(
      createHash('sha256')
        .update(readFileSync((await partDownload.path())!))
        .digest('hex'),
    ).toBe(partSha);

    // Another format (its sha256 in the link's title) and the country archive (its sha256 shown).
    const gpkg = row.locator('a.download', { hasText: 'GeoPackage' });
    const gpkgSha = (await gpkg.getAttribute('title'))!.split('sha256 ')[1];
    const [gpkgDownload] = await Promise.all([page.waitForEvent('download'), gpkg.click()]);
    expect(gpkgDownload.suggestedFilename()).toBe('CHL_ADM1.gpkg');
    const gpkgBytes = readFileSync((await gpkgDownload.path())!);
    expect(createHash('sha256').update(gpkgBytes).digest('hex')).toBe(gpkgSha);
    const archiveSha = (await page.locator('#downloads + p code.sha').textContent())!.trim();
    const [archive] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('#downloads + p a.download').click(),
    ]);
    expect(archive.suggestedFilename()).toBe('CHL.zip');
    const archiveBytes = readFileSync((await archive.path())!);
    expect(createHash('sha256').update(archiveBytes).digest('hex')).toBe(archiveSha);

    await row.locator('button.copy').click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown);
    await page.screenshot({ path: join(RESULTS, 'e2e-chile.png'), fullPage: true });
  });

  it('the index stays a table for assistive tech (rows and cells by role), rows hidden by search are not shown', async () => {
    await page.goto(`${server.origin}/`);
    expect(await page.getByRole('columnheader', { name: 'ISO3' }).count()).toBe(1);
    // The catalogue's own table (the world files have one of their own below it).
    expect(await page.locator('#catalogue').getByRole('row').count()).toBe(4); // header + 3 entries
    expect(await page.getByRole('cell', { name: 'FJI', exact: true }).count()).toBe(1);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 844 });
      await page.fill('#q', 'fiji');
      expect(await page.locator('#catalogue tbody tr:visible').count(), `width ${width}`).toBe(1);
      await page.fill('#q', '');
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('phone width: the Chile page reads without horizontal scrolling of the page', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.origin}/earth/CHL/`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(RESULTS, 'e2e-chile-phone.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('the API page on a phone (390 px): each path above its description, which has the width; no sideways scroll', async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    try {
      await phone.goto(`${server.origin}/api/v1/`);
      const { widths, scroll, height } = await phone.evaluate(() => ({
        widths: Array.from(document.querySelectorAll('dl.api-docs dd')).map(
          (dd) => dd.getBoundingClientRect().width,
        ),
        scroll: document.documentElement.scrollWidth,
        height: document.documentElement.scrollHeight,
      }));
      expect(widths.length).toBeGreaterThan(3);
      expect(Math.min(...widths)).toBeGreaterThan(300); // was 16 px: one character per line
      expect(scroll).toBeLessThanOrEqual(390);
      expect(height).toBeLessThan(4000); // was 24,306 px
    } finally {
      await phone.close();
    }
  });

  it('status review and deprecated are announced on the page', async () => {
    await page.goto(`${server.origin}/earth/FJI/`);
    expect(await page.textContent('.banner')).toContain('under review');
    await page.goto(`${server.origin}/earth/ANT/`);
    expect(await page.textContent('.banner')).toContain('deprecated');
  });
});
