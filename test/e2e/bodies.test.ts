/// <reference lib="dom" />
// (DOM types: this file drives a browser, and its page.evaluate() callbacks run there.)
// Mars and the Moon end to end in Chromium: the build fixture's Earth tree
// plus the committed sample data of both bodies (data/mars/MCQ/,
// data/moon/LQS/), built and served as plain files. The Mars page shows its
// 30 quadrangles on its map and finds "Mare Boreum" through its search box;
// the front page links the bodies and keeps them off its world map.
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCopy } from '../build/helpers.ts';
import { axeViolations } from './axe.ts';
import { HAVE_CHROMIUM, pageWithErrors, serveBuilt } from './browser.ts';

const REPO = join(import.meta.dirname, '../..');

describe.skipIf(!HAVE_CHROMIUM)('Mars and the Moon in Chromium', () => {
  let root: string;
  let browser: Browser;
  let server: { origin: string; close: () => void };
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    root = fixtureCopy();
    for (const folder of ['data/mars', 'data/moon'])
      cpSync(join(REPO, folder), join(root, folder), { recursive: true });
    ({ server, browser } = await serveBuilt(root));
    page = await pageWithErrors(browser, errors, { viewport: { width: 1280, height: 900 } });
  }, 120_000);

  afterAll(async () => {
    expect(errors).toEqual([]);
    await browser?.close();
    server?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const shapes = (prefix: string) =>
    page.$$eval(`figure.map path[data-u^="${prefix}"]`, (paths) =>
      paths.map((p) => [p.getAttribute('data-u'), p.querySelector('title')?.textContent]),
    );

  it("the Mars page's map shows the 30 quadrangles, each named and linked to its permalink", async () => {
    await page.goto(`${server.origin}/mars/`);
    const drawn = await shapes('/mars/MCQ/#unit-');
    expect(drawn).toHaveLength(30);
    expect(drawn[0]).toEqual(['/mars/MCQ/#unit-MC-01', 'Mare Boreum']);
    expect(drawn[29]).toEqual(['/mars/MCQ/#unit-MC-30', 'Mare Australe']);
    // and nothing of the Earth, on the map or in the table
    expect(await shapes('/earth/')).toEqual([]);
    const rows = await page.$$eval('#catalogue tbody tr', (trs) =>
      trs.map((tr) => (tr as HTMLTableRowElement).cells[1].textContent),
    );
    expect(rows).toEqual(['MCQ']);
  });

  it('the Mars page finds "Mare Boreum" through its search box, and the result opens the unit', async () => {
    await page.goto(`${server.origin}/mars/`);
    await page.fill('#q', 'Mare Boreum');
    const results = () => page.$$eval('#results-list li', (items) => items.map((li) => li.textContent));
    // The unit's facts: its area on Mars's sphere and its own GeoJSON (2π R² (1 − sin 65°) = 6,789,660 km²).
    await expect
      .poll(results)
      .toEqual(['Mare Boreum QUAD in Mars Chart (MC) quadrangles 6,789,660 km² · GeoJSON']);
    const href = await page.getAttribute('#results-list a.result-geojson', 'href');
    expect(href).toBe('/api/v1/mars/MCQ/units/QUAD/MC-01.geojson');
    const file = (await (await fetch(`${server.origin}${href}`)).json()) as {
      features: { properties: object }[];
    };
    expect(file.features).toHaveLength(1);
    expect(file.features[0]!.properties).toMatchObject({ code: 'MC-01' });
    await page.click('#results-list a');
    await page.waitForURL(`${server.origin}/mars/MCQ/#unit-MC-01`);
  });

  it('the front page links the bodies, and its world map holds the Earth only', async () => {
    await page.goto(`${server.origin}/`);
    expect(await page.textContent('nav.bodies')).toContain('Mars (1 catalogue)');
    expect(await shapes('/mars/')).toEqual([]);
    expect(await shapes('/moon/')).toEqual([]);
    expect((await shapes('/earth/')).length).toBeGreaterThan(0);
    await page.click('nav.bodies a[href="/moon/"]');
    await page.waitForURL(`${server.origin}/moon/`);
    expect(await shapes('/moon/LQS/#unit-')).toHaveLength(30);
  });

  it('the Mars page has no axe violations', async () => {
    await page.goto(`${server.origin}/mars/`);
    expect(await axeViolations(page)).toEqual([]);
  });
});
