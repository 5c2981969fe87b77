// Decodes the map's vector tiles (Mapbox Vector Tile 2.1, the one "units"
// layer build/tiles/mvt.ts writes) straight into SVG path data in tile
// units: no intermediate GeoJSON. Also returns each outer ring's box, for the
// markers of tiny islands. A ring its feature's "cut" property names (e.g.
// "0,3") closes across the antimeridian cut: it is left open (no "z"), so it
// is filled but not stroked along the cut. No DOM: the tests decode our tiles
// with it.

import { CUT_KEY } from '../../build/core/shared/tiles.ts';

export type Box = [number, number, number, number];

export interface Piece {
  unit: number; // the feature's id: the unit's index in its level
  d: string; // path data, tile units
  parts: Box[]; // the box of each outer ring
}

export interface DecodedTile {
  extent: number;
  pieces: Piece[];
}

/** Returns the polygons of `layer` in an MVT tile. */
export function decodeTile(buf: Uint8Array, layer = 'units'): DecodedTile {
  let pos = 0;
  const varint = (): number => {
    let v = 0;
    for (let m = 1; ; m *= 128) {
      const b = buf[pos++];
      if (b === undefined) throw new Error('truncated vector tile');
      v += (b & 0x7f) * m;
      if (b < 0x80) return v;
    }
  };
  const skip = (wire: number) => {
    if (wire === 0) varint();
    else if (wire === 2) pos += varint();
    else if (wire === 5) pos += 4;
    else if (wire === 1) pos += 8;
    else throw new Error(`vector tile: wire type ${wire}`);
  };
  let out: DecodedTile = { extent: 4096, pieces: [] };
  while (pos < buf.length) {
    const key = varint();
    if (key !== ((3 << 3) | 2)) {
      skip(key & 7);
      continue;
    }
    const end = varint() + pos;
    let name = '';
    let extent = 4096;
    const features: [number, number, number, number[]][] = []; // id, geometry start, end, tags
    const keys: string[] = [];
    const values: string[] = [];
    while (pos < end) {
      const k = varint();
      if (k === ((1 << 3) | 2)) {
        const len = varint();
        name = new TextDecoder().decode(buf.subarray(pos, pos + len));
        pos += len;
      } else if (k === ((3 << 3) | 2)) {
        const len = varint();
        keys.push(new TextDecoder().decode(buf.subarray(pos, pos + len)));
        pos += len;
      } else if (k === ((4 << 3) | 2)) {
        const vend = varint() + pos;
        let value = '';
        while (pos < vend) {
          const vk = varint();
          if (vk !== ((1 << 3) | 2)) {
            skip(vk & 7);
            continue;
          }
          const len = varint();
          value = new TextDecoder().decode(buf.subarray(pos, pos + len));
          pos += len;
        }
        values.push(value);
      } else if (k === ((5 << 3) | 0)) extent = varint();
      else if (k === ((2 << 3) | 2)) {
        const fend = varint() + pos;
        let [id, gs, ge] = [0, 0, 0];
        const tags: number[] = [];
        while (pos < fend) {
          const fk = varint();
          if (fk === ((1 << 3) | 0)) id = varint();
          else if (fk === ((2 << 3) | 2)) {
            const tend = varint() + pos;
            while (pos < tend) tags.push(varint());
          } else if (fk === ((4 << 3) | 2)) {
            const len = varint();
            [gs, ge] = [pos, pos + len];
            pos += len;
          } else skip(fk & 7);
        }
        features.push([id, gs, ge, tags]);
      } else skip(k & 7);
    }
    if (name !== layer) continue;
    const after = pos;
    /** The rings a feature's tags name as closing across the cut. */
    const openRings = (tags: number[]): Set<number> => {
      for (let t = 0; t + 1 < tags.length; t += 2) {
        if (keys[tags[t]] === CUT_KEY) return new Set((values[tags[t + 1]] ?? '').split(',').map(Number));
      }
      return new Set();
    };
    out = { extent, pieces: features.map(([id, s, e, tags]) => piece(id, s, e, openRings(tags))) };
    pos = after;
  }
  return out;

  function piece(unit: number, start: number, end: number, open: Set<number>): Piece {
    pos = start;
    let [x, y, sx, sy, area] = [0, 0, 0, 0, 0];
    let ring = -1;
    let box: Box = [0, 0, 0, 0];
    const parts: Box[] = [];
    const d: string[] = [];
    while (pos < end) {
      const c = varint();
      const [cmd, count] = [c & 7, c >> 3];
      if (cmd === 7) {
        if (!open.has(ring)) d.push('z');
        if (area >= 0) parts.push(box); // outer rings run clockwise (y down); holes are negative
        continue;
      }
      for (let i = 0; i < count; i++) {
        const zx = varint();
        const zy = varint();
        const dx = (zx >>> 1) ^ -(zx & 1);
        const dy = (zy >>> 1) ^ -(zy & 1);
        const [px, py] = [x, y];
        x += dx;
        y += dy;
        if (cmd === 1) {
          ring++;
          d.push(`M${x} ${y}`);
          [sx, sy, area] = [x, y, 0];
          box = [x, y, x, y];
        } else {
          d.push(`l${dx} ${dy}`);
          box = [Math.min(box[0], x), Math.min(box[1], y), Math.max(box[2], x), Math.max(box[3], y)];
          area += (px - sx) * (y - sy) - (x - sx) * (py - sy);
        }
      }
    }
    return { unit, d: d.join(''), parts };
  }
}

/** Returns the rings of a piece's path data as absolute points (tile units); for tests and hit checks. */
export function ringsOf(d: string): [number, number][][] {
  const rings: [number, number][][] = [];
  let [x, y] = [0, 0];
  for (const m of d.matchAll(/([Mlz])(?:(-?\d+) (-?\d+))?/g)) {
    if (m[1] === 'z') continue;
    const [a, b] = [Number(m[2]), Number(m[3])];
    if (m[1] === 'M') {
      [x, y] = [a, b];
      rings.push([[x, y]]);
    } else {
      [x, y] = [x + a, y + b];
      rings.at(-1)!.push([x, y]);
    }
  }
  return rings;
}
