// The Web Mercator archives (build/tiles/mercator.ts) against their
// source, every tile of real levels decoded by `@mapbox/vector-tile`: every
// vertex lands within one tile pixel of its own unit's source boundary, every
// source vertex within one pixel of its unit's drawn boundary (so no detail
// lost beyond a pixel), and a border two units share is drawn identically by
// both at every zoom.
import { describe, expect, it } from 'vitest';
import { TILE_EXTENT } from '../../build/core/shared/tiles.ts';
import { mercator } from '../../build/tiles/mercator.ts';
import type { LevelRings } from '../../build/tiles/level-rings.ts';
import { cut, decoded } from '../support/mercator-tiles.ts';

const TILE_PX = 512; // a tile drawn as MapLibre draws it
/** Each check's bound: USA ADM2's shared-vertex check took 67 s in a clean-clone CI at load ~12, past the 60 s it had. */
const BOUND_MS = 300_000;

/** Segments bucketed by unit and square cell, to find the nearest to a point quickly. */
class Segments {
  private cells = new Map<string, number[]>(); // "unit cx cy" → segment indices
  private seg: number[] = []; // x0, y0, x1, y1 per segment
  constructor(private cell: number) {}

  /** Adds segment a–b of `unit`. */
  add(unit: unknown, a: [number, number], b: [number, number]): void {
    const k = this.seg.length / 4;
    this.seg.push(a[0], a[1], b[0], b[1]);
    const cell = (v: number) => Math.floor(v / this.cell);
    for (let cx = cell(Math.min(a[0], b[0])); cx <= cell(Math.max(a[0], b[0])); cx++)
      for (let cy = cell(Math.min(a[1], b[1])); cy <= cell(Math.max(a[1], b[1])); cy++) {
        const key = `${String(unit)} ${cx} ${cy}`;
        const list = this.cells.get(key) ?? [];
        list.push(k);
        this.cells.set(key, list);
      }
  }

  /** Adds every ring of `rings` (closed), in world fractions (mercator()). */
  static ofSource(rings: LevelRings, cell: number): Segments {
    const out = new Segments(cell);
    const c = rings.coords.data;
    for (let r = 0; r < rings.rings; r++) {
      const [s, e] = [rings.ringStart.data[r], rings.ringStart.data[r + 1]];
      for (let i = s; i < e; i++) {
        const j = i + 1 < e ? i + 1 : s;
        out.add(rings.ringUnit.data[r], mercator(c[2 * i], c[2 * i + 1]), mercator(c[2 * j], c[2 * j + 1]));
      }
    }
    return out;
  }

  /** Returns the distance from (x, y) to the nearest segment of `unit` within `reach` (else Infinity). */
  distance(unit: unknown, x: number, y: number, reach: number): number {
    let best = Infinity;
    const n = Math.ceil(reach / this.cell);
    const [cx, cy] = [Math.floor(x / this.cell), Math.floor(y / this.cell)];
    for (let i = cx - n; i <= cx + n; i++)
      for (let j = cy - n; j <= cy + n; j++) {
        for (const k of this.cells.get(`${String(unit)} ${i} ${j}`) ?? []) {
          const [x0, y0, x1, y1] = this.seg.slice(4 * k, 4 * k + 4);
          const [dx, dy] = [x1 - x0, y1 - y0];
          const l2 = dx * dx + dy * dy;
          const t = l2 > 0 ? Math.max(0, Math.min(1, ((x - x0) * dx + (y - y0) * dy) / l2)) : 0;
          best = Math.min(best, Math.hypot(x - x0 - t * dx, y - y0 - t * dy));
        }
      }
    return best;
  }
}

describe('Web Mercator tiles against their source', () => {
  for (const [iso, level] of [
    ['CHL', 'ADM1'],
    ['USA', 'ADM1'],
  ] as const) {
    it(
      `${iso} ${level}: every vertex inside its tile lies within one tile pixel of its own unit's source boundary, at every zoom`,
      async () => {
        const c = await cut(iso, level);
        const segments = Segments.ofSource(c.rings, 1 / 2 ** (c.maxzoom + 1) / 4);
        const units = c.properties.values;
        let checked = 0;
        let worst = 0;
        for (const t of await decoded(c.bytes)) {
          const px = 1 / (2 ** t.z * TILE_PX); // one tile pixel, in world fractions
          for (const f of t.features) {
            const unit = units.findIndex((v) => v[0] === f.props.unit_id);
            expect(unit, `${t.z}/${t.x}/${t.y} ${String(f.props.unit_id)}`).toBeGreaterThanOrEqual(0);
            for (const ring of f.rings) {
              for (const [x, y] of ring) {
                if (x <= 0 || y <= 0 || x >= TILE_EXTENT || y >= TILE_EXTENT) continue; // the buffer: clipped edges
                const [wx, wy] = [(t.x + x / TILE_EXTENT) / 2 ** t.z, (t.y + y / TILE_EXTENT) / 2 ** t.z];
                worst = Math.max(worst, segments.distance(unit, wx, wy, 2 * px) / px);
                checked++;
              }
            }
          }
        }
        expect(checked).toBeGreaterThan(10_000);
        expect(worst).toBeLessThanOrEqual(1);
      },
      BOUND_MS,
    );
  }

  for (const [iso, level] of [
    ['CHL', 'ADM1'],
    ['USA', 'ADM1'],
  ] as const) {
    it(
      `${iso} ${level}: every source vertex inside a tile lies within one tile pixel of its unit's drawn boundary there, at every zoom`,
      async () => {
        const c = await cut(iso, level);
        const co = c.rings.coords.data;
        const ids = c.properties.values.map((v) => v[0]);
        let [checked, worst] = [0, 0];
        for (const t of await decoded(c.bytes)) {
          // The tile's drawn rings in tile units (1 px = 8), and the source vertices inside it.
          const drawn = new Segments(64);
          for (const f of t.features)
            for (const ring of f.rings)
              ring.forEach((p, k) => drawn.add(f.props.unit_id, p, ring[(k + 1) % ring.length]));
          for (let r = 0; r < c.rings.rings; r++) {
            const id = ids[c.rings.ringUnit.data[r]];
            for (let i = c.rings.ringStart.data[r]; i < c.rings.ringStart.data[r + 1]; i++) {
              const [wx, wy] = mercator(co[2 * i], co[2 * i + 1]);
              const [x, y] = [(wx * 2 ** t.z - t.x) * TILE_EXTENT, (wy * 2 ** t.z - t.y) * TILE_EXTENT];
              if (x <= 8 || y <= 8 || x >= TILE_EXTENT - 8 || y >= TILE_EXTENT - 8) continue;
              worst = Math.max(worst, drawn.distance(id, x, y, 16) / (TILE_EXTENT / TILE_PX));
              checked++;
            }
          }
        }
        expect(checked).toBeGreaterThan(10_000);
        expect(worst).toBeLessThanOrEqual(1);
      },
      BOUND_MS,
    );
  }

  for (const [iso, level] of [
    ['USA', 'ADM1'],
    ['CHL', 'ADM1'],
    ['USA', 'ADM2'],
  ] as const) {
    it(
      `${iso} ${level}: a vertex two units share is drawn by both or by neither, at every zoom`,
      async () => {
        const c = await cut(iso, level);
        const tiles = await decoded(c.bytes);
        let [checked, disagree] = [0, 0];
        const size = TILE_EXTENT * 2 ** c.maxzoom;
        const co = c.rings.coords.data;
        const points = [...Array(c.rings.points).keys()].map((i) => {
          const [x, y] = mercator(co[2 * i], co[2 * i + 1]);
          return [Math.round(x * size), Math.round(y * size)];
        });
        for (let z = 0; z <= c.maxzoom; z++) {
          const scale = 2 ** (c.maxzoom - z);
          // Rounded position at this zoom → the units through it and the distinct source points there.
          const at = new Map<string, { x: number; y: number; units: Set<unknown>; points: Set<string> }>();
          for (let r = 0; r < c.rings.rings; r++) {
            const id = c.properties.values[c.rings.ringUnit.data[r]][0];
            for (let i = c.rings.ringStart.data[r]; i < c.rings.ringStart.data[r + 1]; i++) {
              const [gx, gy] = points[i];
              const [x, y] = [Math.round(gx / scale), Math.round(gy / scale)];
              const key = `${x} ${y}`;
              const e = at.get(key) ?? { x, y, units: new Set(), points: new Set() };
              e.units.add(id);
              e.points.add(`${gx} ${gy}`);
              at.set(key, e);
            }
          }
          // The shared positions by the tile they are in.
          const byTile = new Map<string, [string, { x: number; y: number; units: Set<unknown> }][]>();
          for (const [key, e] of at) {
            if (e.units.size < 2 || e.points.size > 1) continue;
            const tile = `${Math.floor(e.x / TILE_EXTENT)} ${Math.floor(e.y / TILE_EXTENT)}`;
            byTile.set(tile, [...(byTile.get(tile) ?? []), [key, e]]);
          }
          for (const t of tiles.filter((t) => t.z === z)) {
            const [ox, oy] = [t.x * TILE_EXTENT, t.y * TILE_EXTENT];
            const kept = new Map<unknown, Set<string>>();
            for (const f of t.features) {
              const set = kept.get(f.props.unit_id) ?? new Set<string>();
              for (const ring of f.rings) for (const [x, y] of ring) set.add(`${x + ox} ${y + oy}`);
              kept.set(f.props.unit_id, set);
            }
            for (const [key, { x, y, units }] of byTile.get(`${t.x} ${t.y}`) ?? []) {
              if (x <= ox || y <= oy || x >= ox + TILE_EXTENT || y >= oy + TILE_EXTENT) continue;
              const drawn = [...units].filter((u) => kept.has(u));
              const keeping = drawn.filter((u) => kept.get(u)!.has(key));
              if (keeping.length === 0) continue;
              checked++;
              if (keeping.length !== drawn.length) disagree++;
            }
          }
        }
        expect(checked).toBeGreaterThan(300);
        expect(disagree).toBe(0);
      },
      BOUND_MS,
    );
  }
});
