// The web-maps page's snippets show a level of the catalogue being built:
// Chile's ADM1 when there is one (the golden cases), else the first Earth
// country's first level with a Web Mercator archive, with that archive's
// real deepest zoom (read from its header by the `pmtiles` package) and a
// view inside the level's bounds, across the antimeridian too. Built in
// process from the fixture tree without Chile.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PMTiles } from 'pmtiles';
import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../build/build.ts';
import { escapeHtml } from '../../build/core/escape-html.ts';
import { BufferSource } from '../support/pmtiles-source.ts';
import { FIXTURE } from './helpers.ts';

/** Returns the text of every `<pre><code>` block of `html`, as a reader copies it (entities decoded). */
function codeBlocks(html: string): string[] {
  const entities: Record<string, string> = { lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' };
  return [...html.matchAll(/<pre><code>([\s\S]*?)<\/code><\/pre>/g)].map((m) =>
    m[1].replace(/&(lt|gt|quot|#39|amp);/g, (_, e: string) => entities[e]),
  );
}

/** Builds the fixture's `countries` (FJI's English name replaced by `fijiName` when given); returns dist/. */
async function build(countries: string[], fijiName?: string): Promise<{ out: string; done: () => void }> {
  const root = mkdtempSync(join(tmpdir(), 'geoshelf-web-maps-'));
  for (const iso of countries)
    cpSync(join(FIXTURE, 'data/earth', iso), join(root, 'data/earth', iso), { recursive: true });
  if (fijiName) {
    const file = join(root, 'data/earth/FJI/manifest.json');
    const m = JSON.parse(readFileSync(file, 'utf8')) as { name: { en: string } };
    m.name.en = fijiName;
    writeFileSync(file, JSON.stringify(m, null, 2));
  }
  const out = join(root, 'dist');
  const result = await buildCatalogue({ root, out });
  expect(result.ok ? [] : result.problems).toEqual([]);
  return { out, done: () => rmSync(root, { recursive: true, force: true }) };
}

/** Returns what the page's snippets say of their level, each snippet's own statement of it. */
function shown(out: string) {
  const html = readFileSync(join(out, 'web-maps/index.html'), 'utf8');
  const [maplibre, addSource, leaflet] = codeBlocks(html);
  const glView = /center: \[(-?[\d.]+), (-?[\d.]+)\], zoom: (\d+) \}\);/.exec(maplibre);
  const leafletView = /setView\(\[(-?[\d.]+), (-?[\d.]+)\], (\d+)\)/.exec(leaflet);
  expect(glView, maplibre).not.toBeNull();
  expect(leafletView, leaflet).not.toBeNull();
  return {
    html,
    style: /const styleUrl = '([^']+)'/.exec(maplibre)?.[1],
    sourceUrl: /url: 'pmtiles:\/\/([^']+)'/.exec(addSource)?.[1],
    leafletUrl: /url: '([^']+)'/.exec(leaflet)?.[1],
    maxDataZoom: Number(/maxDataZoom: (\d+)/.exec(leaflet)?.[1]),
    attribution: /attribution: ('.*'),\n/.exec(leaflet)?.[1],
    gl: { center: [Number(glView![1]), Number(glView![2])], zoom: Number(glView![3]) },
    leaflet: { center: [Number(leafletView![2]), Number(leafletView![1])], zoom: Number(leafletView![3]) },
  };
}

/** Returns the deepest zoom of a built archive, from its header. */
async function maxZoom(out: string, archive: string): Promise<number> {
  const header = await new PMTiles(new BufferSource(readFileSync(join(out, archive)))).getHeader();
  return header.maxZoom;
}

/** Returns the display bbox the API gives a country's level. */
function displayBbox(out: string, iso: string, level: string): [number, number, number, number] {
  const doc = JSON.parse(readFileSync(join(out, `api/v1/earth/${iso}.json`), 'utf8')) as {
    urls: { level: string; display_bbox: [number, number, number, number] }[];
  };
  return doc.urls.find((u) => u.level === level)!.display_bbox;
}

/** Expects `[lon, lat]` inside `bbox` (west > east: across the antimeridian), give or take the snippets' 0.1° rounding. */
function expectInside([lon, lat]: number[], [w, s, e, n]: number[]): void {
  const east = e < w ? e + 360 : e;
  const x = lon < w - 0.1 ? lon + 360 : lon;
  expect(x, `${lon} in ${w}…${e}`).toBeGreaterThanOrEqual(w - 0.1);
  expect(x, `${lon} in ${w}…${e}`).toBeLessThanOrEqual(east + 0.1);
  expect(lat).toBeGreaterThanOrEqual(s - 0.1);
  expect(lat).toBeLessThanOrEqual(n + 0.1);
}

/** Expects the page's snippets to show `iso`'s `level`: its files, its archive's real maxzoom, a view in its bounds. */
async function expectShows(out: string, iso: string, level: string): Promise<ReturnType<typeof shown>> {
  const s = shown(out);
  const archive = `earth/${iso}/${iso}_${level}.mercator.pmtiles`;
  expect(s.style).toBe(`https://your-host.example/earth/${iso}/${iso}_${level}.style.json`);
  expect(s.sourceUrl).toBe(`https://your-host.example/${archive}`);
  expect(s.leafletUrl).toBe(s.sourceUrl);
  expect(s.maxDataZoom).toBe(await maxZoom(out, archive));
  expect(s.leaflet.center).toEqual(s.gl.center);
  expect(s.leaflet.zoom).toBe(s.gl.zoom + 1); // Leaflet's 256 px tiles
  expectInside(s.gl.center, displayBbox(out, iso, level));
  expect(s.gl.zoom).toBeGreaterThanOrEqual(0); // whether the view shows it all: test/e2e/web-maps-maplibre.test.ts
  return s;
}

describe("the web-maps page's snippets show a level of the catalogue built", () => {
  it("without Chile: the first country as the catalogue lists it (Fiji, before Netherlands Antilles), its archive's maxzoom, a view across the antimeridian", async () => {
    const { out, done } = await build(['ANT', 'FJI']);
    try {
      const s = await expectShows(out, 'FJI', 'ADM0');
      expect(s.html).not.toContain('CHL');
      const [w, , e] = displayBbox(out, 'FJI', 'ADM0');
      expect(w).toBeGreaterThan(e); // the fixture's Fiji crosses the antimeridian
      expect(Math.abs(s.gl.center[0])).toBeGreaterThan(170); // not 0°, the middle of -180…180
    } finally {
      done();
    }
  }, 60_000);

  it('Netherlands Antilles alone: its ADM0', async () => {
    const { out, done } = await build(['ANT']);
    try {
      expect((await expectShows(out, 'ANT', 'ADM0')).html).not.toMatch(/CHL|FJI/);
    } finally {
      done();
    }
  }, 60_000);

  it("the country's name in the Leaflet snippet's attribution is a safe JavaScript string of escaped HTML", async () => {
    const name = `Fiji's "test" <b>islands</b></script>\\`;
    const { out, done } = await build(['FJI'], name);
    try {
      const s = await expectShows(out, 'FJI', 'ADM0');
      // The attribution, evaluated as the browser would, is the link with the name as text.
      const value = new Function(`return ${s.attribution};`)() as string;
      expect(value).toBe(
        `<a href="https://your-host.example/earth/FJI/">${escapeHtml(name)}: sources and licence</a>`,
      );
    } finally {
      done();
    }
  }, 60_000);
});
