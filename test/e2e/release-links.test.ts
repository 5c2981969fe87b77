// After two releases (a country added, a unit renamed), every history and
// "What changed" page of the built site is opened in Chromium, its scripts
// run, and every link on it is requested: each must answer 200, those into
// release folders that dist/ holds as symbolic links to an earlier release's
// included (issue 26: a new country's history once linked releases that did
// not hold it).
import { cpSync, lstatSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRelease } from '../../build/release/release.ts';
import { copyDataTree, editLevel } from '../support/cli.ts';
import { HAVE_CHROMIUM, pageWithErrors, serveBuilt } from './browser.ts';

const FIXTURE = new URL('../fixtures/build', import.meta.url).pathname;
const TMP = join(tmpdir(), `geoshelf-release-links-${process.pid}`);
const WAIT = { timeout: 20_000 };

async function release(root: string, version: string): Promise<void> {
  const outcome = await makeRelease(root, version, { geometry: false });
  if (outcome.status !== 'recorded') throw new Error(JSON.stringify(outcome.problems));
}

describe.skipIf(!HAVE_CHROMIUM)('history and What changed pages after two releases, in Chromium', () => {
  let browser: Browser;
  let server: { origin: string; close: () => void };
  let page: Page;
  let dist: string;
  const errors: string[] = [];

  beforeAll(async () => {
    const root = copyDataTree(FIXTURE, TMP);
    rmSync(join(root, 'data/earth/FJI'), { recursive: true });
    await release(root, '1.0.0');
    cpSync(join(FIXTURE, 'data/earth/FJI'), join(root, 'data/earth/FJI'), { recursive: true });
    await editLevel(
      root,
      'data/earth/CHL/CHL_ADM1.geojson',
      '"shapeName":"Antofagasta"',
      '"shapeName":"Antofagasta Norte"',
    );
    await release(root, '1.1.0');
    dist = join(root, 'dist');
    ({ server, browser } = await serveBuilt(root, dist));
    page = await pageWithErrors(browser, errors);
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    server?.close();
    rmSync(TMP, { recursive: true, force: true });
  });

  it('the release that left a country unchanged holds it as a symbolic link to the earlier release', () => {
    const linked = readdirSync(join(dist, 'releases/1.1.0/earth')).filter((c) =>
      lstatSync(join(dist, 'releases/1.1.0/earth', c)).isSymbolicLink(),
    );
    expect(linked).toContain('ANT');
  });

  it('every link of every history and What changed page answers 200', async () => {
    const pages = [
      ...['ANT', 'CHL', 'FJI'].flatMap((c) => [`/earth/${c}/`, `/releases/1.1.0/earth/${c}/`]),
      '/releases/1.0.0/earth/CHL/',
      '/releases-changes/1.0.0/',
      '/releases-changes/1.1.0/',
    ];
    const checked = new Map<string, number>();
    for (const path of pages) {
      await page.goto(server.origin + path);
      if (path.startsWith('/earth/')) await page.waitForSelector('#history li', WAIT); // drawn from history.json
      const hrefs = await page.$$eval('a[href]', (as) => as.map((a) => (a as HTMLAnchorElement).href));
      for (const href of hrefs) {
        const url = new URL(href);
        if (url.origin !== server.origin) continue;
        url.hash = '';
        if (!checked.has(url.href)) checked.set(url.href, (await fetch(url)).status);
      }
    }
    const broken = [...checked].filter(([, status]) => status !== 200);
    expect(broken).toEqual([]);
    // The crawl reached the linked release folder and both releases' pages.
    expect([...checked.keys()].some((u) => u.includes('/releases/1.1.0/earth/ANT/'))).toBe(true);
    expect([...checked.keys()].some((u) => u.includes('/releases-changes/1.1.0/'))).toBe(true);
    expect(errors).toEqual([]);
  }, 300_000);
});
