// The antimeridian cut in the tiles (issue 19): Fiji's data is split at ±180,
// and in the map's plane the halves meet along the cut, which is no border.
// Every stored tile of its archive, decoded as the map decodes it, strokes no
// edge along the cut inside the tile's square, and still fills every ring.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PMTiles } from 'pmtiles';
import { BufferSource } from '../support/pmtiles-source.ts';
import { describe, expect, it } from 'vitest';
import { OuterRings, planeOf, projector } from '../../build/geo/map-plane.ts';
import { LevelRings, readLevelRings } from '../../build/tiles/level-rings.ts';
import { levelArchive } from '../../build/tiles/level-tiles.ts';
import { decodeTile } from '../../src/client/mvt.ts';

const FIJI = join(import.meta.dirname, '../../data/earth/FJI/FJI_ADM0.geojson');

/** Returns the segments a path strokes (tile units): each subpath's edges, and its closing edge only when it ends in "z". */
function strokedSegments(d: string): [number, number, number, number][] {
  const out: [number, number, number, number][] = [];
  for (const sub of d.match(/M[^M]*/g) ?? []) {
    const pts: [number, number][] = [];
    for (const m of sub.matchAll(/([Ml])(-?\d+) (-?\d+)/g)) {
      const [a, b] = [Number(m[2]), Number(m[3])];
      const at = pts.at(-1) ?? [0, 0];
      pts.push(m[1] === 'M' ? [a, b] : [at[0] + a, at[1] + b]);
    }
    for (let i = 1; i < pts.length; i++) out.push([...pts[i - 1], ...pts[i]]);
    if (sub.endsWith('z')) out.push([...pts.at(-1)!, ...pts[0]]);
  }
  return out;
}

/** Returns what the tiles of `rings` stroke along the antimeridian between lat0 and lat1, tile by tile. */
async function strokesAlongCut(
  rings: LevelRings,
  features: { geometry: unknown }[],
  lat0: number,
  lat1: number,
) {
  const outer = new OuterRings();
  for (const f of features) outer.add(f.geometry);
  const plane = planeOf(outer)!;
  const { bytes, tiles } = levelArchive(rings, plane, 'CUT');

  // The cut in SVG units: the antimeridian across the shapes' latitudes.
  const project = projector(plane);
  const at = new Float64Array(2);
  const cut: [number, number][] = [];
  for (let lat = lat0; lat <= lat1; lat += 0.0005) {
    project(180, lat, at);
    cut.push([at[0], at[1]]);
  }
  const xs = cut.map(([x]) => x);
  const [west, east] = [Math.min(...xs) - 1, Math.max(...xs) + 1];
  const distance = (x: number, y: number) => {
    if (x < west || x > east) return Infinity; // far from the cut: most points
    let best = Infinity;
    for (let i = 1; i < cut.length; i++) {
      const [ax, ay, bx, by] = [...cut[i - 1], ...cut[i]];
      const [dx, dy] = [bx - ax, by - ay];
      const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)));
      best = Math.min(best, Math.hypot(x - ax - t * dx, y - ay - t * dy));
    }
    return best;
  };

  const reader = new PMTiles(new BufferSource(bytes));
  const [ox, oy, side] = tiles.root;
  const along: string[] = [];
  let [checked, closedAcross, stored] = [0, 0, 0];
  for (let z = 0; z <= tiles.levels; z++) {
    for (let x = 0; x < 2 ** z; x++) {
      for (let y = 0; y < 2 ** z; y++) {
        const tile = await reader.getZxy(z, x, y);
        if (!tile) continue;
        stored++;
        const { extent, pieces } = decodeTile(new Uint8Array(tile.data));
        const size = side / 2 ** z;
        const unit = size / extent; // SVG units per tile unit
        const svg = (tx: number, ty: number) => [ox + x * size + tx * unit, oy + y * size + ty * unit];
        for (const piece of pieces) {
          closedAcross += (piece.d.match(/M/g) ?? []).length - (piece.d.match(/z/g) ?? []).length;
          for (const [x0, y0, x1, y1] of strokedSegments(piece.d)) {
            if (x0 === x1 && y0 === y1) continue;
            const [mx, my] = [(x0 + x1) / 2, (y0 + y1) / 2];
            if (mx < 0 || my < 0 || mx > extent || my > extent) continue; // in the buffer: clipped away
            checked++;
            const [a, b] = [svg(x0, y0), svg(x1, y1)];
            const tolerance = Math.max(unit, 1e-4);
            if (distance(a[0], a[1]) <= tolerance && distance(b[0], b[1]) <= tolerance)
              along.push(`${z}/${x}/${y}: ${a.map((v) => v.toFixed(4))} → ${b.map((v) => v.toFixed(4))}`);
          }
        }
      }
    }
  }
  return { along, checked, closedAcross, stored };
}

/** Returns n points from (lon, lat0) to (lon, lat1) along a wiggly line (a coast), ends included. */
function coast(lon: number, lat0: number, lat1: number, n: number): number[][] {
  return Array.from({ length: n }, (_, i) => {
    const t = i / (n - 1);
    const wiggle = i === 0 || i === n - 1 ? 0 : 0.05 * Math.sin(i * 0.7) + 0.02 * Math.sin(i * 0.13);
    return [lon + wiggle, lat0 + t * (lat1 - lat0)];
  });
}

describe('tiles at the antimeridian', () => {
  it('Fiji (the sample, cut at ±180): no tile strokes an edge along the cut inside its square', async () => {
    const fiji = JSON.parse(readFileSync(FIJI, 'utf8')) as { features: { geometry: unknown }[] };
    const { along, checked, closedAcross } = await strokesAlongCut(
      await readLevelRings([FIJI]),
      fiji.features,
      -17.2,
      -15.9,
    );
    expect(along).toEqual([]);
    expect(checked).toBeGreaterThan(100);
    expect(closedAcross).toBeGreaterThan(0); // rings left open at the cut
  });

  it('an island cut at ±180, detailed enough for several levels: no tile of any level strokes the cut', async () => {
    // West half: its coast at 179°E, its cut at 180°; east half: its cut at -180°, its coast at 179°W.
    const west = [
      [179, -18],
      [180, -18],
      [180, -17.5],
      [180, -17],
      ...coast(179, -17, -18, 3000).slice(0, -1),
    ];
    const east = [[-180, -18], ...coast(-179, -18, -17, 3000), [-180, -17], [-180, -17.5]];
    const geometry = {
      type: 'MultiPolygon',
      coordinates: [[[...west, west[0]]], [[...east, east[0]]]],
    };
    const rings = new LevelRings();
    rings.addFeature({ geometry });
    const { along, checked, closedAcross, stored } = await strokesAlongCut(rings, [{ geometry }], -18, -17);
    expect(stored).toBeGreaterThan(4); // split below the root: the cut is clipped into several tiles
    expect(along).toEqual([]);
    expect(checked).toBeGreaterThan(1000);
    expect(closedAcross).toBeGreaterThan(2);
  });
});
