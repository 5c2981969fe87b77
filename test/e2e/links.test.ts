/// <reference lib="dom" />
// (DOM types: this file drives a browser, and its page.evaluate() callbacks run there.)
// Links built from data lead to the file they name: part codes are data, and a
// code such as "%41" written raw into an href is decoded by the browser and
// fetches part "A"'s file instead; "#" and "?" cut the URL short. Every link
// of the country page and every URL of its API document is followed in
// Chromium, and what comes back must be the file at that path.
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../build/build.ts';
import { makeRelease } from '../../build/release/release.ts';
import { fixtureCopy } from '../build/helpers.ts';
import { HAVE_CHROMIUM, launchChromium, serveStatic } from './browser.ts';

// Part "A" and a part whose code, left raw, is a URL for "A"'s file, with "#", "?", a space and a non-ASCII letter.
const RENAMES: Record<string, string> = { 'CL-RM': 'A', 'CL-AN': '%41 ü#?x' };

/** Renames Chile's ADM2 parts in the fixture copy at `root` (files and manifest). */
function renameParts(root: string): void {
  const folder = join(root, 'data/earth/CHL');
  const file = join(folder, 'manifest.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as {
    datasets: { level: string; parts?: { code: string; path: string }[] }[];
  };
  for (const part of manifest.datasets.find((d) => d.level === 'ADM2')!.parts!) {
    const code = RENAMES[part.code];
    if (!code) continue;
    renameSync(join(folder, 'ADM2', `${part.code}.geojson`), join(folder, 'ADM2', `${code}.geojson`));
    Object.assign(part, { code, path: `data/earth/CHL/ADM2/${code}.geojson` });
  }
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Fetches each URL in the page (resolved and requested as the browser does) and returns its sha256 (or the status). */
function fetchAll(page: Page, urls: string[]): Promise<string[]> {
  return page.evaluate(async (list) => {
    const hex = (buffer: ArrayBuffer) =>
      [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, '0')).join('');
    return Promise.all(
      list.map(async (url) => {
        const response = await fetch(url);
        if (!response.ok) return `HTTP ${response.status}`;
        return hex(await crypto.subtle.digest('SHA-256', await response.arrayBuffer()));
      }),
    );
  }, urls);
}

describe.skipIf(!HAVE_CHROMIUM)('links built from part codes, followed in Chromium', () => {
  let root: string;
  let dist: string;
  let browser: Browser;
  let server: { origin: string; close: () => void };
  let page: Page;

  beforeAll(async () => {
    root = fixtureCopy();
    renameParts(root);
    dist = join(root, 'dist');
    const result = await buildCatalogue({ root, out: dist });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    server = await serveStatic(dist);
    browser = await launchChromium();
    page = await browser.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    server?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  /** Returns the dist/ file a URL names, its path segments decoded once, as a server maps it. */
  const fileOf = (url: string) =>
    join(dist, ...new URL(url).pathname.split('/').filter(Boolean).map(decodeURIComponent));

  it('every file link of the country page fetches the file its path names, and the parts are among them', async () => {
    await page.goto(`${server.origin}/earth/CHL/`);
    const urls = await page.$$eval('a[href]', (links) =>
      links
        .map((a) => (a as HTMLAnchorElement).href)
        .filter((href) =>
          /\.(geojson|gpkg|fgb|zip|topojson|json|svg)$|SHA256SUMS$/.test(new URL(href).pathname),
        ),
    );
    expect(urls.length).toBeGreaterThan(10);
    const fetched = await fetchAll(page, urls);
    urls.forEach((url, i) => expect(fetched[i], url).toBe(sha256(readFileSync(fileOf(url)))));
    const files = urls.map(fileOf);
    for (const code of Object.values(RENAMES)) {
      expect(files).toContain(join(dist, 'data/earth/CHL/ADM2', `${code}.geojson`));
      expect(files).toContain(join(dist, 'downloads/earth/CHL', `CHL_ADM2_${code}.gpkg`));
    }
  });

  it("every URL in the country's API document fetches the file of its part", async () => {
    const doc = JSON.parse(readFileSync(join(dist, 'api/v1/earth/CHL.json'), 'utf8')) as {
      urls: {
        level: string;
        parts?: { code: string; url: string; downloads?: { url: string; sha256: string }[] }[];
      }[];
    };
    const parts = doc.urls.find((u) => u.level === 'ADM2')!.parts!;
    const source = (code: string) =>
      sha256(readFileSync(join(root, 'data/earth/CHL/ADM2', `${code}.geojson`)));
    const urls = parts.map((p) => new URL(p.url, server.origin).href);
    expect(await fetchAll(page, urls)).toEqual(parts.map((p) => source(p.code)));
    const downloads = parts.flatMap((p) => p.downloads ?? []);
    expect(downloads.length).toBeGreaterThan(0);
    const fetched = await fetchAll(
      page,
      downloads.map((d) => new URL(d.url, server.origin).href),
    );
    expect(fetched).toEqual(downloads.map((d) => d.sha256));
  });
  it("a release's units list links each part to the release's own file, though its API document links relatively", async () => {
    const made = await makeRelease(root, '1.0.0', {
      geometry: false,
    });
    expect(made.status).toBe('recorded');
    const result = await buildCatalogue({ root, out: dist });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    await page.goto(`${server.origin}/releases/1.0.0/earth/CHL/`);
    await page.selectOption('#units-level', 'ADM2');
    const links = () =>
      page.$$eval('#units-ADM2 ~ .table-scroll tbody a[href]', (as) =>
        as.map((a) => (a as HTMLAnchorElement).href).filter((h) => new URL(h).pathname.endsWith('.geojson')),
      );
    await expect.poll(async () => (await links()).length).toBeGreaterThan(0);
    const urls = [...new Set(await links())];
    // Resolved against the page, "../../../data/…" would lead to the root's file, which may differ.
    for (const url of urls)
      expect(new URL(url).pathname).toMatch(/^\/releases\/1\.0\.0\/data\/earth\/CHL\/ADM2\//);
    const fetched = await fetchAll(page, urls);
    urls.forEach((url, i) => expect(fetched[i], url).toBe(sha256(readFileSync(fileOf(url)))));
  });
});
