// The front page's world map (build/site/world-map.ts, build/tiles/world-tiles.ts)
// and its antimeridian rule (build/geo/antimeridian.ts), in-process on small
// hand-made trees: one unit per country, ids that are page URLs, rings for
// countries too small to see, and no ring drawn across the whole map.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Manifest } from '../../build/core/shared/manifest.ts';
import type { LoadedManifest } from '../../build/manifest/validate.ts';
import { splitAtAntimeridian } from '../../build/geo/antimeridian.ts';
import { worldMap } from '../../build/site/world-map.ts';
import { mercatorArchive } from '../../build/tiles/mercator.ts';
import { readMercatorLevel } from '../../build/tiles/mercator-level.ts';
import { worldTiles } from '../../build/tiles/world-tiles.ts';

const box = (w: number, s: number, e: number, n: number) => [
  [
    [w, s],
    [e, s],
    [e, n],
    [w, n],
    [w, s],
  ],
];
// A Fiji-like island across the antimeridian, as one ring (179.5° → −179.5°).
const ACROSS = [
  [
    [179.5, -17],
    [-179.5, -17],
    [-179.5, -16],
    [179.5, -16],
    [179.5, -17],
  ],
];

let roots: string[] = [];
afterEach(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
  roots = [];
});

/** Returns a scratch root holding one GeoJSON file per country (level as given), and its loaded manifests. */
function tree(countries: { iso: string; name: string; level?: string; polygons: unknown[] }[]): {
  root: string;
  loaded: LoadedManifest[];
} {
  const root = mkdtempSync(join(tmpdir(), 'geoshelf-world-'));
  roots.push(root);
  const loaded = countries.map(({ iso, name, level = 'ADM0', polygons }) => {
    const path = `data/earth/${iso}/${iso}_${level}.geojson`;
    mkdirSync(join(root, `data/earth/${iso}`), { recursive: true });
    const text = JSON.stringify({
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          properties: { shapeName: name },
          geometry: { type: 'MultiPolygon', coordinates: polygons },
        },
      ],
    });
    writeFileSync(join(root, path), text);
    const manifest = {
      body: 'earth',
      iso_a3: iso,
      name: { en: name },
      datasets: [{ level, path, bytes: text.length, sha256: iso.repeat(16) }],
    } as unknown as Manifest;
    return { file: `data/earth/${iso}/manifest.json`, manifest } as LoadedManifest;
  });
  return { root, loaded };
}

/** Returns the widest subpath (SVG units) of each path with data-u, by id, from a path of M…l…z commands. */
function widths(svg: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const [, id, d] of svg.matchAll(/<path class="f" data-u="([^"]+)"[^>]* d="([^"]+)"/g)) {
    let widest = 0;
    for (const ring of d.split('z').filter(Boolean)) {
      const [start, ...moves] = ring.split('l');
      let x = Number(start.replace('M', '').split(' ')[0]);
      let [x0, x1] = [x, x];
      for (const move of moves) {
        x += Number(move.match(/-?\d+/g)![0]);
        [x0, x1] = [Math.min(x0, x), Math.max(x1, x)];
      }
      widest = Math.max(widest, x1 - x0);
    }
    out.set(id, widest);
  }
  return out;
}

describe('splitAtAntimeridian', () => {
  it('a polygon that does not cross the antimeridian is kept as it is', () => {
    const polygon = box(10, 10, 20, 20);
    expect(splitAtAntimeridian(polygon)).toEqual([polygon]);
  });

  it('a ring across the antimeridian becomes its east and west pieces, each within ±180°', () => {
    const pieces = splitAtAntimeridian(ACROSS);
    expect(pieces).toHaveLength(2);
    const spans = pieces.map((p) => {
      const lons = p[0].map((q) => q[0]);
      return [Math.min(...lons), Math.max(...lons)];
    });
    expect(spans.sort((a, b) => a[0] - b[0])).toEqual([
      [-180, -179.5],
      [179.5, 180],
    ]);
  });

  it("a ring round a pole (Antarctica's) is kept: it runs along the map's edge", () => {
    // One step of 359° (179° → −180°) and no step back: the ring winds round the pole.
    const polar = [
      [
        [-180, -70],
        [-90, -72],
        [0, -70],
        [90, -72],
        [179, -71],
        [-180, -70],
      ],
    ];
    expect(splitAtAntimeridian(polar)).toEqual([polar]);
  });
});

describe('worldMap', () => {
  it('one path per country, its id the URL of its page, in catalogue order, named by its English name', async () => {
    const { root, loaded } = tree([
      { iso: 'CHL', name: 'Chile', polygons: [box(-75, -50, -67, -18)] },
      { iso: 'ZAF', name: 'South Africa', polygons: [box(17, -35, 33, -22)] },
    ]);
    const world = await worldMap(root, '/atlas/', loaded);
    expect(world?.ids).toEqual(['/atlas/earth/CHL/', '/atlas/earth/ZAF/']);
    expect(world?.svg).toContain('<path class="f" data-u="/atlas/earth/CHL/"');
    expect(world?.svg).toContain('<title>South Africa</title>');
    expect(world?.plane.projection).toEqual({ name: 'equal-earth' });
  });

  it('a country across the antimeridian is drawn as its two pieces, not a ring across the map', async () => {
    const { root, loaded } = tree([
      { iso: 'FJI', name: 'Fiji', polygons: [ACROSS] },
      { iso: 'CHL', name: 'Chile', polygons: [box(-75, -50, -67, -18)] },
    ]);
    const world = await worldMap(root, '/', loaded);
    expect(widths(world!.svg).get('/earth/FJI/')).toBeLessThan(10); // across the map: about 580
  });

  it('a country too small to see gets a ring (Tuvalu, Nauru)', async () => {
    const { root, loaded } = tree([
      { iso: 'NRU', name: 'Nauru', polygons: [box(166.9, -0.56, 166.96, -0.5)] },
      { iso: 'AUS', name: 'Australia', polygons: [box(113, -39, 154, -11)] },
    ]);
    const world = await worldMap(root, '/', loaded);
    expect(world?.svg).toMatch(/<circle class="m" data-u="\/earth\/NRU\/"/);
    expect(world?.svg).not.toMatch(/<circle class="m" data-u="\/earth\/AUS\/"/);
  });

  it('a country without an ADM0 level is drawn from its first drawable level', async () => {
    const { root, loaded } = tree([
      { iso: 'ATF', name: 'French Southern Territories', level: 'ADM1', polygons: [box(68, -50, 70, -48)] },
    ]);
    const world = await worldMap(root, '/', loaded);
    expect(world?.ids).toEqual(['/earth/ATF/']);
    expect(world?.countries[0].dataset.level).toBe('ADM1');
  });

  it('a tree with nothing to draw has no world map', async () => {
    const { root, loaded } = tree([{ iso: 'XXA', name: 'Nowhere', polygons: [] }]);
    expect(await worldMap(root, '/', loaded)).toBeUndefined();
  });
});

describe('worldTiles', () => {
  it('numbers its features like the picture (ids in TilesInfo), and a second build takes the cached archive', async () => {
    const { root, loaded } = tree([
      { iso: 'CHL', name: 'Chile', polygons: [box(-75, -50, -67, -18)] },
      { iso: 'FJI', name: 'Fiji', polygons: [ACROSS] },
    ]);
    const world = (await worldMap(root, '/', loaded))!;
    const first = (await worldTiles(root, '/', world))!;
    expect(first.info).toMatchObject({ url: '/map-world.pmtiles', named: true, ids: world.ids });
    expect(first.file[0]).toBe('map-world.pmtiles');
    expect(first.filesRead).toBe(2);
    const again = (await worldTiles(root, '/', world))!;
    expect(again.filesRead).toBe(0);
    expect(again.file[1].equals(first.file[1])).toBe(true);
  });

  it("the world's Web Mercator archive stops at zoom 6, however finely its countries are drawn", async () => {
    // A coast with a vertex every ~20 m: its own archive would go to zoom 12 (4^12 tiles of a globe's worth).
    const fine: number[][] = [];
    for (let i = 0; i <= 1000; i++) fine.push([-72 + i * 0.0002, -33 + 0.0001 * (i % 3)]);
    const ring = [...fine, [-71.8, -32.8], [-72, -32.8], fine[0]];
    const { root, loaded } = tree([{ iso: 'CHL', name: 'Chile', polygons: [[ring]] }]);
    const world = (await worldMap(root, '/', loaded))!;
    expect((await worldTiles(root, '/', world))!.mercator.maxzoom).toBe(6);
    const { rings, properties } = await readMercatorLevel(
      [join(root, 'data/earth/CHL/CHL_ADM0.geojson')],
      {},
    );
    expect(mercatorArchive(rings, properties, { name: 'CHL_ADM0' }).tiles.levels).toBe(12);
  });

  it("a country's change leaves only the new world archives in the cache: the old ones are removed", async () => {
    const { root, loaded } = tree([
      { iso: 'CHL', name: 'Chile', polygons: [box(-75, -50, -67, -18)] },
      { iso: 'URY', name: 'Uruguay', polygons: [box(-58, -35, -53, -30)] },
    ]);
    const worldFiles = () =>
      readdirSync(join(root, '.cache/geoshelf/tiles'))
        .filter((n) => n.startsWith('world-'))
        .sort();
    await worldTiles(root, '/', (await worldMap(root, '/', loaded))!);
    const before = worldFiles();
    expect(before).toHaveLength(4); // the plane's and the Web Mercator archive, each with its record
    const chl = loaded[0].manifest.datasets[0];
    chl.sha256 = 'changed'.repeat(9).slice(0, 64); // as validate measures a changed file
    await worldTiles(root, '/', (await worldMap(root, '/', loaded))!);
    const after = worldFiles();
    expect(after).toHaveLength(4);
    expect(after.filter((n) => before.includes(n))).toEqual([]);
  });
});

describe('body maps (the Moon, Mars)', () => {
  /** Returns a scratch root holding Chile and the committed Mars quadrangles (data/mars/MCQ/), and their loaded manifests. */
  function withMars(): { root: string; loaded: LoadedManifest[] } {
    const { root, loaded } = tree([{ iso: 'CHL', name: 'Chile', polygons: [box(-75, -50, -67, -18)] }]);
    const path = 'data/mars/MCQ/MCQ_QUAD.geojson';
    mkdirSync(join(root, 'data/mars/MCQ'), { recursive: true });
    copyFileSync(join(import.meta.dirname, '../..', path), join(root, path));
    const manifest = {
      body: 'mars',
      iso_a3: 'MCQ',
      name: { en: 'Mars Chart (MC) quadrangles' },
      datasets: [{ level: 'QUAD', path, bytes: 1, sha256: 'a'.repeat(64) }],
    } as unknown as Manifest;
    return { root, loaded: [...loaded, { file: 'data/mars/MCQ/manifest.json', manifest } as LoadedManifest] };
  }
  const codes = Array.from({ length: 30 }, (_, i) => `MC-${String(i + 1).padStart(2, '0')}`);
  const anchors = (file: string, level: string) =>
    file === 'data/mars/MCQ/manifest.json' && level === 'QUAD' ? codes : undefined;

  it("the world map draws the Earth's countries only: no Mars quadrangle on Equal Earth", async () => {
    const { root, loaded } = withMars();
    const world = await worldMap(root, '/', loaded);
    expect(world?.ids).toEqual(['/earth/CHL/']);
    expect(world?.svg).not.toContain('/mars/');
  });

  it("a body's map: its units only, one path each, ids their permalinks, in plate carrée", async () => {
    const { root, loaded } = withMars();
    const mars = (await worldMap(root, '/atlas/', loaded, 'mars', anchors))!;
    expect(mars.ids).toEqual(codes.map((code) => `/atlas/mars/MCQ/#unit-${code}`));
    expect(mars.plane.projection).toEqual({ name: 'plate-carree' });
    expect(mars.svg).toContain('<title>Mare Boreum</title>');
    expect(mars.svg).not.toContain('/earth/');
    // plate carrée: 360° by 180° framed whole, twice as wide as tall; a polar cap spans the width
    const [x0, y0, x1, y1] = mars.plane.extent;
    expect((x1 - x0) / (y1 - y0)).toBeCloseTo(600 / 312, 2);
    const w = widths(mars.svg);
    expect(w.get('/atlas/mars/MCQ/#unit-MC-01')).toBe(w.get('/atlas/mars/MCQ/#unit-MC-30'));
    expect(w.get('/atlas/mars/MCQ/#unit-MC-02')! * 6).toBeCloseTo(w.get('/atlas/mars/MCQ/#unit-MC-01')!, -1);
    // a second run takes the cache, with the same countries
    const again = (await worldMap(root, '/atlas/', loaded, 'mars', anchors))!;
    expect(again).toEqual(mars);
  });
});
