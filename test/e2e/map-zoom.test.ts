/// <reference lib="dom" />
// (DOM types: this file drives a browser, and its page.evaluate() callbacks run there.)
// Wheel zoom in Chromium keeps the point under the cursor under the cursor,
// on the index's world map and on a country page, on a wide screen (where the
// map's box is wider than its picture, which the SVG centres) and on a phone.
// Real wheel events (page.mouse.wheel); the point is followed through a unit's
// bounding box on screen.
import { rmSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCopy } from '../build/helpers.ts';
import { HAVE_CHROMIUM, pageWithErrors, serveBuilt } from './browser.ts';

/** Returns the screen box of the picture's shape of unit `id`. */
function boxOf(page: Page, id: string): Promise<{ x: number; y: number; w: number; h: number }> {
  return page.evaluate((id) => {
    const shape = Array.from(document.querySelectorAll<SVGGraphicsElement>('.map-view path.f[data-u]')).find(
      (el) => el.dataset.u === id,
    );
    if (!shape) throw new Error(`no shape of ${id}`);
    const r = shape.getBoundingClientRect();
    return { x: r.left, y: r.top, w: r.width, h: r.height };
  }, id);
}

describe.skipIf(!HAVE_CHROMIUM)('wheel zoom keeps the point under the cursor, in Chromium', () => {
  let root: string;
  let browser: Browser;
  let server: { origin: string; close: () => void };
  const errors: string[] = [];

  beforeAll(async () => {
    root = fixtureCopy();
    ({ server, browser } = await serveBuilt(root));
  });

  afterAll(async () => {
    expect(errors).toEqual([]);
    await browser?.close();
    server?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const cases = [
    { width: 1280, path: '/', unit: '/earth/CHL/' },
    { width: 390, path: '/', unit: '/earth/CHL/' },
    { width: 1280, path: '/earth/CHL/', unit: 'CL-RM' },
    { width: 390, path: '/earth/CHL/', unit: 'CL-RM' },
  ];
  for (const { width, path, unit } of cases) {
    it(`${path} at ${width}×900: ${unit} stays under the cursor for four notches in and one out`, async () => {
      const page = await pageWithErrors(browser, errors, { viewport: { width, height: 900 } });
      try {
        await page.goto(`${server.origin}${path}`);
        await page.waitForSelector('.map-view svg');
        const start = await boxOf(page, unit);
        // A point about a third across and down the unit's box, on whole pixels (a wheel event's
        // clientX and clientY are whole), followed by its share of the box.
        const cursor = { x: Math.round(start.x + start.w / 3), y: Math.round(start.y + start.h / 3) };
        const [u, v] = [(cursor.x - start.x) / start.w, (cursor.y - start.y) / start.h];
        await page.mouse.move(cursor.x, cursor.y);
        const drift: number[] = [];
        for (const dy of [-100, -100, -100, -100, 100]) {
          await page.mouse.wheel(0, dy);
          await page.waitForFunction(() => new Promise((r) => requestAnimationFrame(() => r(true))));
          const b = await boxOf(page, unit);
          drift.push(Math.round(Math.hypot(b.x + b.w * u - cursor.x, b.y + b.h * v - cursor.y) * 10) / 10);
        }
        const end = await boxOf(page, unit);
        expect(end.w).toBeGreaterThan(start.w * 2); // it did zoom
        expect(Math.max(...drift), `drift after each notch (px): ${drift.join(', ')}`).toBeLessThanOrEqual(
          1.5,
        );
      } finally {
        await page.close();
      }
    });
  }
});
