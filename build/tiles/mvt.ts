// Encodes one tile as a Mapbox Vector Tile (spec 2.1): one layer, "units",
// of polygon features, each feature's id the unit's index in its level's
// units list. Its one property, "cut", lists (e.g. "0,3") the feature's rings
// whose closing edge lies along the antimeridian cut: drawn open, filled but
// not stroked there (build/geo/antimeridian.ts). Rings are written as the spec orders them: each
// outer ring (clockwise in tile coordinates, y down) followed by its holes
// (counter-clockwise). Written straight from integer coordinates; no
// intermediate GeoJSON. The Web Mercator tiles (mercator.ts) give each
// feature its unit's properties too (UnitProperties).

import { CUT_KEY } from '../core/shared/tiles.ts';

export const LAYER = 'units';

/** A growable byte buffer with protobuf varints. */
class Bytes {
  data: Uint8Array;
  n = 0;
  constructor(size = 1024) {
    this.data = new Uint8Array(size);
  }
  private room(k: number): void {
    if (this.n + k <= this.data.length) return;
    const bigger = new Uint8Array(Math.max(this.data.length * 2, this.n + k));
    bigger.set(this.data.subarray(0, this.n));
    this.data = bigger;
  }
  varint(v: number): void {
    this.room(10);
    while (v >= 0x80) {
      this.data[this.n++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.data[this.n++] = v;
  }
  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.data.set(b, this.n);
    this.n += b.length;
  }
  /** A length-delimited field: its tag, its length, its bytes. */
  field(tag: number, b: Uint8Array): void {
    this.varint(tag);
    this.varint(b.length);
    this.bytes(b);
  }
  take(): Uint8Array {
    return this.data.slice(0, this.n);
  }
  /** Returns the bytes written, valid until the next write. */
  view(): Uint8Array {
    return this.data.subarray(0, this.n);
  }
}

/** Per unit (feature id), its string properties by key, e.g. {keys: ["name"], values: [["Texas"], …]}. */
export interface UnitProperties {
  keys: string[];
  values: (string | undefined)[][]; // values[unit][k] is keys[k]'s value; undefined: none
}

const utf8 = new TextEncoder();
const zigzag = (v: number) => (v < 0 ? -2 * v - 1 : 2 * v);

/** Encoded value messages by string: a unit's name is written in every tile it is in. */
const VALUES = new Map<string, Uint8Array>();

/** Returns the Value message of a string (field 1, string_value). */
function valueMessage(value: string): Uint8Array {
  let bytes = VALUES.get(value);
  if (!bytes) {
    const v = new Bytes(value.length * 3 + 8);
    v.field((1 << 3) | 2, utf8.encode(value));
    if (VALUES.size >= 100_000) VALUES.clear(); // bounded: a worker cuts many levels
    VALUES.set(value, (bytes = v.take()));
  }
  return bytes;
}

/** Returns twice the signed area of ring [s, e) (positive: clockwise with y down). */
function ringArea2(xs: ArrayLike<number>, ys: ArrayLike<number>, s: number, e: number): number {
  let sum = 0;
  for (let i = s, j = e - 1; i < e; j = i++) sum += xs[j] * ys[i] - xs[i] * ys[j];
  return sum;
}

/** A feature, its tags and its geometry, as flush() writes them: one set for every encoder (each flush is whole). */
const SCRATCH = [new Bytes(), new Bytes(64), new Bytes()];

/** Builds one tile: add each feature's rings (outer first, then its holes), then finish(). */
export class TileEncoder {
  private layer = new Bytes();
  private geometry: number[] = [];
  private id = -1;
  private cx = 0;
  private cy = 0;
  private rings = 0; // rings of the current feature so far
  private open: number[] = []; // the current feature's rings that close across a cut
  private keys = new Map<string, number>(); // the layer's keys, in the order first used
  private values = new Map<string, number>(); // the layer's string values
  private scratch = SCRATCH; // a feature, its tags, its geometry

  constructor(
    private extent: number,
    private properties?: UnitProperties,
  ) {
    this.layer.varint((15 << 3) | 0); // version
    this.layer.varint(2);
    this.layer.field((1 << 3) | 2, utf8.encode(LAYER));
  }

  /** Starts feature `id` (its rings follow). */
  feature(id: number): void {
    this.flush();
    this.id = id;
    this.cx = 0;
    this.cy = 0;
    this.rings = 0;
    this.open = [];
  }

  /**
   * Adds ring [s, e) of `xs`/`ys` (open, at least three points, integers in
   * tile units) to the current feature, turned to run as `outer` requires;
   * `open`: its closing edge (last point to first) is a cut, not to be stroked.
   */
  ring(
    xs: ArrayLike<number>,
    ys: ArrayLike<number>,
    s: number,
    e: number,
    outer: boolean,
    open = false,
  ): void {
    if (open) this.open.push(this.rings);
    this.rings++;
    const forward = ringArea2(xs, ys, s, e) >= 0 === outer;
    const g = this.geometry;
    const count = e - s;
    for (let k = 0; k < count; k++) {
      const i = forward ? s + k : e - 1 - k;
      if (k === 0) g.push((1 << 3) | 1);
      else if (k === 1) g.push(((count - 1) << 3) | 2);
      g.push(zigzag(xs[i] - this.cx), zigzag(ys[i] - this.cy));
      this.cx = xs[i];
      this.cy = ys[i];
    }
    g.push((1 << 3) | 7);
  }

  private flush(): void {
    if (this.id < 0 || this.geometry.length === 0) return;
    const [f, tags, packed] = this.scratch;
    f.n = tags.n = packed.n = 0;
    f.varint((1 << 3) | 0);
    f.varint(this.id);
    if (this.open.length > 0) this.tag(tags, CUT_KEY, this.open.join(','));
    const own = this.properties?.values[this.id];
    this.properties?.keys.forEach((key, k) => {
      if (own?.[k] !== undefined) this.tag(tags, key, own[k]);
    });
    if (tags.n > 0) f.field((2 << 3) | 2, tags.view());
    f.varint((3 << 3) | 0);
    f.varint(3); // POLYGON
    for (const v of this.geometry) packed.varint(v);
    f.field((4 << 3) | 2, packed.view());
    this.layer.field((2 << 3) | 2, f.view());
    this.geometry = [];
  }

  /** Appends the tag key = value (both entered in the layer's tables) to `tags`. */
  private tag(tags: Bytes, key: string, value: string): void {
    if (!this.keys.has(key)) this.keys.set(key, this.keys.size);
    if (!this.values.has(value)) this.values.set(value, this.values.size);
    tags.varint(this.keys.get(key)!);
    tags.varint(this.values.get(value)!);
  }

  /** Returns the tile's bytes (uncompressed). */
  finish(): Uint8Array {
    this.flush();
    for (const key of this.keys.keys()) this.layer.field((3 << 3) | 2, utf8.encode(key));
    for (const value of this.values.keys()) this.layer.field((4 << 3) | 2, valueMessage(value));
    this.layer.varint((5 << 3) | 0);
    this.layer.varint(this.extent);
    const tile = new Bytes();
    tile.field((3 << 3) | 2, this.layer.take());
    return tile.take();
  }
}
