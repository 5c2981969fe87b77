import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projector } from '../../build/geo/map-plane.ts';
import { MAP_WIDTH, MAX_HEIGHT, renderMapSvg } from '../../build/site/map-svg.ts';
import { insidePolygon, interiorPoint, labelPlace } from '../../build/site/label-point.ts';

const square = (x: number, y: number, d: number) => [
  [
    [x, y],
    [x + d, y],
    [x + d, y + d],
    [x, y + d],
    [x, y],
  ],
];
const collection = (...geometries: object[]) => ({
  type: 'FeatureCollection',
  features: geometries.map((geometry, i) => ({
    type: 'Feature',
    properties: { shapeName: `F${i}` },
    geometry,
  })),
});

/** Returns every absolute vertex of a path made of M…l…z commands. */
function vertices(d: string): [number, number][] {
  const out: [number, number][] = [];
  for (const ring of d.split('z').filter(Boolean)) {
    const [start, ...moves] = ring.split('l');
    let [x, y] = start.replace('M', '').split(' ').map(Number);
    out.push([x, y]);
    for (const move of moves) {
      const [dx, dy] = move.match(/-?\d+/g)!.map(Number);
      x += dx;
      y += dy;
      out.push([x, y]);
    }
  }
  return out;
}

describe('renderMapSvg', () => {
  it('one <path> per feature, named by shapeName, inside the frame', () => {
    const map = renderMapSvg(
      collection(
        { type: 'Polygon', coordinates: square(-70, -30, 2) },
        {
          type: 'MultiPolygon',
          coordinates: [square(-68, -30, 1), square(-67, -29, 1)],
        },
      ),
      'Map of X',
    )!;
    expect(map.features).toBe(2);
    expect(map.svg.match(/<path /g)).toHaveLength(2);
    expect(map.svg).toContain('<title>F1</title>');
    expect(map.svg).toContain('<title id="map-title">Map of X</title>');
    const height = Number(map.svg.match(/viewBox="0 0 \d+ (\d+)"/)![1]);
    for (const d of map.svg.match(/ d="([^"]+)"/g)!) {
      for (const [x, y] of vertices(d.slice(4, -1))) {
        expect(x).toBeGreaterThanOrEqual(0);
        expect(x).toBeLessThanOrEqual(MAP_WIDTH);
        expect(y).toBeGreaterThanOrEqual(0);
        expect(y).toBeLessThanOrEqual(height);
      }
    }
  });

  it('main mass framing: a far island (Easter Island) is drawn outside the frame, inside data-extent', () => {
    const map = renderMapSvg(
      collection(
        {
          type: 'Polygon',
          coordinates: [
            [
              [-72, -56],
              [-68, -56],
              [-68, -18],
              [-72, -18],
              [-72, -56],
            ],
          ],
        }, // a tall "mainland"
        { type: 'Polygon', coordinates: square(-79, -34, 0.2) }, // near island: framed
        { type: 'Polygon', coordinates: square(-109.4, -27.2, 0.2) }, // far island: outside
      ),
      'Chile-like',
      ['MAIN', 'NEAR', 'FAR'],
    )!;
    const height = Number(map.svg.match(/viewBox="0 0 \d+ (\d+)"/)![1]);
    const pathOf = (id: string) =>
      map.svg.match(new RegExp(`data-u="${id}" fill-rule="evenodd" d="([^"]+)"`))![1];
    const inside = ([x, y]: [number, number]) => x >= 0 && x <= MAP_WIDTH && y >= 0 && y <= height;
    expect(vertices(pathOf('MAIN')).every(inside)).toBe(true);
    expect(vertices(pathOf('NEAR')).every(inside)).toBe(true);
    const far = vertices(pathOf('FAR'));
    expect(far.some(inside)).toBe(false);
    const [x0, y0, x1, y1] = map.svg
      .match(/data-extent="([^"]+)"/)![1]
      .split(' ')
      .map(Number);
    for (const [x, y] of far) expect(x >= x0 && x <= x1 && y >= y0 && y <= y1).toBe(true);
    // the mainland fills the frame's height, not a sliver
    const ys = vertices(pathOf('MAIN')).map(([, y]) => y);
    expect(Math.max(...ys) - Math.min(...ys)).toBeGreaterThan(height / 2);
  });

  it('antimeridian: -180/180 shapes are drawn side by side, not across the world', () => {
    const map = renderMapSvg(
      collection({
        type: 'MultiPolygon',
        coordinates: [square(178, -18, 1), square(-180, -18, 1)],
      }),
      'Fiji',
    )!;
    const xs = vertices(map.svg.match(/ d="([^"]+)"/)![1]).map(([x]) => x);
    // Both squares span 3° of longitude: the drawing fills the width (no gap of 356°).
    expect(Math.max(...xs) - Math.min(...xs)).toBeGreaterThan(MAP_WIDTH / 2);
  });

  /** Returns the segments a path strokes: each subpath's edges, and its closing edge only when it ends in "z". */
  function strokedSegments(d: string): [number, number, number, number][] {
    const out: [number, number, number, number][] = [];
    for (const sub of d.match(/M[^M]*/g) ?? []) {
      const pts: [number, number][] = [];
      for (const m of sub.matchAll(/([Mlhvz])([^Mlhvz]*)/g)) {
        const v = m[2].match(/-?\d+(\.\d+)?/g)?.map(Number) ?? [];
        const at = pts.at(-1) ?? [0, 0];
        if (m[1] === 'M') pts.push([v[0], v[1]]);
        else if (m[1] === 'l') pts.push([at[0] + v[0], at[1] + v[1]]);
        else if (m[1] === 'h') pts.push([at[0] + v[0], at[1]]);
        else if (m[1] === 'v') pts.push([at[0], at[1] + v[0]]);
      }
      for (let i = 1; i < pts.length; i++) out.push([...pts[i - 1], ...pts[i]]);
      if (sub.trimEnd().endsWith('z')) out.push([...pts.at(-1)!, ...pts[0]]);
    }
    return out;
  }

  /** Returns the stroked segments of `svg` that run along the antimeridian (both ends within 0.5 px of it, not a point). */
  function strokesAlongCut(map: NonNullable<ReturnType<typeof renderMapSvg>>, lat0: number, lat1: number) {
    const project = projector(map.plane);
    const at = new Float64Array(2);
    const cut: [number, number][] = [];
    for (let lat = lat0; lat <= lat1; lat += 0.001) {
      project(180, lat, at);
      cut.push([at[0], at[1]]);
    }
    const near = (x: number, y: number) => cut.some(([cx, cy]) => Math.hypot(cx - x, cy - y) <= 0.75);
    const segments = [...map.svg.matchAll(/ d="([^"]+)"/g)].flatMap((m) => strokedSegments(m[1]));
    return segments.filter(([x0, y0, x1, y1]) => (x0 !== x1 || y0 !== y1) && near(x0, y0) && near(x1, y1));
  }

  it('antimeridian: the edge where data is cut at ±180 is filled but not stroked (it is no border)', () => {
    const halves = collection({
      type: 'MultiPolygon',
      coordinates: [square(179, -18, 1), square(-180, -18, 1)],
    });
    const map = renderMapSvg(halves, 'Cut island')!;
    expect(strokesAlongCut(map, -18, -17)).toEqual([]);
    // Each half is still one filled ring: open (no "z") where it meets the cut, closed elsewhere.
    const d = map.svg.match(/ d="([^"]+)"/)![1];
    expect(d.match(/M/g)).toHaveLength(2);
    expect(d).not.toContain('z');
    // Its other three sides are stroked as before: a square's outline minus one side.
    expect(strokedSegments(d).length).toBeGreaterThanOrEqual(4);
  });

  it('antimeridian: Fiji (the sample, cut at ±180 in four rings) strokes no edge along the cut', () => {
    const file = join(import.meta.dirname, '../../data/earth/FJI/preview/FJI_ADM0.preview.geojson');
    const fiji = JSON.parse(readFileSync(file, 'utf8')) as object;
    const map = renderMapSvg(fiji, 'Fiji')!;
    expect(strokesAlongCut(map, -17.2, -15.9)).toEqual([]);
    const islands = (fiji as { features: { geometry: { coordinates: unknown[] } }[] }).features[0].geometry
      .coordinates.length;
    expect(map.svg.match(/ d="([^"]+)"/)![1].match(/M/g)).toHaveLength(islands); // every island still drawn
  });

  it('a ring smaller than a pixel stays visible as a 2×2 dot', () => {
    const map = renderMapSvg(
      collection({
        type: 'MultiPolygon',
        coordinates: [square(0, 0, 10), square(5, 5, 0.0001)],
      }),
      'dot',
    )!;
    expect(map.svg).toMatch(/h2v2h-2z/);
  });

  it('snapping to the pixel grid keeps a dense ring small', () => {
    const ring = Array.from({ length: 20_001 }, (_, i) => {
      const a = (i / 20_000) * 2 * Math.PI;
      return [10 + Math.cos(a), 50 + Math.sin(a)];
    });
    const map = renderMapSvg(collection({ type: 'Polygon', coordinates: [ring] }), 'circle')!;
    expect(map.svg.length).toBeLessThan(8_000);
    expect(Number(map.svg.match(/viewBox="0 0 \d+ (\d+)"/)![1])).toBeLessThanOrEqual(MAX_HEIGHT);
  });

  it('names are escaped; no polygons → undefined', () => {
    const map = renderMapSvg(
      {
        features: [
          { properties: { name: '<b>&' }, geometry: { type: 'Polygon', coordinates: square(0, 0, 1) } },
        ],
      },
      'a "title"',
    )!;
    expect(map.svg).toContain('<title>&lt;b&gt;&amp;</title>');
    expect(map.svg).toContain('a &quot;title&quot;');
    expect(renderMapSvg(collection({ type: 'Point', coordinates: [0, 0] }), 'none')).toBeUndefined();
    expect(renderMapSvg({}, 'none')).toBeUndefined();
  });
});

describe('label points (label-point.ts)', () => {
  const plain = (lon: number, lat: number, out: Float64Array) => {
    [out[0], out[1]] = [lon, lat];
  };
  /** A "C" open to the east: its box's centre is in the gap, outside. */
  const cShape = [
    [
      [0, 0],
      [10, 0],
      [10, 2],
      [2, 2],
      [2, 8],
      [10, 8],
      [10, 10],
      [0, 10],
      [0, 0],
    ],
  ];

  it('a shape whose box centre is outside it: the point is inside, on a line through its middle', () => {
    const place = labelPlace([cShape], plain)!;
    expect(place.centred).toBe(false);
    expect(insidePolygon([cShape[0]!.flat()], ...place.at)).toBe(true);
    expect(place.at).toEqual([1, 5]); // the middle of the C's back, halfway up
  });

  it('a mainland with an island far off (Valparaíso and Easter Island): the label is on the mainland, not between', () => {
    const island = square(-100, 0, 0.5);
    const mainland = square(0, 0, 4);
    const place = labelPlace([island, mainland], plain)!;
    expect(place.box).toEqual([0, 0, 4, 4]); // the largest polygon's box
    expect(place.at).toEqual([2, 2]);
    const svg = renderMapSvg(collection({ type: 'MultiPolygon', coordinates: [island, mainland] }), 'x', [
      'V',
    ])!.svg;
    expect(svg).toMatch(/data-u="V" data-box="[\d. ]+" fill-rule/); // several polygons: the largest one's box
  });

  it('a hole at the middle: the point avoids it', () => {
    const ring = square(0, 0, 10)[0]!;
    const hole = square(3, 3, 4)[0]!.reverse();
    const place = labelPlace([[ring, hole]], plain)!;
    expect(place.centred).toBe(false);
    expect(insidePolygon([ring.flat(), hole.flat()], ...place.at)).toBe(true);
  });

  it('interior point: the widest run inside on the line, cut to the box', () => {
    const rings = [square(0, 0, 2)[0]!.flat(), square(5, 0, 6)[0]!.flat()];
    expect(interiorPoint(rings, [0, 0, 11, 6])).toEqual([8, 4]); // the wider square, on a line clear of vertices
    expect(interiorPoint(rings, [0, 0, 2, 2])).toEqual([1, 1]); // within the box asked
  });
});
