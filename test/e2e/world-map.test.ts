/// <reference lib="dom" />
// (DOM types: this file drives a browser, and its page.evaluate() callbacks run there.)
// The front page's world map in Chromium, on the built fixture catalogue
// (Chile, Fiji, the Netherlands Antilles) served as plain files: the picture without
// script, naming by pointer and keyboard, a country opening its page, the
// table's filter highlighting its matches, the full-detail tiles named like
// the picture, and axe-core in light and dark with the map showing.
import { rmSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCopy } from '../build/helpers.ts';
import { axeViolations } from './axe.ts';
import { HAVE_CHROMIUM, pageWithErrors, serveBuilt } from './browser.ts';

describe.skipIf(!HAVE_CHROMIUM)('world map on the index, in Chromium', () => {
  let root: string;
  let browser: Browser;
  let server: { origin: string; close: () => void };
  let page: Page;
  const errors: string[] = [];
  const info = () => page.textContent('figure.world .map-info');

  /** Returns a screen point where country `id` is what the pointer meets (its shape or its ring). */
  const pointOn = (id: string) =>
    page.evaluate((id) => {
      const shapes = Array.from(document.querySelectorAll<SVGGraphicsElement>('figure.world [data-u]'));
      for (const shape of shapes.filter((el) => el.dataset.u === id)) {
        const r = shape.getBoundingClientRect();
        for (let i = 0; i <= 20; i++) {
          for (let j = 0; j <= 20; j++) {
            const [x, y] = [r.left + (r.width * i) / 20, r.top + (r.height * j) / 20];
            const hit = document.elementFromPoint(x, y)?.closest<SVGElement>('[data-u], [data-t]');
            if ((hit?.dataset.u ?? hit?.dataset.t) === id) return { x, y };
          }
        }
      }
      throw new Error(`no point on ${id}`);
    }, id);

  beforeAll(async () => {
    root = fixtureCopy();
    ({ server, browser } = await serveBuilt(root));
    page = await pageWithErrors(browser, errors, { viewport: { width: 1280, height: 900 } });
  });

  afterAll(async () => {
    expect(errors).toEqual([]);
    await browser?.close();
    server?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('without script: the picture shows every country, named, in one labelled image', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const plain = await context.newPage();
    await plain.goto(`${server.origin}/`);
    const svg = plain.locator('figure.world svg');
    expect(await svg.getAttribute('role')).toBe('img');
    expect(await svg.locator('#map-title').textContent()).toBe(
      'Map of every country and territory in the catalogue',
    );
    const countries = await plain.$$eval('figure.world path.f', (paths) =>
      paths.map((p) => [p.getAttribute('data-u'), p.querySelector('title')?.textContent]),
    );
    expect(countries.sort()).toEqual([
      ['/earth/ANT/', 'Netherlands Antilles'],
      ['/earth/CHL/', 'Chile'],
      ['/earth/FJI/', 'Fiji'],
    ]);
    await context.close();
  });

  it('pointing at a country names it; clicking it opens its page', async () => {
    await page.goto(`${server.origin}/`);
    await page.waitForSelector('figure.world .map-view');
    const chile = await pointOn('/earth/CHL/');
    await page.mouse.move(chile.x, chile.y);
    await expect.poll(info).toBe('Chile · open its page');
    await page.mouse.click(chile.x, chile.y);
    await page.waitForURL(`${server.origin}/earth/CHL/`);
  });

  it('on a phone the map fits the width; the first tap names a country and a second tap opens its page', async () => {
    const context = await browser.newContext({ hasTouch: true, viewport: { width: 390, height: 844 } });
    const phone = await context.newPage();
    await phone.goto(`${server.origin}/`);
    await phone.waitForSelector('figure.world .map-view');
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390); // no sideways scroll
    const saved = page;
    page = phone; // pointOn and info read `page`
    try {
      const chile = await pointOn('/earth/CHL/');
      await phone.touchscreen.tap(chile.x, chile.y);
      await expect.poll(info).toBe('Chile · open its page');
      expect(phone.url()).toBe(`${server.origin}/`);
      await phone.touchscreen.tap(chile.x, chile.y);
      await phone.waitForURL(`${server.origin}/earth/CHL/`);
    } finally {
      page = saved;
      await context.close();
    }
  });

  it('Tab reaches the countries as one stop; arrows move between them; Enter opens the one focused', async () => {
    await page.goto(`${server.origin}/`);
    await page.waitForSelector('figure.world .map-view');
    await page.focus('figure.world .map-view');
    await page.keyboard.press('Tab');
    const focused = () => page.evaluate(() => (document.activeElement as SVGElement | null)?.dataset.u);
    const first = await focused();
    expect(first).toMatch(/^\/earth\/[A-Z]{3}\/$/);
    await page.keyboard.press('ArrowRight');
    const second = await focused();
    expect(second).not.toBe(first);
    const name = await page.getAttribute(`figure.world path.f[data-u="${second}"]`, 'aria-label');
    await expect.poll(info).toBe(`${name} · open its page`);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.origin}${second}`);
  });

  it('filtering the table dims the countries it hides', async () => {
    await page.goto(`${server.origin}/`);
    await page.waitForSelector('figure.world .map-view');
    await page.fill('#q', 'chile');
    await expect.poll(() => page.textContent('#count')).toBe('Showing 1 of 3');
    const state = () =>
      page.$$eval('figure.world path.f', (paths) =>
        paths.map((p) => `${p.dataset.u} ${p.classList.contains('match')}`).sort(),
      );
    await expect.poll(state).toEqual(['/earth/ANT/ false', '/earth/CHL/ true', '/earth/FJI/ false']);
    expect(await page.getAttribute('figure.world svg', 'class')).toContain('filtered');
    await page.fill('#q', '');
    await expect.poll(() => page.getAttribute('figure.world svg', 'class')).not.toContain('filtered');
  });

  it('zooming in loads the world tiles, each piece named by its country', async () => {
    await page.goto(`${server.origin}/`);
    await page.waitForSelector('figure.world .map-view');
    await page.focus('figure.world .map-view');
    for (let i = 0; i < 3; i++) await page.keyboard.press('+');
    await page.waitForSelector('figure.world path.t');
    const ids = await page.$$eval('figure.world path.t', (paths) => [
      ...new Set(paths.map((p) => p.dataset.t)),
    ]);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(['/earth/ANT/', '/earth/CHL/', '/earth/FJI/']).toContain(id);
  });

  it.each(['light', 'dark'] as const)(
    'axe-core (WCAG 2.2 AA): no violations on the index with the world map showing (%s)',
    async (scheme) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${server.origin}/`);
      await page.waitForSelector('figure.world .map-view');
      const fiji = await pointOn('/earth/FJI/'); // the naming line and its link showing
      await page.mouse.move(fiji.x, fiji.y);
      await expect.poll(info).toBe('Fiji · open its page');
      expect(await axeViolations(page), scheme).toEqual([]);
      await page.emulateMedia({ colorScheme: 'light' });
    },
  );
});
