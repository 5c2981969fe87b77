/// <reference lib="dom" />
// (DOM types: page.evaluate() callbacks run in the browser.)
// The web-maps page's MapLibre snippets as published, run in headless
// Chromium (WebGL by SwiftShader): read from the built page, their unpkg
// files served from node_modules at the versions they name (maplibre-gl's
// whole dist/, whose module loads its worker by relative URL) and their site
// URL pointed at the local server; nothing else of them changes. The page's
// snippet loads the level's published style: at the snippet's own view the
// whole level is in sight, and queryRenderedFeatures at a unit's label point
// (the API's label_point) returns that unit alone, at the snippet's zoom, at
// zoom 6 and past the archive's deepest; the map credits the archive's
// attribution. The add-it-yourself snippet, run on a map of the test's own,
// draws the same units, a click on one logs its name, and it credits the
// archive too.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { PMTiles } from 'pmtiles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CountryDocument } from '../../build/core/shared/api.ts';
import { BufferSource } from '../support/pmtiles-source.ts';
import { HAVE_CHROMIUM, launchWebGLChromium } from './browser.ts';
import { localSnippet, publishedSnippet, readerPath, servedChile } from './published-snippet.ts';

const SITE = 'https://boundaries.example.org/'; // --site-url: the snippets' URLs start with it
const MAPLIBRE = readerPath('maplibre-gl', 'maplibre-gl.mjs'); // where the page's snippet imports it from
type Unit = { code: string; name: string; label_point: [number, number] };

describe.skipIf(!HAVE_CHROMIUM)("the web-maps page's MapLibre snippets, as published, in Chromium", () => {
  let root: string;
  let browser: Browser;
  let server: { origin: string; close: () => void };
  let snippet: string; // the page's: a style loaded into a map
  let addSource: string; // the archive added to a map of one's own, made local
  let page: Page;
  let errors: string[] = [];
  let outside: string[] = []; // requests to anywhere but the local server
  const logged: string[] = [];

  beforeAll(async () => {
    browser = await launchWebGLChromium();
    // MapLibre reports a tile or source it could not load on the console (an error event nobody handles).
    const served = await servedChile('geoshelf-maplibre-snippet-', SITE, browser, (m) => {
      if (m.type() === 'log') logged.push(m.text());
    });
    ({ root, server, page, errors, outside } = served);
    const out = served.out;
    snippet = await publishedSnippet(page, server.origin, 'new maplibregl.Map(');
    const files = ['maplibre-gl/maplibre-gl.css', 'maplibre-gl/maplibre-gl.mjs', 'pmtiles/pmtiles.js'];
    const local = localSnippet(snippet, { out, site: SITE, origin: server.origin, files });
    writeFileSync(join(out, 'reader.html'), `<!doctype html>\n<meta charset="utf-8">\n${local}\n`);
    const own = await publishedSnippet(page, server.origin, 'map.addSource(');
    addSource = localSnippet(own, { out, site: SITE, origin: server.origin, files: [] });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    server?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  /** Returns CHL's API document (the snippets' level is its ADM1). */
  function chl(): CountryDocument {
    return JSON.parse(readFileSync(join(root, 'dist/api/v1/earth/CHL.json'), 'utf8')) as CountryDocument;
  }

  /** Returns the units of CHL's ADM1, as the API lists them. */
  function units(): Unit[] {
    const all = chl().units.ADM1 ?? [];
    expect(all.length).toBeGreaterThan(10);
    return all.map((u) => ({ code: u.code, name: u.name, label_point: u.label_point! }));
  }

  /** Returns the unit of CHL's ADM1 with `code`. */
  function unit(code: string): Unit {
    const u = units().find((x) => x.code === code);
    expect(u?.label_point, code).toBeDefined();
    return u!;
  }

  /**
   * Opens the reader's page, where the snippet runs, and finds its map: a
   * const of its module script, out of reach of other scripts, so it is
   * looked up in the heap (Chromium's Runtime.queryObjects) among the objects
   * whose prototype is Map's of the same module (imported again by its URL).
   * Waits until the map has drawn its first view.
   */
  async function open(): Promise<void> {
    errors.length = 0;
    outside.length = 0;
    await page.goto(`${server.origin}/reader.html`);
    const cdp = await page.context().newCDPSession(page);
    try {
      const { result: proto } = await cdp.send('Runtime.evaluate', {
        expression: `import(${JSON.stringify(MAPLIBRE)}).then((m) => m.Map.prototype)`,
        awaitPromise: true,
      });
      await expect
        .poll(
          async () => {
            const { objects } = await cdp.send('Runtime.queryObjects', {
              prototypeObjectId: proto.objectId!,
            });
            const { result } = await cdp.send('Runtime.callFunctionOn', {
              objectId: objects.objectId!,
              functionDeclaration: 'function () { window.reader = { map: this[0] }; return this.length; }',
              returnByValue: true,
            });
            return result.value as number;
          },
          { timeout: 30_000, interval: 250 },
        )
        .toBe(1);
    } finally {
      await cdp.detach();
    }
    await settled();
  }

  /** Waits until the map is idle: its style and every tile in view loaded and drawn. */
  async function settled(): Promise<void> {
    await page.evaluate(async () => {
      const { map } = (window as unknown as { reader: Reader }).reader;
      const idle = new Promise((resolve) => map.once('idle', resolve));
      map.triggerRepaint();
      await idle;
    });
  }

  /** Returns the map's view: centre, zoom and bounds ([west, south, east, north]). */
  function view(): Promise<{ center: [number, number]; zoom: number; bounds: number[] }> {
    return page.evaluate(() => {
      const { map } = (window as unknown as { reader: Reader }).reader;
      const c = map.getCenter();
      const b = map.getBounds();
      return {
        center: [c.lng, c.lat] as [number, number],
        zoom: map.getZoom(),
        bounds: [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()],
      };
    });
  }

  /**
   * Moves the map to `center` at `zoom` and returns the codes and names
   * queryRenderedFeatures finds at `at` in the layers of type `type`, and
   * whether `at` is on the canvas.
   */
  async function look(
    center: [number, number],
    zoom: number,
    at: [number, number],
    type: 'fill' | 'line' = 'fill',
  ): Promise<{ found: string[][]; onCanvas: boolean }> {
    await page.evaluate(
      ([c, z]) => (window as unknown as { reader: Reader }).reader.map.jumpTo({ center: c, zoom: z }),
      [center, zoom] as const,
    );
    await settled();
    const seen = await page.evaluate(
      ([point, t]) => {
        const { map } = (window as unknown as { reader: Reader }).reader;
        const layers = map
          .getStyle()
          .layers.filter((l) => l.type === t)
          .map((l) => l.id);
        const p = map.project(point);
        const canvas = map.getCanvas();
        const onCanvas = p.x >= 0 && p.y >= 0 && p.x < canvas.clientWidth && p.y < canvas.clientHeight;
        const found = map
          .queryRenderedFeatures(p, { layers })
          .map((f) => [String(f.sourceLayer), String(f.properties.code), String(f.properties.name)]);
        return { found, onCanvas };
      },
      [at, type] as const,
    );
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
    return seen;
  }

  it("the snippet's own view: the whole level in sight, its units at their label points, nothing in the Pacific", async () => {
    await open();
    const { center, zoom, bounds } = await view();
    const [w, s, e, n] = chl().urls.find((u) => u.level === 'ADM1')!.display_bbox!;
    expect(bounds[0]).toBeLessThanOrEqual(w);
    expect(bounds[1]).toBeLessThanOrEqual(s);
    expect(bounds[2]).toBeGreaterThanOrEqual(e);
    expect(bounds[3]).toBeGreaterThanOrEqual(n);
    for (const code of ['CL-MA', 'CL-AN']) {
      const u = unit(code);
      const seen = await look(center, zoom, u.label_point);
      expect(seen.onCanvas, code).toBe(true);
      expect(seen.found).toEqual([['units', u.code, u.name]]);
    }
    const pacific = await look(center, zoom, [center[0] - 12, center[1]]);
    expect(pacific).toEqual({ found: [], onCanvas: true });
  }, 120_000);

  it('zoom 6: every unit at its label point, alone; 8° east of it (Argentina) nothing', async () => {
    await open();
    for (const u of units()) {
      expect((await look(u.label_point, 6, u.label_point)).found, u.code).toEqual([
        ['units', u.code, u.name],
      ]);
      const east: [number, number] = [u.label_point[0] + 8, u.label_point[1]];
      expect((await look(u.label_point, 6, east)).found, u.code).toEqual([]);
    }
  }, 240_000);

  it("past the archive's deepest zoom (its header's): the map still draws and finds the units", async () => {
    const archive = readFileSync(join(root, 'dist/earth/CHL/CHL_ADM1.mercator.pmtiles'));
    const deepest = (await new PMTiles(new BufferSource(archive)).getHeader()).maxZoom;
    await open();
    for (const code of ['CL-RM', 'CL-VS', 'CL-LI']) {
      const u = unit(code);
      const seen = await look(u.label_point, deepest + 3, u.label_point);
      expect(seen.found, code).toEqual([['units', u.code, u.name]]);
    }
  }, 120_000);

  /** Returns the archive's attribution, from its metadata. */
  async function attribution(): Promise<string> {
    const archive = readFileSync(join(root, 'dist/earth/CHL/CHL_ADM1.mercator.pmtiles'));
    const metadata = (await new PMTiles(new BufferSource(archive)).getMetadata()) as { attribution?: string };
    expect(metadata.attribution).toBeTruthy();
    return metadata.attribution!;
  }

  /** Returns the text of the attribution control of the map in `container`. */
  function credit(container: string): Promise<string> {
    return page.evaluate(
      (id) => document.querySelector(`#${id} .maplibregl-ctrl-attrib-inner`)?.textContent ?? '',
      container,
    );
  }

  it("the map credits the archive's own attribution", async () => {
    await open();
    expect(await credit('map')).toContain(await attribution());
  }, 60_000);

  it('the add-it-yourself snippet, on a map of its own: its fill finds each unit, a click logs the name, its borders draw, the archive credited', async () => {
    await open();
    // A map of one's own: an empty style, in a second container; the pmtiles protocol is the page's snippet's.
    // (import() as text: vitest would rewrite it in a callback.)
    await page.evaluate(`import(${JSON.stringify(MAPLIBRE)}).then((m) => { window.maplibregl = m; })`);
    await page.evaluate(async () => {
      const { maplibregl } = window as unknown as { maplibregl: { Map: new (options: object) => MapLike } };
      const div = Object.assign(document.createElement('div'), { id: 'own' });
      div.style.height = '400px';
      document.body.prepend(div);
      const map = new maplibregl.Map({
        container: div,
        style: { version: 8, sources: {}, layers: [] },
        center: [0, 0],
        zoom: 1,
      });
      await new Promise((resolve) => map.once('load', resolve));
      (window as unknown as { reader: Reader }).reader = { map };
    });
    await page.evaluate((text) => {
      // The snippet as published, with its `map` the map of one's own.
      new Function('map', text)((window as unknown as { reader: Reader }).reader.map);
    }, addSource);
    for (const code of ['CL-RM', 'CL-MA', 'CL-AN']) {
      const u = unit(code);
      expect((await look(u.label_point, 6, u.label_point)).found, code).toEqual([['units', u.code, u.name]]);
      const point = await page.evaluate((at) => {
        const { map } = (window as unknown as { reader: Reader }).reader;
        const p = map.project(at);
        const box = map.getCanvas().getBoundingClientRect();
        return { x: box.left + p.x, y: box.top + p.y };
      }, u.label_point);
      logged.length = 0;
      await page.mouse.click(point.x, point.y);
      await expect.poll(() => logged, { timeout: 10_000 }).toEqual([u.name]);
    }
    // Its borders: a line layer over the same units, found on a border (the first west of CL-RM's label point).
    const rm = unit('CL-RM');
    await look(rm.label_point, 6, rm.label_point);
    const onBorder = await page.evaluate(
      ([at]) => {
        const { map } = (window as unknown as { reader: Reader }).reader;
        const layers = map
          .getStyle()
          .layers.filter((l) => l.type === 'line')
          .map((l) => l.id);
        const p = map.project(at);
        for (let dx = 0; dx < 400; dx++) {
          const hit = map.queryRenderedFeatures([p.x - dx, p.y], { layers });
          if (hit.length > 0) return hit.map((f) => String(f.properties.code));
        }
        return [];
      },
      [rm.label_point] as const,
    );
    expect(onBorder).toContain(rm.code);
    expect(await credit('own')).toContain(await attribution());
    expect(errors).toEqual([]);
  }, 120_000);
});

/** The parts of MapLibre's map the test calls (maplibre-gl's own types are not needed for so little). */
interface MapLike {
  once(event: string, listener: (...args: unknown[]) => void): void;
  triggerRepaint(): void;
  jumpTo(options: { center: [number, number]; zoom: number }): void;
  getCenter(): { lng: number; lat: number };
  getZoom(): number;
  getBounds(): { getWest(): number; getSouth(): number; getEast(): number; getNorth(): number };
  getCanvas(): HTMLCanvasElement;
  getStyle(): { layers: { id: string; type: string }[] };
  project(lngLat: [number, number]): { x: number; y: number };
  queryRenderedFeatures(
    point: { x: number; y: number } | [number, number],
    options: { layers: string[] },
  ): { sourceLayer?: string; properties: Record<string, unknown> }[];
}

/** The map the test works on, as the page holds it. */
interface Reader {
  map: MapLike;
}
