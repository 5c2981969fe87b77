// A unit's permalink by its release ID in Chromium: #unit-ID opens the unit
// (its row focused, named on the map) and shows its history across
// releases; the older permalink by code (#unit-CL-RM) still opens its unit.
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRelease } from '../../build/release/release.ts';
import { copyDataTree, editLevel } from '../support/cli.ts';
import { ledgerRelease } from '../support/ledger.ts';
import { HAVE_CHROMIUM, pageWithErrors, serveBuilt } from './browser.ts';

const FIXTURE = new URL('../fixtures/build', import.meta.url).pathname;
const TMP = join(tmpdir(), `geoshelf-unit-history-${process.pid}`);
const ADM1 = 'data/earth/CHL/CHL_ADM1.geojson';
/** Under load a page's script may take seconds: polls wait up to this long (no assertion on time). */
const WAIT = { timeout: 20_000 };

async function release(root: string, version: string): Promise<void> {
  const outcome = await makeRelease(root, version, {
    geometry: false,
  });
  if (outcome.status !== 'recorded') throw new Error(JSON.stringify(outcome.problems));
}

describe.skipIf(!HAVE_CHROMIUM)('unit permalinks by ID and their history, in Chromium', () => {
  let browser: Browser;
  let server: { origin: string; close: () => void };
  let page: Page;
  let id: string; // Antofagasta's
  const errors: string[] = [];

  beforeAll(async () => {
    const root = copyDataTree(FIXTURE, TMP);
    await release(root, '1.0.0');
    await editLevel(root, ADM1, '"shapeName":"Antofagasta"', '"shapeName":"Antofagasta Norte"');
    await release(root, '1.1.0');
    const { registry } = await ledgerRelease(root, '1.1.0');
    id = registry.find((u) => u.code === 'CL-AN' && u.level === 'ADM1')!.id;
    ({ server, browser } = await serveBuilt(root));
    page = await pageWithErrors(browser, errors, { viewport: { width: 1280, height: 900 } });
  });

  afterAll(async () => {
    expect(errors).toEqual([]);
    await browser?.close();
    server?.close();
    rmSync(TMP, { recursive: true, force: true });
  });

  it('#unit-ID opens its unit and shows its history: releases, its change linking What changed', async () => {
    await page.goto(`${server.origin}/earth/CHL/#unit-${id}`);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), WAIT).toBe('unit-CL-AN');
    await expect.poll(() => page.textContent('.map-info strong'), WAIT).toBe('Antofagasta Norte');
    await expect.poll(() => page.isVisible('#unit-history'), WAIT).toBe(true);
    expect(await page.textContent('#unit-history h3')).toBe(`History of Antofagasta Norte ${id}`);
    const text = await page.textContent('#unit-history');
    expect(text).toContain('Since release 1.0.0; last changed in 1.1.0.');
    expect(text).toContain('1.1.0: renamed: Antofagasta → Antofagasta Norte');
    expect(await page.getAttribute('#unit-history li a', 'href')).toBe('/releases-changes/1.1.0/');
    // The row's own link is the ID permalink.
    expect(await page.getAttribute('#unit-CL-AN th a', 'href')).toBe(`#unit-${id}`);
    // Every link of the history section and box leads to a published page.
    const hrefs = await page.$$eval('#history a, #unit-history a', (as) =>
      as.map((a) => (a as HTMLAnchorElement).href),
    );
    expect(hrefs.length).toBeGreaterThanOrEqual(6);
    for (const href of hrefs) expect([href, (await fetch(href)).status]).toEqual([href, 200]);
  });

  it('an older permalink by code (#unit-CL-RM) still opens its unit, with its history', async () => {
    await page.goto(`${server.origin}/earth/CHL/#unit-CL-RM`);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), WAIT).toBe('unit-CL-RM');
    await expect
      .poll(() => page.textContent('.map-info strong'), WAIT)
      .toBe('Región Metropolitana de Santiago');
    await expect
      .poll(() => page.textContent('#unit-history h3'), WAIT)
      .toMatch(/^History of Región Metropolitana de Santiago [0-9a-z]{12}$/);
    expect(await page.textContent('#unit-history')).toContain('No change since 1.0.0.');
  });
});
