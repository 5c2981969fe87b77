/// <reference lib="dom" />
// (DOM types: this file drives a browser, and its page.evaluate() callbacks run there.)
// The map's full detail end to end in Chromium, on sample countries built and
// served as plain files: nothing of the tiles loads before the first
// interaction; the page's selection and level events drive the map; and at
// 64× the outline drawn from the tiles lies within 1 px of the source
// coordinates (where the build-time picture alone is several pixels off).
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { PMTiles, type RangeResponse, type Source } from 'pmtiles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projector, type Plane } from '../../build/geo/map-plane.ts';
import type { CountryDocument } from '../../build/core/shared/api.ts';
import { HAVE_CHROMIUM, pageWithErrors, serveBuilt } from './browser.ts';

const SAMPLE = join(import.meta.dirname, '../../data/earth');
const COUNTRIES = ['USA', 'TUV'];

type Feature = { geometry: { type: string; coordinates: unknown } };

/** Returns the polygons' rings of a feature as [lon, lat] lists. */
function ringsOf(f: Feature): number[][][] {
  const g = f.geometry;
  const polygons = (g.type === 'Polygon' ? [g.coordinates] : g.coordinates) as number[][][][];
  return polygons.flat();
}

describe.skipIf(!HAVE_CHROMIUM)('map tiles in Chromium', () => {
  let root: string;
  let browser: Browser;
  let server: { origin: string; close: () => void };
  let page: Page;
  const requests: string[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'geoshelf-tiles-'));
    for (const iso of COUNTRIES)
      cpSync(join(SAMPLE, iso), join(root, 'data/earth', iso), { recursive: true });
    ({ server, browser } = await serveBuilt(root));
    page = await pageWithErrors(browser, errors, { viewport: { width: 1280, height: 900 } });
    page.on('request', (r) => requests.push(r.url()));
  }, 120_000);

  afterAll(async () => {
    expect(errors).toEqual([]);
    await browser?.close();
    server?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const doc = (iso: string) =>
    JSON.parse(readFileSync(join(root, `dist/api/v1/earth/${iso}.json`), 'utf8')) as CountryDocument;

  it('first paint: the picture only; no tile and no tile code is fetched before the first interaction', async () => {
    requests.length = 0;
    await page.goto(`${server.origin}/earth/USA/`);
    await page.waitForLoadState('networkidle');
    expect(await page.locator('figure.map svg path.f').count()).toBeGreaterThan(10);
    expect(requests.filter((u) => /pmtiles|tile-layer/.test(u))).toEqual([]);
    // Names where they fit: Texas is wide enough at 1×, Rhode Island is not.
    const labels = await page.locator('figure.map svg g.labels text').allTextContents();
    expect(labels).toContain('Texas');
    expect(labels).not.toContain('Rhode Island');
    await page.click('.map-tools button[aria-label="Zoom in"]');
    await expect.poll(() => page.locator('figure.map svg .t').count()).toBeGreaterThan(0);
    expect(requests.filter((u) => u.endsWith('.pmtiles')).length).toBeGreaterThan(0);
  });

  it('a unit selected elsewhere (list, search, permalink) is highlighted, framed and named; a level event switches the map', async () => {
    await page.goto(`${server.origin}/earth/USA/`);
    await page.waitForSelector('.map-tools'); // the map listens from here on
    const texas = doc('USA').units.ADM1!.find((u) => u.name === 'Texas')!;
    await page.evaluate((id) => {
      document.dispatchEvent(
        new CustomEvent('geoshelf:select', { detail: { level: 'ADM1', id, source: 'list' } }),
      );
    }, texas.id);
    await expect
      .poll(() => page.locator('figure.map svg path.f.selected').getAttribute('data-u'))
      .toBe(texas.id);
    const width = await page.evaluate(() =>
      Number(document.querySelector('figure.map svg')!.getAttribute('viewBox')!.split(' ')[2]),
    );
    expect(width).toBeLessThan(300); // framed on Texas, not the whole country (600)
    await expect.poll(() => page.textContent('figure.map figcaption')).toContain('Texas');
    expect(await page.textContent('.map-info')).toContain('Texas');

    const county = doc('USA').units.ADM2![0];
    await page.evaluate((id) => {
      document.dispatchEvent(
        new CustomEvent('geoshelf:select', { detail: { level: 'ADM2', id, source: 'search' } }),
      );
    }, county.id);
    await expect.poll(() => page.getAttribute('figure.map', 'data-level')).toBe('ADM2');
    await expect
      .poll(() => page.locator('figure.map svg path.f.selected').getAttribute('data-u'))
      .toBe(county.id);
    await expect.poll(() => page.textContent('figure.map figcaption')).toContain(county.name);

    await page.evaluate(() =>
      document.dispatchEvent(new CustomEvent('geoshelf:level', { detail: { level: 'ADM1' } })),
    );
    await expect.poll(() => page.getAttribute('figure.map', 'data-level')).toBe('ADM1');
    expect(await page.inputValue('.map-tools select')).toBe('ADM1');
    expect(await page.textContent('figure.map figcaption')).not.toContain(county.name);
  });

  it('a unit clicked on the map is announced to the rest of the page', async () => {
    await page.goto(`${server.origin}/earth/TUV/`);
    await page.waitForSelector('.map-tools');
    await page.evaluate(() => {
      document.addEventListener('geoshelf:select', (e) => {
        (window as unknown as { picked: unknown }).picked = (e as CustomEvent).detail;
      });
    });
    await page.locator('figure.map svg circle.m').first().click();
    const picked = await page.evaluate(() => (window as unknown as { picked: unknown }).picked);
    expect(picked).toEqual({ level: 'ADM0', id: 'TUV', source: 'map' });
  });

  it('Tuvalu: every island too small to see at 1× is ringed by a marker, with script and without', async () => {
    await page.goto(`${server.origin}/earth/TUV/`);
    await page.waitForSelector('.map-tools');
    // Each island's box on screen, and whether a visible marker's circle covers its centre.
    const islands = () =>
      page.evaluate(() => {
        const svg = document.querySelector<SVGSVGElement>('figure.map svg')!;
        const k = svg.getBoundingClientRect().width / Number(svg.getAttribute('viewBox')!.split(' ')[2]);
        const markers = Array.from(svg.querySelectorAll<SVGCircleElement>('circle.m')).filter(
          (c) => getComputedStyle(c).display !== 'none',
        );
        const d = svg.querySelector('path.f')!.getAttribute('d')!;
        return d
          .split('M')
          .slice(1)
          .map((ring) => {
            const nums = ring.match(/-?\d+/g)!.map(Number);
            let [x, y] = [nums[0], nums[1]];
            let [x0, y0, x1, y1] = [x, y, x, y];
            for (let i = 2; i + 1 < nums.length; i += 2) {
              [x, y] = [x + nums[i], y + nums[i + 1]];
              [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
            }
            return { box: [x0, y0, x1, y1], px: Math.max(x1 - x0, y1 - y0) * k };
          })
          .map((island, _, all) => {
            const [x0, y0, x1, y1] = island.box;
            const [cx, cy] = [(x0 + x1) / 2, (y0 + y1) / 2];
            // Ringed (markers one per 8-unit cell), or beside an island large enough to see.
            const ringed = markers.some(
              (m) => Math.hypot(m.cx.baseVal.value - cx, m.cy.baseVal.value - cy) <= 12,
            );
            const beside = all.some(
              (o) =>
                o.px >= 6 &&
                cx >= o.box[0] - 8 &&
                cx <= o.box[2] + 8 &&
                cy >= o.box[1] - 8 &&
                cy <= o.box[3] + 8,
            );
            return { px: island.px, ringed: ringed || beside };
          });
      });
    const withScript = await islands();
    expect(withScript.length).toBeGreaterThanOrEqual(5);
    for (const island of withScript)
      expect(island.px >= 6 || island.ringed, JSON.stringify(island)).toBe(true);
    const noScript = await browser.newPage({
      javaScriptEnabled: false,
      viewport: { width: 1280, height: 900 },
    });
    await noScript.goto(`${server.origin}/earth/TUV/`);
    const ringed = await page.locator('figure.map svg circle.m').count();
    expect(ringed).toBeGreaterThan(0);
    expect(await noScript.locator('figure.map svg circle.m').count()).toBe(ringed);
    await noScript.close();
  });

  /**
   * Returns, for the outline drawn now (tiles, or the picture), the largest
   * distance in screen pixels from a drawn pixel to the nearest source edge,
   * and from a source vertex in view to the nearest drawn pixel.
   */
  async function outlineError(
    segments: number[][],
    tiles: boolean,
  ): Promise<{ drawn: number; source: number; dark: number }> {
    const style = await page.addStyleTag({
      content: `figure.map svg .${tiles ? 't' : 'f'} { fill: none !important; stroke: #000 !important; stroke-width: 1px !important; }
figure.map svg .${tiles ? 'f' : 't'}, figure.map svg .m { display: none !important; }
figure.map svg { background: #fff !important; } .map-view { background: #fff !important; }`,
    });
    const box = (await page.locator('figure.map svg').boundingBox())!;
    const png = await page.screenshot({ clip: box });
    // Only the edges near the view travel to the page.
    const [vx, vy, vw, vh] = (await page.getAttribute('figure.map svg', 'viewBox'))!.split(' ').map(Number);
    const [mx, my] = [vw * 0.6, vh * 0.6];
    const inView = segments.filter(
      ([x0, y0, x1, y1]) =>
        Math.max(x0, x1) > vx - mx &&
        Math.min(x0, x1) < vx + vw + mx &&
        Math.max(y0, y1) > vy - my &&
        Math.min(y0, y1) < vy + vh + my,
    );
    const result = await page.evaluate(
      async ({ png, segments, box }) => {
        const svg = document.querySelector<SVGSVGElement>('figure.map svg')!;
        const m = svg.getScreenCTM()!;
        const px = (x: number, y: number) => [
          m.a * x + m.c * y + m.e - box.x,
          m.b * x + m.d * y + m.f - box.y,
        ];
        const segs = segments.map(([x0, y0, x1, y1]) => [...px(x0, y0), ...px(x1, y1)]);
        const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${png}`)).blob());
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const ctx = canvas.getContext('2d')!;
        ctx.drawImage(bitmap, 0, 0);
        const { data, width, height } = ctx.getImageData(0, 0, bitmap.width, bitmap.height);
        const dist = (x: number, y: number, [ax, ay, bx, by]: number[]) => {
          const [dx, dy] = [bx - ax, by - ay];
          const l2 = dx * dx + dy * dy;
          const t = l2 > 0 ? Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / l2)) : 0;
          return Math.hypot(x - ax - t * dx, y - ay - t * dy);
        };
        const margin = 4; // the frame's edges: no verdict on pixels cut by them
        const dark: [number, number][] = [];
        for (let y = margin; y < height - margin; y++) {
          for (let x = margin; x < width - margin; x++) {
            const i = 4 * (y * width + x);
            if (255 - (data[i] + data[i + 1] + data[i + 2]) / 3 > 128) dark.push([x + 0.5, y + 0.5]);
          }
        }
        const near = segs.filter(
          (s) =>
            Math.max(s[0], s[2]) > -10 &&
            Math.min(s[0], s[2]) < width + 10 &&
            Math.max(s[1], s[3]) > -10 &&
            Math.min(s[1], s[3]) < height + 10,
        );
        let drawn = 0;
        for (const [x, y] of dark) drawn = Math.max(drawn, Math.min(...near.map((s) => dist(x, y, s))));
        let source = 0;
        for (const s of near) {
          const [x, y] = [s[0], s[1]];
          if (x < 2 * margin || y < 2 * margin || x > width - 2 * margin || y > height - 2 * margin) continue;
          let best = Infinity;
          for (const [dx, dy] of dark) best = Math.min(best, Math.hypot(dx - x, dy - y));
          source = Math.max(source, best);
        }
        return { drawn, source, dark: dark.length };
      },
      { png: png.toString('base64'), segments: inView, box },
    );
    await style.evaluate((node) => (node as Element).remove());
    return result;
  }

  it('at 64× the outline drawn from the tiles lies within 1 px of the source; the picture alone does not', async () => {
    await page.goto(`${server.origin}/earth/USA/`);
    await page.waitForSelector('.map-tools');
    await page.evaluate(() =>
      document.dispatchEvent(new CustomEvent('geoshelf:level', { detail: { level: 'ADM2' } })),
    );
    await expect.poll(() => page.getAttribute('figure.map', 'data-level')).toBe('ADM2');
    // The source: every edge of every county, in the map's plane (from the archive's metadata).
    const archive = readFileSync(join(root, 'dist/earth/USA/map-ADM2.pmtiles'));
    const source: Source = {
      getKey: () => 'usa',
      getBytes: async (offset: number, length: number): Promise<RangeResponse> => ({
        data: archive.buffer.slice(
          archive.byteOffset + offset,
          archive.byteOffset + offset + length,
        ) as ArrayBuffer,
      }),
    };
    const { plane } = ((await new PMTiles(source).getMetadata()) as { geoshelf: { plane: Plane } }).geoshelf;
    const project = projector(plane);
    const at = new Float64Array(2);
    const features = (
      JSON.parse(readFileSync(join(SAMPLE, 'USA/USA_ADM2.geojson'), 'utf8')) as { features: Feature[] }
    ).features;
    const segments: number[][] = [];
    for (const ring of features.flatMap(ringsOf)) {
      const points = ring.map(([lon, lat]) => (project(lon, lat, at), [at[0], at[1]]));
      for (let i = 1; i < points.length; i++) segments.push([...points[i - 1], ...points[i]]);
    }
    // A busy stretch of border: a vertex of the most detailed county, framed by selecting the county,
    // then zoomed into with the wheel over that vertex until the view stops at 64×.
    const busiest = features.reduce(
      (best, f, i) => (ringsOf(f)[0].length > ringsOf(features[best])[0].length ? i : best),
      0,
    );
    const ring = ringsOf(features[busiest])[0];
    project(ring[Math.floor(ring.length / 3)][0], ring[Math.floor(ring.length / 3)][1], at);
    const [x, y] = [at[0], at[1]];
    const id = doc('USA').units.ADM2![busiest].id;
    await page.evaluate((id) => {
      document.dispatchEvent(
        new CustomEvent('geoshelf:select', { detail: { level: 'ADM2', id, source: 'list' } }),
      );
    }, id);
    await expect.poll(() => page.locator('figure.map svg path.f.selected').count()).toBeGreaterThan(0);
    for (let i = 0; i < 8; i++) {
      const [sx, sy] = await page.evaluate(
        ([x, y]) => {
          const m = document.querySelector<SVGSVGElement>('figure.map svg')!.getScreenCTM()!;
          return [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f];
        },
        [x, y],
      );
      await page.mouse.move(sx, sy);
      await page.mouse.wheel(0, -300);
    }
    await expect
      .poll(() =>
        page.evaluate(() =>
          Number(document.querySelector('figure.map svg')!.getAttribute('viewBox')!.split(' ')[2]),
        ),
      )
      .toBeLessThan(600 / 63);
    await expect.poll(() => page.locator('figure.map svg .t').count()).toBeGreaterThan(0);
    await page.waitForLoadState('networkidle');
    const tiles = await outlineError(segments, true);
    expect(tiles.dark).toBeGreaterThan(50);
    expect(tiles.drawn).toBeLessThanOrEqual(1);
    expect(tiles.source).toBeLessThanOrEqual(1);
    const picture = await outlineError(segments, false);
    expect(picture.dark).toBeGreaterThan(50);
    expect(Math.max(picture.drawn, picture.source)).toBeGreaterThan(2);
  }, 60_000);
});
