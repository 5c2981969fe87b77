// Shared by the tests of the web-maps page's snippets as published
// (web-maps-maplibre.test.ts, mercator-leaflet.test.ts): a snippet read from
// the built page as a reader copies it, then made to run offline with nothing
// else changed: its unpkg URLs point at the installed packages' dist folders
// (each checked to be the version the snippet names), its site URL at the
// local server.
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, ConsoleMessage, Page } from 'playwright-core';
import { expect } from 'vitest';
import { buildCatalogue } from '../../build/build.ts';
import { pageWithErrors, serveStatic } from './browser.ts';

const REPO = join(import.meta.dirname, '../..');
const UNPKG = /https:\/\/unpkg\.com\/([\w-]+)@([\d.]+)\/dist\/([\w.-]+)/g;

/** The sample's Chile built as a catalogue at `site`, served on 127.0.0.1, and a page to read it with. */
export interface ServedCatalogue {
  root: string; // the scratch root: data/earth/CHL, and dist/
  out: string;
  server: { origin: string; close: () => void };
  page: Page;
  errors: string[]; // page errors, and errors on the console (the map libraries report tiles they cannot read there)
  outside: string[]; // requests to anywhere but the local server, each aborted
}

/**
 * Builds the sample's Chile with `site` as its --site-url in a new scratch
 * root (named after `prefix`), serves its dist/ and opens a 1000 × 700 page
 * of `browser` that records errors and aborts any request leaving the
 * server; `onConsole` sees every console message besides.
 */
export async function servedChile(
  prefix: string,
  site: string,
  browser: Browser,
  onConsole: (message: ConsoleMessage) => void = () => {},
): Promise<ServedCatalogue> {
  const root = mkdtempSync(join(tmpdir(), prefix));
  cpSync(join(REPO, 'data/earth/CHL'), join(root, 'data/earth/CHL'), { recursive: true });
  const out = join(root, 'dist');
  const result = await buildCatalogue({ root, out, siteUrl: site });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  const server = await serveStatic(out);
  const errors: string[] = [];
  const outside: string[] = [];
  const page = await pageWithErrors(browser, errors, { viewport: { width: 1000, height: 700 } });
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
    onConsole(m);
  });
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${server.origin}/`)) return route.continue();
    outside.push(url);
    return route.abort();
  });
  return { root, out, server, page, errors, outside };
}

/** Returns the one code block of the built web-maps page that contains `marker`, entities decoded by the browser. */
export async function publishedSnippet(page: Page, origin: string, marker: string): Promise<string> {
  await page.goto(`${origin}/web-maps/index.html`);
  const blocks = (await page.locator('pre code').allTextContents()).filter((b) => b.includes(marker));
  expect(blocks, marker).toHaveLength(1);
  return blocks[0];
}

/** Returns the URL path the installed `pkg`'s dist file `file` is served at, e.g. "/reader/leaflet/leaflet.js". */
export function readerPath(pkg: string, file: string): string {
  return `/reader/${pkg}/${file}`;
}

/**
 * Returns `text` with each unpkg URL replaced by the installed package's
 * file (its whole dist/ folder copied, source maps aside, into
 * `out/reader/<pkg>/`, since a module imports its chunks by relative URL),
 * after checking the installed version is the one the URL names; and `site`
 * (which the text must name) replaced by `origin`. Expects the unpkg files
 * to be exactly `files` ("<pkg>/<file>") and no other URL left to fetch.
 */
export function localSnippet(
  text: string,
  { out, site, origin, files }: { out: string; site: string; origin: string; files: string[] },
): string {
  const seen: string[] = [];
  const replaced = text.replace(UNPKG, (_, pkg: string, version: string, file: string) => {
    const dir = join(REPO, 'node_modules', pkg);
    const installed = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string })
      .version;
    expect(`${installed}.`.startsWith(`${version}.`), `${pkg}@${version}: installed ${installed}`).toBe(true);
    cpSync(join(dir, 'dist'), join(out, readerPath(pkg, '')), {
      recursive: true,
      filter: (from) => !from.endsWith('.map'),
    });
    seen.push(`${pkg}/${file}`);
    return readerPath(pkg, file);
  });
  expect(seen.sort()).toEqual([...files].sort());
  expect(replaced).toContain(site);
  const local = replaced.replaceAll(site, `${origin}/`);
  expect(local).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/); // nothing else to fetch from elsewhere
  return local;
}
