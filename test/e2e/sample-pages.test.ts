/// <reference lib="dom" />
// (DOM types: this file drives a browser, and its page.evaluate() callbacks run there.)
// Every country page of the sample data (data/earth, ~240 countries) in
// Chromium, built as `geoshelf build` builds it: no horizontal scroll at
// phone, tablet and desktop widths once the script has rendered the units
// list; and the paged units list of a large level (the USA's 3,141
// counties), with and without script, axe-clean in light and dark.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, pageWithErrors, serveBuilt } from './browser.ts';
import { axeViolations } from './axe.ts';

const ROOT = join(import.meta.dirname, '../..');
const WIDTHS = [320, 390, 768, 1280];

/** Waits until the page's script has rendered the units list (pages without units have none). */
async function listed(page: Page): Promise<void> {
  await page.waitForFunction(
    () => !document.getElementById('units') || document.querySelector('#units [role=status]'),
  );
}

describe.skipIf(!HAVE_CHROMIUM)('sample data pages in Chromium', () => {
  let out: string;
  let browser: Browser;
  let server: { origin: string; close: () => void };
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'geoshelf-sample-'));
    ({ server, browser } = await serveBuilt(ROOT, join(out, 'dist')));
    page = await pageWithErrors(browser, errors, { viewport: { width: 390, height: 844 } });
  }, 360_000); // a cold build of the whole sample: minutes on a loaded 2-core machine

  afterAll(async () => {
    expect(errors).toEqual([]);
    await browser?.close();
    server?.close();
    if (out) rmSync(out, { recursive: true, force: true });
  });

  it(`no country page scrolls sideways at ${WIDTHS.join(', ')} px`, { timeout: 600_000 }, async () => {
    const countries = readdirSync(join(out, 'dist/earth')).filter((d) => /^[A-Z]{3}$/.test(d));
    expect(countries.length).toBeGreaterThanOrEqual(235);
    const wide: string[] = [];
    // A few tabs at once: a page mostly waits on its script and its JSON document.
    const queue = [...countries];
    const tabs = await Promise.all(
      [1, 2, 3].map(() => browser.newPage({ viewport: { width: WIDTHS[0], height: 844 } })),
    );
    await Promise.all(
      tabs.map(async (tab) => {
        tab.on('pageerror', (error) => errors.push(error.message));
        for (let iso = queue.shift(); iso; iso = queue.shift()) {
          await tab.setViewportSize({ width: WIDTHS[0], height: 844 });
          await tab.goto(`${server.origin}/earth/${iso}/`, { waitUntil: 'domcontentloaded' });
          await listed(tab);
          for (const width of WIDTHS) {
            await tab.setViewportSize({ width, height: 844 });
            const over = await tab.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
            if (over > 0) wide.push(`${iso} at ${width} px: ${over} px too wide`);
          }
        }
        await tab.close();
      }),
    );
    expect(wide).toEqual([]);
  });

  const status = () => page.textContent('#units-ADM2 ~ [role=status]');
  const names = () =>
    page.$$eval('#units-ADM2 ~ .table-scroll tbody tr', (trs) =>
      trs.map((tr) => [
        (tr as HTMLTableRowElement).cells[0].textContent,
        (tr as HTMLTableRowElement).cells[1].textContent,
      ]),
    );

  it(
    'USA ADM2: 3,141 counties in pages of 100, each with its FIPS code; a permalink opens its page',
    { timeout: 120_000 },
    async () => {
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`${server.origin}/earth/USA/?ulevel=ADM2`);
      await listed(page);
      expect(await status()).toBe('Showing 1–100 of 3,141');
      expect((await names())[0]).toEqual(['Abbeville', '45001']);
      expect(await page.locator('#units-ADM2 ~ .table-scroll tbody tr').count()).toBe(100);
      await page.click('#units-ADM2 ~ .pager button:has-text("Next")');
      expect(await status()).toBe('Showing 101–200 of 3,141');
      expect(page.url()).toContain('pADM2=2');
      await page.fill('#units-filter-ADM2', 'autauga');
      expect(await names()).toEqual([['Autauga', '01001']]);
      expect(await page.isVisible('#units-ADM2 ~ .pager')).toBe(false);
      await page.goto(`${server.origin}/earth/USA/#unit-USA-ADM2-US-WY.56045`); // Weston, near the end by name
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.id))
        .toBe('unit-USA-ADM2-US-WY.56045');
      expect(await page.inputValue('#units-level')).toBe('ADM2');
      expect(await status()).toMatch(/^Showing 3,[01]\d\d–3,[01]\d\d of 3,141$/);
    },
  );

  it("every unit's label point lies inside the unit (Chile, the USA, Fiji, Kiribati, Canada, Japan, the world map)", async () => {
    const outside: string[] = [];
    for (const path of [
      '/',
      '/earth/CHL/',
      '/earth/USA/',
      '/earth/FJI/',
      '/earth/KIR/',
      '/earth/CAN/',
      '/earth/JPN/',
    ]) {
      await page.goto(`${server.origin}${path}`);
      await page.waitForSelector('.map-view svg');
      // The point labels.ts writes a name at: data-at, else the centre of data-box, else of the path's box.
      const wrong = await page.evaluate(() =>
        Array.from(document.querySelectorAll<SVGPathElement>('.map-view path.f[data-u]'))
          .filter((p) => p.querySelector('title')?.textContent)
          .flatMap((p) => {
            const given = (p.dataset.at ?? '').split(' ').map(Number);
            const box = p.dataset.box?.split(' ').map(Number);
            const b = p.getBBox();
            const [x0, y0, x1, y1] = box ?? [b.x, b.y, b.x + b.width, b.y + b.height];
            const [x, y] = given.length === 2 ? given : [(x0! + x1!) / 2, (y0! + y1!) / 2];
            const point = new DOMPoint(x, y);
            return p.isPointInFill(point) ? [] : [`${p.dataset.u} at ${x!.toFixed(1)} ${y!.toFixed(1)}`];
          }),
      );
      outside.push(...wrong.map((w) => `${path}: ${w}`));
    }
    expect(outside).toEqual([]);
  });

  it('"Show all" (Kiribati, Fiji): every island is seen, by itself or in a ring, and none is cut at the edge', async () => {
    const wide = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      for (const iso of ['KIR', 'FJI']) {
        await wide.goto(`${server.origin}/earth/${iso}/`);
        await wide.waitForSelector('.map-view svg');
        await wide.click('.map-tools button:has-text("Show all")');
        await wide.waitForFunction(() => new Promise((r) => requestAnimationFrame(() => r(true))));
        const { unseen, cut } = await wide.evaluate(() => {
          const svg = document.querySelector<SVGSVGElement>('.map-view svg')!;
          const frame = svg.getBoundingClientRect();
          const m = svg.getScreenCTM()!;
          const rings = Array.from(svg.querySelectorAll<SVGCircleElement>('circle.m'))
            .filter((c) => getComputedStyle(c).display !== 'none')
            .map((c) => c.getBoundingClientRect());
          // Each island of the picture: a subpath of "M x y" then relative l/h/v moves (map-svg.ts).
          const islands: DOMRect[] = [];
          for (const path of Array.from(svg.querySelectorAll<SVGPathElement>('path.f'))) {
            for (const sub of (path.getAttribute('d') ?? '').split('M').filter(Boolean)) {
              const [x, y] = sub
                .split(/[lhvz]/)[0]!
                .trim()
                .split(/\s+|(?=-)/)
                .map(Number);
              let [cx, cy, x0, y0, x1, y1] = [x!, y!, x!, y!, x!, y!];
              for (const [, op, args] of sub.matchAll(/([lhv])([^lhvz]*)/g)) {
                const n = args!
                  .trim()
                  .split(/\s+|(?=-)/)
                  .filter(Boolean)
                  .map(Number);
                if (op === 'l') [cx, cy] = [cx + n[0]!, cy + n[1]!];
                else if (op === 'h') cx += n[0]!;
                else cy += n[0]!;
                [x0, y0, x1, y1] = [Math.min(x0, cx), Math.min(y0, cy), Math.max(x1, cx), Math.max(y1, cy)];
              }
              const a = new DOMPoint(x0, y0).matrixTransform(m);
              const b = new DOMPoint(x1, y1).matrixTransform(m);
              islands.push(new DOMRect(a.x, a.y, b.x - a.x, b.y - a.y));
            }
          }
          const inside = (r: DOMRect) =>
            r.left >= frame.left - 0.5 &&
            r.right <= frame.right + 0.5 &&
            r.top >= frame.top - 0.5 &&
            r.bottom <= frame.bottom + 0.5;
          const centre = (r: DOMRect) => [r.left + r.width / 2, r.top + r.height / 2];
          const ringed = (r: DOMRect) =>
            rings.some(
              (ring) => Math.hypot(centre(ring)[0]! - centre(r)[0]!, centre(ring)[1]! - centre(r)[1]!) <= 16,
            );
          // A speck beside an island seen by itself is seen with it (map-svg.ts rings only the others).
          const seen = islands.filter((r) => Math.max(r.width, r.height) >= 6);
          const beside = (r: DOMRect) =>
            seen.some((s) => {
              const [x, y] = centre(r);
              return (
                Math.hypot(Math.max(s.left - x!, 0, x! - s.right), Math.max(s.top - y!, 0, y! - s.bottom)) <=
                16
              );
            });
          return {
            unseen: islands.filter((r) => Math.max(r.width, r.height) < 6 && !ringed(r) && !beside(r)).length,
            cut: [...islands, ...rings].filter((r) => !inside(r)).length,
          };
        });
        expect({ iso, unseen, cut }).toEqual({ iso, unseen: 0, cut: 0 });
      }
    } finally {
      await wide.close();
    }
  });

  it(
    'USA ADM2 without script: the first 100 counties on the page, the next ones a link away',
    { timeout: 120_000 },
    async () => {
      const context = await browser.newContext({
        javaScriptEnabled: false,
        viewport: { width: 390, height: 844 },
      });
      const plain = await context.newPage();
      await plain.goto(`${server.origin}/earth/USA/`);
      expect(await plain.locator('#units-ADM2 ~ .table-scroll tbody tr').count()).toBe(100);
      await plain.click('#units-ADM2 ~ .pager a[rel=next]');
      // Its own document, not every picture it loads: a bound for a hang (a clean-clone CI at load 8+ took over 30 s).
      await plain.waitForURL(`${server.origin}/earth/USA/units/ADM2/2/`, {
        waitUntil: 'domcontentloaded',
        timeout: 90_000,
      });
      expect(await plain.textContent('h1')).toBe(
        'United States of America: ADM2 units 101–200 of 3,141, by name',
      );
      expect(await plain.locator('tbody tr').count()).toBe(100);
      const over = await plain.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(over).toBeLessThanOrEqual(0);
      await context.close();
    },
  );

  it.each(['light', 'dark'] as const)(
    'axe-core (WCAG 2.2 AA): the USA ADM2 list and its page 2 (%s)',
    async (scheme) => {
      await page.emulateMedia({ colorScheme: scheme });
      for (const path of ['/earth/USA/?ulevel=ADM2&pADM2=2', '/earth/USA/units/ADM2/2/']) {
        await page.goto(`${server.origin}${path}`);
        await listed(page);
        const violations = await axeViolations(page);
        expect(violations, `${path} (${scheme})`).toEqual([]);
      }
      await page.emulateMedia({ colorScheme: 'light' });
    },
    120_000, // axe on a page of 100 units with their 3,141 in the script's memory
  );
});
