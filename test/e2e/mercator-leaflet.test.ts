/// <reference lib="dom" />
// (DOM types: page.evaluate() callbacks run in the browser.)
// The web-maps page's Leaflet snippet as published, run in headless Chromium:
// the snippet is read from the built page (web-maps/index.html), its three
// unpkg files are served from node_modules at the versions it names, and its
// site URL points at the local server; nothing else of it changes. Then
// protomaps-leaflet's own query (queryTileFeaturesDebug) at a unit's label
// point (the API's label_point) returns that unit from the archive, and the
// screen there has the snippet's fill, while a point off Chile has neither,
// at the snippet's zooms and past the archive's deepest one.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CountryDocument } from '../../build/core/shared/api.ts';
import { HAVE_CHROMIUM, launchChromium } from './browser.ts';
import { localSnippet, publishedSnippet, servedChile } from './published-snippet.ts';

const SITE = 'https://boundaries.example.org/'; // --site-url: the snippet's URLs start with it

/** What the page under test reads back at a point. */
interface Seen {
  features: { layer: string; props: Record<string, unknown> }[];
  pixel: [number, number, number]; // the screen's colour there
  background: [number, number, number]; // the map's own (Leaflet's CSS)
}

describe.skipIf(!HAVE_CHROMIUM)("the web-maps page's Leaflet snippet, as published, in Chromium", () => {
  let root: string;
  let browser: Browser;
  let server: { origin: string; close: () => void };
  let snippet: string;
  let page: Page;
  let errors: string[] = [];
  let outside: string[] = []; // requests to anywhere but the local server

  beforeAll(async () => {
    browser = await launchChromium();
    // (protomaps-leaflet reports a tile it could not read on the console, not by throwing: an error there fails.)
    const served = await servedChile('geoshelf-leaflet-', SITE, browser);
    ({ root, server, page, errors, outside } = served);
    const out = served.out;
    snippet = await publishedSnippet(page, server.origin, 'protomapsL.leafletLayer');
    const files = ['leaflet/leaflet.css', 'leaflet/leaflet.js', 'protomaps-leaflet/protomaps-leaflet.js'];
    const local = localSnippet(snippet, { out, site: SITE, origin: server.origin, files });
    writeFileSync(join(out, 'reader.html'), `<!doctype html>\n<meta charset="utf-8">\n${local}\n`);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    server?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  /** Returns the units of CHL's ADM1 (the snippet's archive), as the API lists them. */
  function units(): { code: string; name: string; label_point: [number, number] }[] {
    const doc = JSON.parse(readFileSync(join(root, 'dist/api/v1/earth/CHL.json'), 'utf8')) as CountryDocument;
    const all = doc.units.ADM1 ?? [];
    expect(all.length).toBeGreaterThan(10);
    return all.map((u) => ({ code: u.code, name: u.name, label_point: u.label_point! }));
  }

  /** Returns the unit of CHL's ADM1 with `code`. */
  function unit(code: string): { code: string; name: string; label_point: [number, number] } {
    const u = units().find((x) => x.code === code);
    expect(u?.label_point, code).toBeDefined();
    return u!;
  }

  /** Returns the snippet's polygon fill as RGB and its opacity. */
  function fillOf(text: string): { rgb: [number, number, number]; opacity: number } {
    const m = /PolygonSymbolizer\(\{ fill: '#([0-9a-f]{6})', opacity: ([\d.]+) \}\)/.exec(text);
    expect(m, 'the snippet fills its polygons').not.toBeNull();
    const hex = m![1];
    const rgb = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
    return { rgb, opacity: Number(m![2]) };
  }

  /** Opens the reader's page: the snippet runs and draws its first view. */
  async function open(): Promise<void> {
    errors.length = 0;
    outside.length = 0;
    await page.goto(`${server.origin}/reader.html`);
    // The snippet's map (a const of its script, so not on window) and the layer it added to it.
    await page.waitForFunction(
      `typeof map === 'object' && (window.reader = { map }, map.eachLayer((l) => { if (l.queryTileFeaturesDebug) window.reader.layer = l; }), !!window.reader.layer)`,
      undefined,
      { timeout: 30_000 },
    );
  }

  /** Returns the view the map shows: its centre ([lon, lat]) and zoom. */
  function view(): Promise<{ center: [number, number]; zoom: number }> {
    return page.evaluate(() => {
      const { map } = (window as unknown as { reader: Reader }).reader;
      const c = map.getCenter();
      return { center: [c.lng, c.lat] as [number, number], zoom: map.getZoom() };
    });
  }

  /**
   * Moves the snippet's map to `center` at `zoom`, waits
   * until every tile in view is drawn and shown, and returns what
   * protomaps-leaflet finds at `at` and the screen's colour there.
   */
  async function look(center: [number, number], zoom: number, at: [number, number]): Promise<Seen> {
    await page.evaluate(
      ([c, z]) => {
        const { map } = (window as unknown as { reader: Reader }).reader;
        map.setView([c[1], c[0]], z, { animate: false });
      },
      [center, zoom] as const,
    );
    // Drawn: no tile loading, and every tile of this zoom, loaded and faded in (Leaflet fades tiles over 200 ms).
    await page.waitForFunction(
      () => {
        const { map, layer } = (window as unknown as { reader: Reader }).reader;
        const tiles = Array.from(
          document.querySelectorAll<HTMLCanvasElement & { key?: string }>('canvas.leaflet-tile'),
        );
        return (
          !layer.isLoading() &&
          tiles.length > 0 &&
          tiles.every(
            (t) =>
              t.key?.endsWith(`:${map.getZoom()}`) &&
              t.classList.contains('leaflet-tile-loaded') &&
              (t.style.opacity === '' || Number(t.style.opacity) === 1),
          )
        );
      },
      undefined,
      { timeout: 60_000, polling: 100 },
    );
    const probe = await page.evaluate(([lng, lat]) => {
      const { map, layer } = (window as unknown as { reader: Reader }).reader;
      const found = layer.queryTileFeaturesDebug(lng, lat);
      const features = [...found.values()]
        .flat()
        .map((f) => ({ layer: f.layerName, props: f.feature.props }));
      const point = map.latLngToContainerPoint([lat, lng]);
      const box = map.getContainer().getBoundingClientRect();
      const bg = getComputedStyle(map.getContainer()).backgroundColor.match(/\d+/g)!.map(Number);
      return { features, x: box.left + point.x, y: box.top + point.y, background: bg.slice(0, 3) };
    }, at);
    const png = await page.screenshot({
      clip: { x: Math.floor(probe.x), y: Math.floor(probe.y), width: 1, height: 1 },
    });
    const pixel = await page.evaluate(async (b64) => {
      const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
      const ctx = new OffscreenCanvas(1, 1).getContext('2d')!;
      ctx.drawImage(bitmap, 0, 0);
      return [...ctx.getImageData(0, 0, 1, 1).data.slice(0, 3)];
    }, png.toString('base64'));
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
    return {
      features: probe.features,
      pixel: pixel as Seen['pixel'],
      background: probe.background as Seen['background'],
    };
  }

  /** Expects `seen` to show `u` alone, from the archive's layer, filled as the snippet fills. */
  function expectUnit(seen: Seen, u: { code: string; name: string }): void {
    expect(seen.features.map((f) => [f.layer, f.props.code, f.props.name])).toEqual([
      ['units', u.code, u.name],
    ]);
    const { rgb, opacity } = fillOf(snippet);
    const blended = rgb.map((c, i) => opacity * c + (1 - opacity) * seen.background[i]);
    seen.pixel.forEach((c, i) =>
      expect(Math.abs(c - blended[i]), `${u.code}: ${String(seen.pixel)}`).toBeLessThanOrEqual(3),
    );
  }

  /** Expects `seen` to show nothing of the archive: no feature, the map's background. */
  function expectNothing(seen: Seen): void {
    expect(seen.features).toEqual([]);
    expect(seen.pixel).toEqual(seen.background);
  }

  it("the snippet's own view: the whole level in sight, units of Chile's ADM1 at their label points, nothing in the Pacific", async () => {
    await open();
    const { center, zoom } = await view();
    const bounds = await page.evaluate(() => {
      const b = (window as unknown as { reader: Reader }).reader.map.getBounds();
      return [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()];
    });
    const doc = JSON.parse(readFileSync(join(root, 'dist/api/v1/earth/CHL.json'), 'utf8')) as CountryDocument;
    const [w, s, e, n] = doc.urls.find((u) => u.level === 'ADM1')!.display_bbox!;
    expect(bounds[0]).toBeLessThanOrEqual(w);
    expect(bounds[1]).toBeLessThanOrEqual(s);
    expect(bounds[2]).toBeGreaterThanOrEqual(e);
    expect(bounds[3]).toBeGreaterThanOrEqual(n);
    for (const code of ['CL-MA', 'CL-AN']) {
      const u = unit(code);
      expectUnit(await look(center, zoom, u.label_point), u);
    }
    expectNothing(await look(center, zoom, [center[0] - 12, center[1]]));
  }, 120_000);

  it('zoom 6: every unit at its label point, alone; 8° east of it (Argentina) nothing', async () => {
    await open();
    for (const u of units()) {
      expectUnit(await look(u.label_point, 6, u.label_point), u);
      expectNothing(await look(u.label_point, 6, [u.label_point[0] + 8, u.label_point[1]]));
    }
  }, 240_000);

  it("past the archive's deepest zoom (its style's geoshelf:maxzoom): the map still draws and finds the units", async () => {
    const style = JSON.parse(readFileSync(join(root, 'dist/earth/CHL/CHL_ADM1.style.json'), 'utf8')) as {
      metadata: { 'geoshelf:maxzoom': number };
    };
    const deepest = style.metadata['geoshelf:maxzoom'];
    expect(/maxDataZoom: (\d+)/.exec(snippet)?.[1], "the snippet's maxDataZoom").toBe(String(deepest));
    const zoom = deepest + 3;
    await open();
    for (const code of ['CL-RM', 'CL-VS', 'CL-LI']) {
      const u = unit(code);
      expectUnit(await look(u.label_point, zoom, u.label_point), u);
    }
  }, 120_000);

  it("the map credits the catalogue's page of the country (its sources and licence), not OpenStreetMap", async () => {
    await open();
    const credit = await page.evaluate(() => {
      const control = document.querySelector('.leaflet-control-attribution');
      return {
        text: control?.textContent ?? '',
        links: Array.from(control?.querySelectorAll('a') ?? [], (a) => a.href),
      };
    });
    expect(credit.text).not.toMatch(/OpenStreetMap|Protomaps/);
    expect(credit.links).toContain(`${server.origin}/earth/CHL/`);
    expect((await fetch(`${server.origin}/earth/CHL/`)).status).toBe(200);
  }, 60_000);
});

/** The reader's map and the snippet's layer, as the test reaches them in the page. */
interface Reader {
  map: LeafletLike;
  layer: {
    isLoading(): boolean;
    queryTileFeaturesDebug(
      lng: number,
      lat: number,
    ): Map<string, { layerName: string; feature: { props: Record<string, unknown> } }[]>;
  };
}

/** The parts of Leaflet's map the test calls (Leaflet's own types are not needed for so little). */
interface LeafletLike {
  setView(center: [number, number], zoom: number, options: { animate: boolean }): void;
  getZoom(): number;
  getCenter(): { lng: number; lat: number };
  getBounds(): { getWest(): number; getSouth(): number; getEast(): number; getNorth(): number };
  getContainer(): HTMLElement;
  latLngToContainerPoint(latlng: [number, number]): { x: number; y: number };
}
