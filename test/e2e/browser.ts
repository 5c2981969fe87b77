/// <reference lib="dom" />
// (DOM types: this file drives a browser, and its page.evaluate() callbacks run there.)
// Shared by the browser tests and bench/build.ts: Debian's Chromium driven by
// playwright-core (never a downloaded browser), and dist/ served the way a CDN
// would, by http-server on 127.0.0.1 and a free port.
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { buildCatalogue } from '../../build/build.ts';

export const CHROMIUM = '/usr/bin/chromium';
export const HAVE_CHROMIUM = existsSync(CHROMIUM);

/** Launches headless Chromium with the flags a CI container needs. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Launches headless Chromium with WebGL drawn by SwiftShader (in software), which MapLibre GL JS needs. */
export function launchWebGLChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
  });
}

interface HttpServer {
  server: Server;
  listen(port: number, host: string, callback: () => void): void;
  close(): void;
}

/**
 * Serves `dir` with http-server (the `npm run preview` server) and returns its
 * origin and a closer. The closer's promise settles once the requests under
 * way have been answered (at most 5 s, then their connections are cut): a
 * caller that deletes `dir` after awaiting it cannot pull a file from under
 * a request, which http-server answers with an uncaught ENOENT (it stats a
 * file, then reads it in a callback).
 */
export async function serveStatic(dir: string): Promise<{ origin: string; close: () => Promise<void> }> {
  const require = createRequire(import.meta.url);
  const httpServer = require('http-server') as { createServer(options: object): HttpServer };
  const server = httpServer.createServer({ root: dir, cache: -1, showDir: 'false', gzip: false });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      const cut = setTimeout(() => server.server.closeAllConnections(), 5_000);
      server.server.close(() => {
        clearTimeout(cut);
        resolve();
      });
      server.server.closeIdleConnections();
    });
  return { origin: `http://127.0.0.1:${port}`, close };
}

/**
 * Builds the catalogue of `root` into `out` (its problems throw), serves it
 * and launches Chromium: what every browser test over a built catalogue starts
 * with. The caller closes both.
 */
export async function serveBuilt(
  root: string,
  out = join(root, 'dist'),
): Promise<{ server: { origin: string; close: () => void }; browser: Browser }> {
  const result = await buildCatalogue({ root, out });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  const server = await serveStatic(out);
  return { server, browser: await launchChromium() };
}

/** Opens a page whose script errors are collected into `errors` (a test expects none). */
export async function pageWithErrors(
  browser: Browser,
  errors: string[],
  options?: BrowserContextOptions,
): Promise<Page> {
  const page = await browser.newPage(options);
  page.on('pageerror', (error) => errors.push(error.message));
  return page;
}
