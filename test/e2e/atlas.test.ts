/// <reference lib="dom" />
// (DOM types: this file drives a browser, and its page.evaluate() callbacks run there.)
// The atlas end to end in Chromium, on the built fixture catalogue served as
// plain files: place search (a unit, a country by another name), the map
// (zoom, pan, naming by click and keyboard, level switch), the units list
// and its permalinks, pages without script, and axe-core on the index, a
// country page and the 404 page (light and dark).
import { rmSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCopy } from '../build/helpers.ts';
import { axeViolations } from './axe.ts';
import { HAVE_CHROMIUM, pageWithErrors, serveBuilt } from './browser.ts';

describe.skipIf(!HAVE_CHROMIUM)('atlas in Chromium', () => {
  let root: string;
  let browser: Browser;
  let server: { origin: string; close: () => void };
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    root = fixtureCopy();
    ({ server, browser } = await serveBuilt(root));
    page = await pageWithErrors(browser, errors, { viewport: { width: 1280, height: 900 } });
  });

  afterAll(async () => {
    expect(errors).toEqual([]);
    await browser?.close();
    server?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const results = () => page.$$eval('#results-list li', (items) => items.map((li) => li.textContent));

  it('search: a unit by name shows its level, parent and country, and its link opens its row', async () => {
    await page.goto(`${server.origin}/`);
    await page.fill('#q', 'puente');
    // With the unit's facts: its area and its own GeoJSON (issue 30 §8).
    await expect
      .poll(results)
      .toEqual(['Puente Alto ADM2 in Región Metropolitana de Santiago, Chile 119 km² · GeoJSON']);
    expect(await page.textContent('#results-status')).toBe('1 place found');
    expect(page.url()).toContain('?q=puente');
    await page.click('#results-list a');
    const id = 'unit-CHL-ADM2-CL-RM.puente-alto'; // from the feature id "CHL:ADM2:CL-RM.puente-alto"
    await page.waitForURL(`${server.origin}/earth/CHL/#${id}`);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(id);
    expect(await page.getAttribute(`[id="${id}"]`, 'class')).toBe('target');
  });

  it('search: a country by another name or language (Fidschi, Viti) → Fiji, in the results and the table', async () => {
    for (const query of ['Fidschi', 'viti']) {
      await page.goto(`${server.origin}/?q=${query}`);
      await expect
        .poll(results)
        .toEqual([`Fiji Country or territory matched “${query === 'viti' ? 'Viti' : 'Fidschi'}”`]);
      const rows = await page.$$eval('#catalogue tbody tr:not([hidden])', (trs) =>
        trs.map((tr) => (tr as HTMLTableRowElement).cells[1].textContent),
      );
      expect(rows).toEqual(['FJI']);
    }
  });

  it('search: a query matching only units lists their countries in the table, not an empty one', async () => {
    await page.goto(`${server.origin}/?q=calama`);
    await expect.poll(results).toEqual(['Calama ADM2 in Antofagasta, Chile 7,298 km² · GeoJSON']);
    const rows = () =>
      page.$$eval('#catalogue tbody tr:not([hidden])', (trs) =>
        trs.map((tr) => (tr as HTMLTableRowElement).cells[1].textContent),
      );
    await expect.poll(rows).toEqual(['CHL']);
    expect(await page.textContent('#count')).toBe('Showing 1 of 3');
  });

  it('search: no match says so; one letter asks for another', async () => {
    await page.goto(`${server.origin}/`);
    await page.fill('#q', 'qqqq');
    await expect.poll(() => page.textContent('#results-status')).toBe('No place found for “qqqq”.');
    await page.fill('#q', 'c');
    await expect.poll(() => page.textContent('#results-status')).toContain('two letters');
  });

  it('the table sort lives in the URL and comes back from it', async () => {
    await page.goto(`${server.origin}/`);
    await page.click('button[data-sort=iso3]');
    await page.click('button[data-sort=iso3]');
    expect(page.url()).toContain('sort=-iso3');
    await page.goto(page.url());
    const codes = await page.$$eval('#catalogue tbody tr', (trs) =>
      trs.map((tr) => (tr as HTMLTableRowElement).cells[1].textContent),
    );
    expect(codes).toEqual(['FJI', 'CHL', 'ANT']);
  });

  const viewBox = () => page.getAttribute('.map-view svg', 'viewBox').then((v) => v!.split(' ').map(Number));

  it('map: buttons, wheel and keys zoom; dragging and arrow keys pan; reset comes back', async () => {
    await page.goto(`${server.origin}/earth/CHL/`);
    const home = await viewBox();
    await page.click('button[aria-label="Zoom in"]');
    const zoomed = await viewBox();
    expect(zoomed[2]).toBeCloseTo(home[2] / 1.5, 5);
    const box = (await page.locator('.map-view').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -300);
    await expect.poll(async () => (await viewBox())[2]).toBeLessThan(zoomed[2]);
    const beforeDrag = await viewBox();
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 80, box.y + box.height / 2 + 40, { steps: 5 });
    await page.mouse.up();
    const dragged = await viewBox();
    expect(dragged[0]).toBeLessThan(beforeDrag[0]); // dragged right: the view moves left
    expect(dragged[2]).toBe(beforeDrag[2]);
    await page.focus('.map-view');
    await page.keyboard.press('-');
    expect((await viewBox())[2]).toBeGreaterThan(dragged[2]);
    const beforeKey = await viewBox();
    await page.keyboard.press('ArrowRight');
    expect((await viewBox())[0]).toBeGreaterThan(beforeKey[0]);
    await page.click('button:has-text("Reset")');
    expect(await viewBox()).toEqual(home);
  });

  it('map: pinching out with two pointers zooms in around their middle', async () => {
    await page.goto(`${server.origin}/earth/CHL/`);
    const home = await viewBox();
    await page.evaluate(() => {
      const view = document.querySelector('.map-view')!;
      const r = view.getBoundingClientRect();
      const [cx, cy] = [r.left + r.width / 2, r.top + r.height / 2];
      const send = (type: string, pointerId: number, dx: number) =>
        view.dispatchEvent(
          new PointerEvent(type, {
            pointerId,
            clientX: cx + dx,
            clientY: cy,
            bubbles: true,
            pointerType: 'touch',
          }),
        );
      send('pointerdown', 1, -20);
      send('pointerdown', 2, 20);
      for (let d = 20; d <= 80; d += 10) send('pointermove', 2, d); // fingers move apart
      send('pointerup', 1, -20);
      send('pointerup', 2, 80);
    });
    const pinched = await viewBox();
    expect(pinched[2]).toBeCloseTo(home[2] / 2.5, 0); // 40 px apart → 100 px apart
    // the middle stays put: the view's centre is where it was, give or take the moving finger's shift
    expect(Math.abs(pinched[0] + pinched[2] / 2 - (home[0] + home[2] / 2))).toBeLessThan(home[2] / 4);
  });

  it('map: a click names the unit (name, code, parent, link to its entry); the keyboard reaches every unit', async () => {
    await page.goto(`${server.origin}/earth/CHL/`);
    await page.click('.map-view path[data-u="CL-RM"]');
    await expect
      .poll(() => page.textContent('.map-info'))
      .toBe(
        'Región Metropolitana de Santiago (code CL-RM, in Chile, 22,085 km²) · its GeoJSON · entry in the units list',
      );
    expect(await page.getAttribute('.map-info a[href^="#"]', 'href')).toBe('#unit-CL-RM');
    expect(await page.getAttribute('.map-info a:not([href^="#"])', 'href')).toMatch(
      /\/api\/v1\/earth\/CHL\/units\/ADM1\/CL-RM\.geojson$/,
    );
    await page.focus('.map-view');
    await page.keyboard.press('Tab'); // into the units: one tab stop
    expect(await page.evaluate(() => (document.activeElement as SVGElement).dataset.u)).toBe('CL-AN');
    await expect.poll(() => page.textContent('.map-info strong')).toBe('Antofagasta');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.textContent('.map-info strong')).toBe('Región Metropolitana de Santiago');
    await page.keyboard.press('End');
    await expect
      .poll(() => page.textContent('.map-info strong'))
      .toBe('Magallanes y de la Antártica Chilena');
  });

  it('map: the level switch loads the other level’s map', async () => {
    await page.goto(`${server.origin}/earth/CHL/`);
    await page.selectOption('.map-tools select', 'ADM0');
    await expect.poll(() => page.locator('.map-view path[data-u]').count()).toBe(1);
    // A point of the outline (the box's centre may be sea: the map is equal-area, Chile curves).
    const [x, y] = await page.$eval('.map-view path[data-u]', (path) => {
      const p = (path as SVGPathElement).getPointAtLength((path as SVGPathElement).getTotalLength() / 4);
      const m = (path as SVGPathElement).getScreenCTM()!;
      return [m.a * p.x + m.c * p.y + m.e, m.b * p.x + m.d * p.y + m.f];
    });
    await page.mouse.click(x, y);
    await expect.poll(() => page.textContent('.map-info strong')).toBe('Chile');
  });

  it('units list: every level listed with parent and part file, filtered and sorted, state in the URL', async () => {
    await page.goto(`${server.origin}/earth/CHL/`);
    const rows = (level: string) =>
      page.$$eval(`#units-${level} ~ .table-scroll tbody tr`, (trs) =>
        trs.map((tr) => Array.from((tr as HTMLTableRowElement).cells).map((c) => c.textContent)),
      );
    await expect.poll(() => rows('ADM1')).toHaveLength(3);
    expect(await page.isVisible('#units-filter-ADM2')).toBe(false); // one level at a time
    await page.selectOption('#units-level', 'ADM2');
    expect(page.url()).toContain('ulevel=ADM2');
    expect((await rows('ADM2')).find((r) => r[0] === 'Calama')).toEqual([
      'Calama',
      '–',
      'Antofagasta',
      'CL-AN.geojson',
    ]);
    expect((await rows('ADM2')).find((r) => r[0] === 'Isla Santa María')![3]).toBe('unassigned.geojson');
    await page.fill('#units-filter-ADM2', 'santiago'); // by parent name too
    expect((await rows('ADM2')).map((r) => r[0])).toEqual(['Puente Alto', 'Santiago']);
    await page.click('#units-ADM2 ~ .table-scroll button[data-sort=name]');
    expect((await rows('ADM2')).map((r) => r[0])).toEqual(['Santiago', 'Puente Alto']);
    expect(page.url()).toContain('fADM2=santiago');
    expect(page.url()).toContain('sADM2=-name');
    await page.goto(page.url());
    await expect.poll(async () => (await rows('ADM2')).map((r) => r[0])).toEqual(['Santiago', 'Puente Alto']);
  });

  it('units list and events: choosing a unit announces geoshelf:select (source list); geoshelf:level switches the list', async () => {
    await page.addInitScript(() => {
      const seen: unknown[] = ((window as unknown as { seen: unknown[] }).seen = []);
      document.addEventListener('geoshelf:select', (e) =>
        seen.push({ type: 'select', ...(e as CustomEvent).detail }),
      );
      document.addEventListener('geoshelf:level', (e) =>
        seen.push({ type: 'level', ...(e as CustomEvent).detail }),
      );
    });
    const seen = () => page.evaluate(() => (window as unknown as { seen: unknown[] }).seen);
    await page.goto(`${server.origin}/earth/CHL/#unit-CL-AN`);
    await expect.poll(seen).toEqual([{ type: 'select', level: 'ADM1', id: 'CL-AN', source: 'hash' }]);
    await page.click('#unit-CL-RM a');
    await expect.poll(seen).toContainEqual({ type: 'select', level: 'ADM1', id: 'CL-RM', source: 'list' });
    await page.evaluate(() =>
      document.dispatchEvent(new CustomEvent('geoshelf:level', { detail: { level: 'ADM2' } })),
    );
    await expect.poll(() => page.isVisible('#units-ADM2')).toBe(true);
    expect(await page.isVisible('#units-ADM1')).toBe(false);
    expect(await page.inputValue('#units-level')).toBe('ADM2');
    await page.selectOption('#units-level', 'ADM1'); // the list's own switch tells the map
    await expect.poll(seen).toContainEqual({ type: 'level', level: 'ADM1' });
    // A unit selected on the map (or by search) is shown and marked in the list, on its level.
    await page.evaluate(() =>
      document.dispatchEvent(
        new CustomEvent('geoshelf:select', {
          detail: { level: 'ADM2', id: 'CHL-ADM2-CL-AN.calama', source: 'map' },
        }),
      ),
    );
    await expect.poll(() => page.isVisible('[id="unit-CHL-ADM2-CL-AN.calama"].target')).toBe(true);
  });

  it('permalinks: #unit-CL-AN opens the page at its row and names it on the map, once; a hash change follows', async () => {
    await page.goto(`${server.origin}/earth/CHL/#unit-CL-AN`);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('unit-CL-AN');
    await expect.poll(() => page.textContent('.map-info strong')).toBe('Antofagasta');
    // Named once, though the map and the units list both follow the permalink.
    await expect
      .poll(() => page.textContent('.map-info'))
      .toBe('Antofagasta (code CL-AN, in Chile, 141,712 km²) · its GeoJSON · entry in the units list');
    await page.click('#unit-CL-RM a');
    await expect.poll(() => page.textContent('.map-info strong')).toBe('Región Metropolitana de Santiago');
    expect(page.url()).toMatch(/#unit-CL-RM$/);
  });

  it('a malformed permalink (#unit-%, #unit-%E0%A4%A) selects nothing and throws nothing, on arrival or on a hash change', async () => {
    const before = errors.length;
    for (const hash of ['#unit-%', '#unit-%E0%A4%A']) {
      await page.goto('about:blank'); // a new document: from /earth/CHL/#…, only the hash would change
      await page.goto(`${server.origin}/earth/CHL/${hash}`, { waitUntil: 'networkidle' });
      expect(await page.evaluate(() => location.hash)).toBe(hash); // kept as typed, not re-encoded
      await page.evaluate(() => (location.hash = '#unit-%C3'));
      await page.waitForLoadState('networkidle');
      expect(await page.$$('#units tr.target')).toHaveLength(0);
    }
    expect(errors.slice(before)).toEqual([]);
    // the page still follows a good permalink afterwards
    await page.evaluate(() => (location.hash = '#unit-CL-RM'));
    await expect.poll(() => page.textContent('.map-info strong')).toBe('Región Metropolitana de Santiago');
    expect(await page.$$eval('#units tr.target', (trs) => trs.map((tr) => tr.id))).toEqual(['unit-CL-RM']);
  });

  it('lowercase country URL → its country (through the 404 page); /api/v1/ is the API’s page', async () => {
    await page.goto(`${server.origin}/earth/chl/`);
    await page.waitForURL(/\/earth\/CHL\/$/);
    expect(await page.textContent('h1')).toBe('Chile');
    await page.goto(`${server.origin}/api/v1/`);
    expect(await page.textContent('h1')).toBe('JSON API');
    expect(await page.getAttribute('a[href="/schema/manifest.v1.json"] >> nth=-1', 'href')).toBeTruthy();
  });

  it('the 404 page searches too', async () => {
    await page.goto(`${server.origin}/nowhere/`);
    await page.fill('#q', 'calama');
    await expect.poll(results).toEqual(['Calama ADM2 in Antofagasta, Chile 7,298 km² · GeoJSON']);
  });

  it('without script: the index says search needs it; the map stays a picture; the units list is in the page (first page per level)', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const plain = await context.newPage();
    await plain.goto(`${server.origin}/`);
    expect(await plain.isVisible('#filters')).toBe(false);
    expect(await plain.textContent('main')).toContain('Searching places needs JavaScript');
    expect(await plain.locator('#catalogue tbody tr').count()).toBe(3);
    await plain.goto(`${server.origin}/earth/CHL/`);
    expect(await plain.locator('figure.map svg path').count()).toBe(3);
    expect(await plain.isVisible('.map-tools')).toBe(false);
    // The units list is built into the page: each level's first page, by name, with codes and part files.
    const plainRows = await plain.$$eval('#units-ADM2 ~ .table-scroll tbody tr', (trs) =>
      trs.map((tr) => Array.from((tr as HTMLTableRowElement).cells).map((c) => c.textContent)),
    );
    expect(plainRows.map((r) => r[0])).toEqual([
      'Antofagasta',
      'Calama',
      'Isla Santa María',
      'Puente Alto',
      'Santiago',
    ]);
    expect(plainRows[1]).toEqual(['Calama', '–', 'Antofagasta', 'CL-AN.geojson']);
    expect(await plain.locator('#units-ADM1 ~ .table-scroll tbody tr').count()).toBe(3);
    expect(await plain.textContent('#units')).not.toContain('needs JavaScript');
    await context.close();
  });

  it.each(['light', 'dark'] as const)(
    'axe-core (WCAG 2.2 AA): no violations on the index, Chile and the 404 page (%s)',
    async (scheme) => {
      await page.emulateMedia({ colorScheme: scheme });
      for (const path of ['/?q=santiago', '/earth/CHL/', '/nowhere']) {
        await page.goto(`${server.origin}${path}`);
        if (path.startsWith('/?')) await expect.poll(results).not.toEqual([]);
        if (path.includes('CHL')) await page.waitForSelector('#units-ADM1');
        expect(await axeViolations(page), `${path} (${scheme})`).toEqual([]);
      }
      await page.emulateMedia({ colorScheme: 'light' });
    },
  );
});
