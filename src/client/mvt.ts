// Decodes the map's vector tiles (Mapbox Vector Tile 2.1, the one "units"
// layer build/tiles/mvt.ts writes) straight into SVG path data in tile
// units: no intermediate GeoJSON. Also returns each outer ring's box, for the
// markers of tiny islands. A ring its feature's "cut" property names (e.g.
// "0,3") closes across the antimeridian cut: it is left open (no "z"), so it
// is filled but not stroked along the cut. No DOM: the tests decode our tiles
// with it. Hand-written rather than @mapbox/vector-tile + pbf: with the PMTiles
// reader (./pmtiles-reader.ts) it is 1.9 KB gzipped against 10.1 KB for those
// and pmtiles, and decodes the sample USA's tiles to path data in 0.4–1.3× their
// time (bench:libraries, 2026-11-27, load 12–16: noisy); the tests read our archives with pmtiles.

import { CUT_KEY } from '../../build/core/shared/tiles.ts';

type Box = [number, number, number, number];

interface Piece {
  unit: number; // the feature's id: the unit's index in its level
  d: string; // path data, tile units
  parts: Box[]; // the box of each outer ring
}

export interface DecodedTile {
  extent: number;
  pieces: Piece[];
}

/** A cursor over protocol-buffer bytes: the four wire types MVT uses. */
class Proto {
  pos = 0;
  constructor(readonly buf: Uint8Array) {}

  varint(): number {
    let v = 0;
    for (let m = 1; ; m *= 128) {
      const b = this.buf[this.pos++];
      if (b === undefined) throw new Error('truncated vector tile');
      v += (b & 0x7f) * m;
      if (b < 0x80) return v;
    }
  }

  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 2) this.pos += this.varint();
    else if (wire === 5) this.pos += 4;
    else if (wire === 1) this.pos += 8;
    else throw new Error(`vector tile: wire type ${wire}`);
  }

  string(): string {
    const len = this.varint();
    const text = DECODER.decode(this.buf.subarray(this.pos, this.pos + len));
    this.pos += len;
    return text;
  }
}

const DECODER = new TextDecoder();
const field = (n: number, wire: number) => (n << 3) | wire;

/** One feature of a layer: its id, where its geometry's commands lie, its tags. */
interface RawFeature {
  id: number;
  start: number;
  end: number;
  tags: number[];
}

/** One layer as read: its name, extent, features, and its keys and (string) values. */
interface RawLayer {
  name: string;
  extent: number;
  features: RawFeature[];
  keys: string[];
  values: string[];
}

/** Returns the polygons of `layer` in an MVT tile. */
export function decodeTile(buf: Uint8Array, layer = 'units'): DecodedTile {
  const r = new Proto(buf);
  let out: DecodedTile = { extent: 4096, pieces: [] };
  while (r.pos < buf.length) {
    const key = r.varint();
    if (key !== field(3, 2)) {
      r.skip(key & 7);
      continue;
    }
    const found = readLayer(r, r.varint() + r.pos);
    if (found.name !== layer) continue;
    const after = r.pos;
    /** The rings a feature's tags name as closing across the cut. */
    const openRings = (tags: number[]): Set<number> => {
      for (let t = 0; t + 1 < tags.length; t += 2) {
        if (found.keys[tags[t]!] === CUT_KEY) {
          return new Set((found.values[tags[t + 1]!] ?? '').split(',').map(Number));
        }
      }
      return new Set();
    };
    out = { extent: found.extent, pieces: found.features.map((f) => piece(r, f, openRings(f.tags))) };
    r.pos = after;
  }
  return out;
}

/** Reads a layer message that ends at `end`. */
function readLayer(r: Proto, end: number): RawLayer {
  const layer: RawLayer = { name: '', extent: 4096, features: [], keys: [], values: [] };
  while (r.pos < end) {
    const k = r.varint();
    if (k === field(1, 2)) layer.name = r.string();
    else if (k === field(3, 2)) layer.keys.push(r.string());
    else if (k === field(4, 2)) layer.values.push(readValue(r, r.varint() + r.pos));
    else if (k === field(5, 0)) layer.extent = r.varint();
    else if (k === field(2, 2)) layer.features.push(readFeature(r, r.varint() + r.pos));
    else r.skip(k & 7);
  }
  return layer;
}

/** Reads a value message: its string, or '' (the tiles hold only string values). */
function readValue(r: Proto, end: number): string {
  let value = '';
  while (r.pos < end) {
    const k = r.varint();
    if (k === field(1, 2)) value = r.string();
    else r.skip(k & 7);
  }
  return value;
}

/** Reads a feature message, leaving its geometry to piece(). */
function readFeature(r: Proto, end: number): RawFeature {
  const f: RawFeature = { id: 0, start: 0, end: 0, tags: [] };
  while (r.pos < end) {
    const k = r.varint();
    if (k === field(1, 0)) f.id = r.varint();
    else if (k === field(2, 2)) {
      const tagsEnd = r.varint() + r.pos;
      while (r.pos < tagsEnd) f.tags.push(r.varint());
    } else if (k === field(4, 2)) {
      const len = r.varint();
      [f.start, f.end] = [r.pos, r.pos + len];
      r.pos += len;
    } else r.skip(k & 7);
  }
  return f;
}

/**
 * Decodes a feature's geometry commands into path data and its outer rings'
 * boxes. Scalars only in the loop (no array per point): bench:libraries.
 */
function piece(r: Proto, f: RawFeature, open: Set<number>): Piece {
  r.pos = f.start;
  let x = 0;
  let y = 0;
  let sx = 0;
  let sy = 0;
  let area = 0;
  let [x0, y0, x1, y1] = [0, 0, 0, 0];
  let ring = -1;
  const parts: Box[] = [];
  let d = '';
  while (r.pos < f.end) {
    const c = r.varint();
    const cmd = c & 7;
    const count = c >> 3;
    if (cmd === 7) {
      if (!open.has(ring)) d += 'z';
      if (area >= 0) parts.push([x0, y0, x1, y1]); // outer rings run clockwise (y down); holes are negative
      continue;
    }
    for (let i = 0; i < count; i++) {
      const zx = r.varint();
      const zy = r.varint();
      const dx = (zx >>> 1) ^ -(zx & 1);
      const dy = (zy >>> 1) ^ -(zy & 1);
      const px = x;
      const py = y;
      x += dx;
      y += dy;
      if (cmd === 1) {
        ring++;
        d += `M${x} ${y}`;
        sx = x0 = x1 = x;
        sy = y0 = y1 = y;
        area = 0;
      } else {
        d += `l${dx} ${dy}`;
        if (x < x0) x0 = x;
        else if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        else if (y > y1) y1 = y;
        area += (px - sx) * (y - sy) - (x - sx) * (py - sy);
      }
    }
  }
  return { unit: f.id, d, parts };
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
