// The map tiles (build/tiles/): archives that the reference PMTiles reader
// reads back, borders that two neighbours draw identically at every zoom,
// and views that stay within the byte budget, on the sample data.
import { join } from 'node:path';
import { PMTiles, zxyToTileId } from 'pmtiles';
import { BufferSource } from '../support/pmtiles-source.ts';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { OuterRings, planeOf, type Plane } from '../../build/geo/map-plane.ts';
import { gridRings } from '../../build/tiles/grid.ts';
import { levelArchive } from '../../build/tiles/level-tiles.ts';
import { readLevelRings, type LevelRings } from '../../build/tiles/level-rings.ts';
import { writeArchive } from '../../build/tiles/pmtiles.ts';
import { decodeTile, ringsOf } from '../../src/client/mvt.ts';
import { Archive } from '../../src/client/pmtiles-reader.ts';
import { TileSource } from '../../src/client/tile-plan.ts';
import { MAP_WIDTH, TILE_EXTENT, tileId, type TilesInfo } from '../../build/core/shared/tiles.ts';

const DATA = join(import.meta.dirname, '../../data/earth');

interface Cut {
  rings: LevelRings;
  plane: Plane;
  bytes: Buffer;
  info: TilesInfo;
}

/** Returns a level of the sample cut into tiles in its own plane (as the build frames ADM0 and uses it for all). */
async function cut(iso: string, level: string, planeFrom = level): Promise<Cut> {
  const frame = await readLevelRings([join(DATA, iso, `${iso}_${planeFrom}.geojson`)]);
  const outer = new OuterRings();
  for (let r = 0; r < frame.rings; r++) {
    if (frame.ringOuter.data[r] !== r) continue;
    const s = frame.ringStart.data[r];
    const e = frame.ringStart.data[r + 1];
    const coordinates = [];
    for (let i = s; i < e; i++) coordinates.push([frame.coords.data[2 * i], frame.coords.data[2 * i + 1]]);
    outer.add({ type: 'Polygon', coordinates: [coordinates] });
  }
  const plane = planeOf(outer)!;
  const rings = await readLevelRings([join(DATA, iso, `${iso}_${level}.geojson`)]);
  const { bytes, tiles } = levelArchive(rings, plane, `${iso}_${level}`);
  return {
    rings,
    plane,
    bytes,
    info: { url: '', bytes: bytes.length, root: tiles.root, levels: tiles.levels, named: true },
  };
}

/** Returns every stored tile of an archive, read with the reference reader: [z, x, y, decompressed bytes]. */
async function storedTiles(bytes: Buffer): Promise<[number, number, number, Uint8Array][]> {
  const reader = new PMTiles(new BufferSource(bytes));
  const header = await reader.getHeader();
  const out: [number, number, number, Uint8Array][] = [];
  for (let z = header.minZoom; z <= header.maxZoom; z++) {
    for (let x = 0; x < 2 ** z; x++) {
      for (let y = 0; y < 2 ** z; y++) {
        const tile = await reader.getZxy(z, x, y);
        if (tile) out.push([z, x, y, new Uint8Array(tile.data)]);
      }
    }
  }
  return out;
}

describe('PMTiles archives', () => {
  it('tile ids follow the spec (Hilbert order within a zoom), as the reference reader numbers them', () => {
    for (const [z, x, y] of [
      [0, 0, 0],
      [1, 1, 0],
      [3, 5, 2],
      [7, 100, 27],
      [12, 4095, 1],
      [15, 12345, 30000],
    ])
      expect(tileId(z, x, y), `${z}/${x}/${y}`).toBe(zxyToTileId(z, x, y));
  });

  it('an archive of a real level reads back with the reference reader: header, metadata, every tile', async () => {
    const { bytes, info } = await cut('CHL', 'ADM1');
    const reader = new PMTiles(new BufferSource(bytes));
    const header = await reader.getHeader();
    expect(header.specVersion).toBe(3);
    expect(header.tileType).toBe(1); // MVT
    expect(header.clustered).toBe(true);
    expect(header.maxZoom).toBeLessThanOrEqual(info.levels);
    const metadata = (await reader.getMetadata()) as { geoshelf: { root: number[]; levels: number } };
    expect(metadata.geoshelf.root).toEqual(info.root);
    const tiles = await storedTiles(bytes);
    expect(tiles.length).toBe(header.numAddressedTiles);
    for (const [, , , data] of tiles) expect(decodeTile(data).pieces.length).toBeGreaterThan(0);
  });

  it('a directory too large for the first 16 KiB is split into leaf directories that both readers follow', async () => {
    // 65,536 tiles sharing 251 contents in a scattered order: entries whose offsets do not follow each other.
    const payloads = Array.from({ length: 251 }, (_, i) => gzipSync(Buffer.from(`tile ${i}`)));
    const content = (x: number, y: number) => (x * 7919 + y * 104729) % 251;
    const tiles = [];
    for (let x = 0; x < 256; x++) {
      for (let y = 0; y < 256; y++) tiles.push({ z: 8, x, y, data: payloads[content(x, y)] });
    }
    const bytes = writeArchive(tiles, { bounds: [-1, -1, 1, 1], metadata: {} });
    const reader = new PMTiles(new BufferSource(bytes));
    const header = await reader.getHeader();
    expect(header.leafDirectoryLength).toBeGreaterThan(0);
    expect(header.rootDirectoryLength + 127).toBeLessThanOrEqual(16_384);
    const ours = new Archive(async (offset, length) => {
      const b = bytes.subarray(offset, offset + length);
      return b.buffer.slice(b.byteOffset, b.byteOffset + b.length) as ArrayBuffer;
    });
    for (const [x, y] of [
      [0, 0],
      [255, 255],
      [64, 3],
      [5, 199],
    ]) {
      const theirs = await reader.getZxy(8, x, y);
      expect(Buffer.from(theirs!.data).toString()).toBe(`tile ${content(x, y)}`);
      expect(Buffer.from((await ours.tile(8, x, y))!).toString()).toBe(`tile ${content(x, y)}`);
    }
    expect(await ours.tile(7, 0, 0)).toBeUndefined();
  });
});

describe('shared borders', () => {
  /**
   * Returns how many vertices that two units share in the source are kept by
   * one and dropped by the other, in the simplified tiles of some level (a
   * gap or a sliver there). Checked where one source point alone lands on a
   * tile unit, inside the tile (not its buffer), for units drawn in the tile.
   */
  async function disagreements(c: Cut): Promise<{ checked: number; disagree: number }> {
    const { grid, rings } = gridRings(c.rings, c.plane);
    let [checked, disagree] = [0, 0];
    const tiles = (await storedTiles(c.bytes)).map(([z, x, y, data]) => ({
      z,
      x,
      y,
      tile: decodeTile(data),
    }));
    for (const level of new Set(tiles.filter((t) => t.tile.extent === TILE_EXTENT).map((t) => t.z))) {
      const scale = 2 ** (grid.deepest - level);
      // Rounded position → the units through it and the distinct source points there.
      const at = new Map<string, { units: Set<number>; points: Set<string> }>();
      for (let r = 0; r < rings.rings; r++) {
        for (let i = rings.ringStart.data[r]; i < rings.ringStart.data[r + 1]; i++) {
          const [gx, gy] = [rings.x.data[i], rings.y.data[i]];
          const key = `${Math.round(gx / scale)} ${Math.round(gy / scale)}`;
          let e = at.get(key);
          if (!e) at.set(key, (e = { units: new Set(), points: new Set() }));
          e.units.add(rings.unit[r]);
          e.points.add(`${gx} ${gy}`);
        }
      }
      for (const t of tiles.filter((t) => t.z === level && t.tile.extent === TILE_EXTENT)) {
        const [ox, oy] = [t.x * TILE_EXTENT, t.y * TILE_EXTENT];
        const kept = new Map<number, Set<string>>(); // unit → its vertices in the tile, global tile units
        for (const piece of t.tile.pieces) {
          const set = kept.get(piece.unit) ?? new Set<string>();
          for (const ring of ringsOf(piece.d)) for (const [x, y] of ring) set.add(`${x + ox} ${y + oy}`);
          kept.set(piece.unit, set);
        }
        for (const [key, { units, points }] of at) {
          if (units.size < 2 || points.size > 1) continue;
          const [x, y] = key.split(' ').map(Number);
          if (x <= ox || y <= oy || x >= ox + TILE_EXTENT || y >= oy + TILE_EXTENT) continue;
          const drawn = [...units].filter((u) => kept.has(u));
          const keeping = drawn.filter((u) => kept.get(u)!.has(key));
          if (keeping.length === 0) continue;
          checked++;
          if (keeping.length !== drawn.length) disagree++;
        }
      }
    }
    return { checked, disagree };
  }

  for (const [iso, level] of [
    ['USA', 'ADM1'],
    ['CHL', 'ADM1'],
    ['USA', 'ADM2'],
  ] as const) {
    it(`${iso} ${level}: a vertex two units share is kept by both or by neither, at every simplified zoom`, async () => {
      const { checked, disagree } = await disagreements(await cut(iso, level, 'ADM0'));
      expect(checked).toBeGreaterThan(300);
      expect(disagree).toBe(0);
    }, 120_000);
  }
});

describe('bytes per view', () => {
  let usa: Cut;
  beforeAll(async () => {
    usa = await cut('USA', 'ADM2', 'ADM0');
  });

  /** Returns the bytes a fresh reader moves to draw `view` at `zoom` (× the home frame), the first 16 KiB included. */
  async function viewBytes(
    view: { x: number; y: number; w: number; h: number },
    zoom: number,
  ): Promise<number> {
    let moved = 0;
    const source = new TileSource(
      new Archive(async (offset, length) => {
        const b = usa.bytes.subarray(offset, offset + length);
        moved += b.length;
        return b.buffer.slice(b.byteOffset, b.byteOffset + b.length) as ArrayBuffer;
      }),
      usa.info,
    );
    const tiles = await source.plan(view, (zoom * 600) / MAP_WIDTH);
    expect(tiles.length).toBeGreaterThan(0);
    return moved;
  }

  it('USA ADM2 (3,000 counties): every view at 1×, 8× and 64× on any county moves at most 600 KB', async () => {
    const { grid, rings } = gridRings(usa.rings, usa.plane);
    const [ox, oy, side] = grid.root;
    const k = side / grid.size;
    const home = { x: 0, y: 0, w: MAP_WIDTH, h: usa.plane.height };
    const worst: Record<number, number> = { 1: await viewBytes(home, 1), 8: 0, 64: 0 };
    // Every 25th county's centre (its first ring's box), at 8× and 64×.
    for (let r = 0; r < rings.rings; r += 25) {
      let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
      for (let i = rings.ringStart.data[r]; i < rings.ringStart.data[r + 1]; i++) {
        [x0, x1] = [Math.min(x0, rings.x.data[i]), Math.max(x1, rings.x.data[i])];
        [y0, y1] = [Math.min(y0, rings.y.data[i]), Math.max(y1, rings.y.data[i])];
      }
      const [cx, cy] = [ox + ((x0 + x1) / 2) * k, oy + ((y0 + y1) / 2) * k];
      for (const zoom of [8, 64]) {
        const [w, h] = [home.w / zoom, home.h / zoom];
        worst[zoom] = Math.max(worst[zoom], await viewBytes({ x: cx - w / 2, y: cy - h / 2, w, h }, zoom));
      }
    }
    for (const zoom of [1, 8, 64]) expect(worst[zoom], `${zoom}×`).toBeLessThanOrEqual(600_000);
  }, 120_000);
});
