/// <reference lib="dom" />
// (DOM types: page.evaluate() callbacks run in the browser.)
// The published Web Mercator archives and styles in MapLibre GL JS (npm
// `maplibre-gl`, the reference renderer) with the `pmtiles` protocol, in
// headless Chromium (WebGL by SwiftShader): a page of the test's own, the
// web-maps page's way (the snippet itself, as published, runs in
// web-maps-maplibre.test.ts), loads a level's published style, and
// queryRenderedFeatures at a unit's label point (the API's label_point)
// returns that unit, for sample units of every level and of the world's.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../build/build.ts';
import { HAVE_CHROMIUM, launchWebGLChromium, serveStatic } from './browser.ts';

const REPO = join(import.meta.dirname, '../..');
const COUNTRIES = ['CHL', 'USA', 'FJI'];

/** The reader's page: MapLibre and the pmtiles protocol, as the docs show, from files served beside dist/. */
const PAGE = `<!doctype html>
<meta charset="utf-8">
<link rel="stylesheet" href="maplibre/maplibre-gl.css">
<div id="map" style="width: 600px; height: 400px"></div>
<script src="pmtiles.js"></script>
<script type="module">
  import * as maplibregl from './maplibre/maplibre-gl.mjs';
  const protocol = new pmtiles.Protocol();
  maplibregl.addProtocol('pmtiles', protocol.tile);
  window.showStyle = async (styleUrl, center, zoom) => {
    const style = await (await fetch(styleUrl)).json();
    // The style names its archive relative to itself: made absolute, as the docs say.
    const base = new URL(styleUrl, location.href);
    for (const source of Object.values(style.sources))
      source.url = 'pmtiles://' + new URL(source.url.slice('pmtiles://'.length), base);
    window.glMap?.remove();
    const map = new maplibregl.Map({ container: 'map', style, center, zoom, fadeDuration: 0, attributionControl: false });
    window.glMap = map;
    await new Promise((resolve, reject) => {
      map.once('idle', resolve);
      map.on('error', (e) => reject(new Error(String(e.error?.message ?? e))));
    });
    const fill = style.layers.find((l) => l.type === 'fill').id;
    return map.queryRenderedFeatures(map.project(center), { layers: [fill] }).map((f) => f.properties);
  };
  window.ready = true;
</script>`;

interface ApiUnit {
  id: string;
  code: string;
  name: string;
  label_point?: [number, number];
}

describe.skipIf(!HAVE_CHROMIUM)('Web Mercator tiles in MapLibre GL JS', () => {
  let root: string;
  let browser: Browser;
  let server: { origin: string; close: () => void };

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'geoshelf-maplibre-'));
    for (const iso of COUNTRIES)
      cpSync(join(REPO, 'data/earth', iso), join(root, 'data/earth', iso), { recursive: true });
    const out = join(root, 'dist');
    const result = await buildCatalogue({ root, out });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    mkdirSync(join(out, 'reader'));
    cpSync(join(REPO, 'node_modules/maplibre-gl/dist'), join(out, 'reader/maplibre'), { recursive: true });
    cpSync(join(REPO, 'node_modules/pmtiles/dist/pmtiles.js'), join(out, 'reader/pmtiles.js'));
    writeFileSync(join(out, 'reader/index.html'), PAGE);
    server = await serveStatic(out);
    browser = await launchWebGLChromium();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    server?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  /** Returns the API's units of a country's level. */
  function units(iso: string, level: string): ApiUnit[] {
    const doc = JSON.parse(readFileSync(join(root, `dist/api/v1/earth/${iso}.json`), 'utf8')) as {
      units: Record<string, ApiUnit[]>;
    };
    return doc.units[level];
  }

  /** Returns the features MapLibre renders at `center`, with the style of `style` loaded at `zoom`. */
  async function rendered(
    style: string,
    center: [number, number],
    zoom: number,
  ): Promise<Record<string, unknown>[]> {
    const errors: string[] = [];
    const page = await browser.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await page.goto(`${server.origin}/reader/index.html`);
      await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true, undefined, {
        timeout: 60_000,
      });
      const props = await page.evaluate(
        ([s, c, z]) =>
          (
            window as unknown as {
              showStyle: (s: string, c: [number, number], z: number) => Promise<Record<string, unknown>[]>;
            }
          ).showStyle(s, c, z),
        [style, center, zoom] as const,
      );
      expect(errors).toEqual([]);
      return props;
    } finally {
      await page.close();
    }
  }

  const samples: [iso: string, level: string, pick: (u: ApiUnit[]) => ApiUnit[], zoom: number][] = [
    ['CHL', 'ADM0', (u) => u, 3],
    ['CHL', 'ADM1', (u) => u.filter((x) => ['CL-RM', 'CL-VS', 'CL-MA'].includes(x.code)), 6],
    ['USA', 'ADM1', (u) => u.filter((x) => ['US-TX', 'US-RI', 'US-HI'].includes(x.code)), 5],
    ['USA', 'ADM2', (u) => [u[0], u[Math.floor(u.length / 2)], u[u.length - 1]], 8],
    ['FJI', 'ADM0', (u) => u, 6],
  ];
  for (const [iso, level, pick, zoom] of samples) {
    it(`${iso} ${level}: queryRenderedFeatures at a unit's label point returns that unit, with its code and name`, async () => {
      const chosen = pick(units(iso, level));
      expect(chosen.length).toBeGreaterThan(0);
      for (const u of chosen) {
        const found = await rendered(`/earth/${iso}/${iso}_${level}.style.json`, u.label_point!, zoom);
        expect(found, `${u.id} at ${String(u.label_point)}`).toContainEqual(
          expect.objectContaining({ code: u.code, name: u.name }),
        );
        expect(new Set(found.map((f) => f.code))).toEqual(new Set([u.code])); // that unit alone
      }
    }, 180_000);
  }

  it("the world's style: the country at its label point", async () => {
    const [chl] = units('CHL', 'ADM0');
    const found = await rendered('/map-world.style.json', chl.label_point!, 3);
    expect(found).toContainEqual(expect.objectContaining({ code: 'CHL', name: 'Chile' }));
  }, 120_000);
});
